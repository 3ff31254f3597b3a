// Package abi declares every number of the ringscope megakernel ABI v1
// (docs/PROTOCOL.md): control and slot word indices, statuses,
// opcodes, fault codes, log layout and bindings.
//
// It is the single source of truth: the WGSL kernels get these values from
// wgsl/abi_gen.wgsl, which is generated from this package, and every Go
// decoder imports them from here. It is a leaf package with no imports.
package abi
