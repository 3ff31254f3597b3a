// Package heapsort sorts slices in place with a heapsort: O(n log n), no
// allocation, not stable.
//
// It exists for the wasm build's size. Each element type given to
// slices.Sort or slices.SortFunc links its own pdqsort, and sort.Slice
// allocates a swapper on every call; a heapsort instantiation is a
// fraction of a pdqsort's size (bench/results-render.md, the
// `heapsort.Func` row of "wasm size as served"). It is for the cold sorts: opcode
// sets, feature names, shader overrides, sorted once per open. Hot sorts
// of nearly sorted data (the decoder's windows, the publisher's dirty
// ranges) use internal/runsort, which merges their few runs in a pass or
// two where a heapsort always does n log n.
package heapsort
