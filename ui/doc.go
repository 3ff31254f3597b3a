// Package ui is ringscope's dashboard: Vugu components, one per concern,
// that show decoded megakernel telemetry (package decode) as a dense,
// live page.
//
// Data flows down and intent flows up. The composition root (package wasm)
// builds a Dashboard, sets its callback fields (OnRun, OnPause, OnStep,
// OnReset, OnApplySettings), maps the controller's state onto its fields
// and for every decoded telemetry frame calls Dashboard.Apply(*frame.Frame)
// while holding the EventEnv lock; the render loop then re-renders. The
// run settings the form edits are package settings'; the kernel's opcode
// names come down as a field (Dashboard.OpcodeNames, Names): the package
// keeps no state of its own outside its components. Apply does the O(slots) work once (the slot-map raster)
// and appends to preallocated histories, so a frame allocates nothing.
//
// Vugu rebuilds the whole component tree on every render and DOM updates
// are costly, so tables are capped (top 16 rows) and every large or
// fast-changing view (the slot map, time series, histograms) is drawn on a
// <canvas> from a reused Go RGBA buffer (Raster) copied in one
// putImageData per frame (Canvas). The slot map repaints only the cells
// whose status changed (SlotPainter, 8 slots compared a word at a time)
// and puts only the pixel rows they lie in (Canvas.DrawRows). While the
// live loop runs, the tables of numbers (counters, waits, dispatches,
// control, launch, windows, log, sketches) are built at most every
// TableRefreshMillis (Throttled): between two, a build puts a marker in
// their place and the renderer keeps their DOM as it is.
//
// The page runs under a strict Content-Security-Policy: components carry no
// inline style or script; their classes live in static/dashboard.css.
// Templates only read fields and call methods; every formatting or
// derivation is a Go method with a native test. Package ui imports decode,
// settings, wgsl/abi, vugu and vugu/js, and gowebapi for the DOM it sets up itself
// (canvases, observers, the feature chips); never syscall/js, so it builds
// and tests natively.
package ui
