package wgsl

//go:generate go run ./internal/cmd/abigen -abi abi -o abi_gen.wgsl
//go:generate go run ./internal/cmd/abigen -abi abi -only trace.go -o trace_abi_gen.wgsl
//go:generate go run ./internal/cmd/abigen -abi abi/spawn -o spawn_gen.wgsl
//go:generate go run ./internal/cmd/wgslmin -o min abi_gen.wgsl megakernel.wgsl finalize.wgsl reduce_shared.wgsl reduce.wgsl reduce_windows.wgsl window_tenants.wgsl user_prelude.wgsl trace_abi_gen.wgsl trace.wgsl spawn_gen.wgsl spawn_prelude.wgsl spawn_shared.wgsl spawn_scan.wgsl spawn_finalize.wgsl
