// Package frame is the one shape of a telemetry frame: what the live loop,
// a replayed capture and an attachment each produce, and what the
// dashboard (ui), the flight recorder (wasm/capture) and the page's
// subscribers read. A Frame is assembled once, by Store.Assemble, from the
// decoded parts of one readback (Parts) plus the raw buffer views it was
// decoded from (Raw), so no consumer reaches back into whoever produced
// it.
//
// The package is pure Go (it imports decode and wgsl/abi only): it runs
// natively, and, since a Frame holds no JavaScript values, it is the
// message a session in a dedicated worker could post to the page.
package frame
