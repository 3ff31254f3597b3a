// Package session is the page's live loop in plain Go: one ring (a
// Runner, or a host's ring it is attached to), the workload generator that
// feeds it, the watchdog and the run's report, the readback choice and
// the frames. Each LiveFrame publishes the generator's next items, steps
// the runner once, requeues and reclaims, and assembles one frame.Frame,
// which it hands to its Observers (the recorder, the subscribers) before
// the page shows it: the data goes runner → Frame → ui, recorder and
// subscribers, one way.
//
// It knows the GPU only through the Runner and Attached interfaces, which
// webgpu/megakernel's Runner and Attachment satisfy in the page; what a
// frame is read from is their shared megakernel.HostView (Source.View:
// telemetry, log, host copies, change ranges, window opcodes, sketches).
// The tests drive it natively with wgsl/ref, the pure-Go twin of the
// kernel, embedding a HostView of their own, in their place. Its state changes by method calls with plain Go values and
// it returns plain frames, so it could run in a dedicated worker, the page
// posting it the calls and it posting back the frames; the page keeps it
// on the main thread for now (package main's doc says where the seam is).
//
// A Session is not safe for concurrent use: the page calls it with its
// lock held. Only AskRing and Inspect, which the dashboard's handlers call
// while a frame may be in flight, are.
package session
