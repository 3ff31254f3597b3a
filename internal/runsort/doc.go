// Package runsort sorts slices that arrive nearly sorted: a stable natural
// merge sort that merges the ascending runs it finds, through a buffer the
// caller keeps.
//
// It is for the hot sorts of the wasm build: the decoder's windows (slot
// order with one wrap: two runs) and the publisher's dirty ranges (a few
// interleaved runs). Sorted input costs one pass of comparisons, k runs
// cost about log2(k) passes, and random input O(n log n). Its
// instantiation is a fraction of the size of the pdqsort that
// slices.SortFunc links for each element type (bench/results-size.md,
// "runsort"), and heapsort, which is as small, does n log n work on
// sorted input. Cold sorts with no buffer to keep use internal/heapsort.
package runsort
