// Package examples holds the worked examples of docs/OPCODES.md §5 that the
// page ships as Kernel panel presets: each builds a kernel definition from
// a seed (random inputs of random sizes) and checks a run of it on the
// host, recomputing in Go what the definition's workload must produce.
//
// The GPU tests (webgpu/megakernel) and the page use the same Build and
// Check, so what the page calls verified is what the tests verify.
package examples
