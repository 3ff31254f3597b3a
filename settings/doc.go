// Package settings is the page's run settings: what the settings form,
// the URL and open() set (workload preset, ring shape, lane budget,
// launch knobs, window opcodes, sketch shape, readback, log capacity),
// the presets the page offers, their validation, and the adapter they run
// on. The page's controller (wasm/controller) applies them; the
// components (ui) show and edit them. Pure Go: it runs natively.
package settings
