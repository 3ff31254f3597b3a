//go:build js && wasm

// Package push sends the page's Prometheus metrics to a Pushgateway
// (ringscope.pushMetrics, and ?push= every pushInterval), so that a
// fleet of headless pages feeds one dashboard. It knows nothing of the
// page but the function that renders its metrics.
package push
