// Package workload generates realistic streams of ring items for the page and
// benchmarks: named presets (a default mix of every opcode class, a uniform
// NOP flood, skewed tenants, priority inversion, a stall and a fault storm),
// deterministic for a seed.
//
// A Generator never produces work that would live forever on its own: the
// opcodes that park a slot (YIELD, REQUEUE) and the items of a masked tenant
// are capped per generation, because the host republishes parked slots, and
// unbounded parked work would fill the partitions and starve everything else.
package workload
