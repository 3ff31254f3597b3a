// Package capture is ringscope's flight recorder and its file formats, in
// pure Go: a bounded Recorder of frames (raw control, ring and log bytes,
// a ring either whole or as a patch of the slots that changed since the
// frame before, the per-dispatch decode.MegakernelTelemetry, timestamps,
// generation), the
// capture file (Encode, Decode; docs/CAPTURE.md), the import of a bare vyre
// control + ring dump pair (FromDump), a Replay that decodes any frame of a
// capture for the dashboard's panels, and two standard exports: a Chrome
// trace / Perfetto JSON timeline (Trace) and an OpenMetrics text snapshot
// (OpenMetrics). Studio ties them together for the page: it observes the
// live frames (decode/frame), records them, replays the recording or an
// import, and exports either.
//
// Decode validates everything and reports the first problem as a
// *FormatError naming the byte offset, the frame and the field; it never
// panics on bad bytes (FuzzDecodeCapture); frames' rings decode through a
// decode.Decoder. The package imports only the standard library, decode,
// decode/frame, decode/tasktrace and wgsl/abi (and internal helpers), so it
// is tested natively; the page
// adapts Studio to JavaScript in wasm/jsapi.
package capture
