// Package heapsort sorts slices in place with a heapsort: O(n log n), no
// allocation, not stable.
//
// It exists for the wasm build's size. Each element type given to
// slices.Sort or slices.SortFunc links its own pdqsort (13 to 20 KB of
// main.wasm each), and sort.Slice allocates a swapper on every call. A
// heapsort instantiation is about 1 KB. It is for the cold sorts: opcode
// sets, feature names, shader overrides, sorted once per open. Hot sorts
// of nearly sorted data (the decoder's windows, the publisher's dirty
// ranges) keep slices.SortFunc, whose pdqsort finishes them in about one
// pass where a heapsort always does n log n.
package heapsort
