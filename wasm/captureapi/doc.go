//go:build js && wasm

// Package captureapi is the capture concern of the ringscope object
// (docs/EMBEDDING.md, docs/CAPTURE.md): decode, the exports, the import of
// capture files and vyre dumps (from the API, the file picker and drag and
// drop), replay through the dashboard's panels, and the per-frame
// subscription. It is a thin JS adapter over wasm/capture.Studio and
// reaches the page only through Page.
package captureapi
