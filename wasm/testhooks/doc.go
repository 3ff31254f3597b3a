//go:build js && wasm && ringscope_testhooks

// Package testhooks is ringscope.__test, fault injection for the e2e tests
// (lose the device, hold a recovery, read the device's counters, crash the
// Go program). It is linked only into the e2e build (make e2e-static,
// -tags ringscope_testhooks), never into the page a person opens.
package testhooks
