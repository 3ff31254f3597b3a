// Package heapsort sorts slices in place with a heapsort: O(n log n), no
// allocation, not stable.
//
// It exists for the wasm build's size. Each element type given to
// slices.Sort or slices.SortFunc links its own pdqsort (13 to 20 KB of
// main.wasm each), and sort.Slice allocates a swapper on every call, which
// the per-frame decoders may not. A heapsort instantiation is about 1 KB.
// The slices sorted here (window aggregates, dirty byte ranges, a latency
// window, opcode sets) hold at most a few thousand elements, where the
// heapsort's constant factor does not matter.
package heapsort
