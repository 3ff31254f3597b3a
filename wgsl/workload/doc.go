// Package workload generates realistic streams of ring items for the page and
// benchmarks: named presets (a default mix of every opcode class, a uniform
// NOP flood, skewed tenants, priority inversion, a stall and a fault storm),
// deterministic for a seed.
//
// A Generator never produces work that would live forever on its own: no
// preset publishes YIELD or REQUEUE (the opcode parks the slot every time
// it runs and the host republishes it, so the item never ends), the
// items of a masked tenant are capped per generation, and the backlog
// presets (skewed tenants, priority inversion) top their partitions up to
// a target (SetQueued) rather than publish past what the ring claims.
package workload
