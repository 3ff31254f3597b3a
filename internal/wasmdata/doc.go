// Package wasmdata rewrites a WebAssembly module's data section so that it
// compresses better, without changing what the module does.
//
// Go's linker writes the initial memory image as tens of thousands of
// small active segments: it starts a new segment at every run of zero
// bytes longer than a segment header, which keeps the raw file small. The
// page is served gzipped, and there the trade goes the other way: each
// header's offset is a number deflate cannot predict, while a run of zeros
// costs it a few bits. Merge joins segments whose gap is at most a given
// number of bytes and writes the gap as zeros. Linear memory starts zeroed
// and the segments do not overlap, so the memory a module instantiates
// with is byte for byte the same. bench/results-size.md has the sizes.
//
// Only what Go's linker emits is accepted: active segments of memory 0
// whose offset is one i32.const, and no data count section. Anything else
// is refused with an error, never rewritten on a guess.
package wasmdata
