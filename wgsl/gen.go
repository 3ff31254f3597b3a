package wgsl

//go:generate go run ./internal/cmd/abigen -abi abi -o abi_gen.wgsl
