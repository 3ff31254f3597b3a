//go:build js && wasm

package megakernel

import "github.com/ringscope/ringscope/wgsl/host"

// TrackWaits gives the ring's queue the clock it measures queue waits by
// (host.Queue.TrackWaits; nil stops it). A Reset keeps it, unless the
// Reset replaced the queue (a new log capacity): the session calls it on
// every ring it opens.
func (r *Runner) TrackWaits(now func() float64) { r.q.TrackWaits(now) }

// Waits is what the queue measured of queue waits, nil when it has no
// clock.
func (r *Runner) Waits() *host.Waits { return r.q.Waits() }
