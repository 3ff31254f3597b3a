// Package pace keeps ringscope's share of the page's main thread under a
// budget while it is attached to a host page's ring (ringscope.attach).
//
// An attached ringscope and the host app run their JavaScript on the
// page's one main thread: every millisecond ringscope spends copying,
// decoding and rendering a frame is a millisecond the host's frame loop
// cannot run in. A host that starts its next frame the moment its last
// one's GPU work is done (onSubmittedWorkDone) feels every one of them:
// on the H200 at 65,536 slots, ringscope at display rate left such a host
// a fraction of its frames (bench/results-attach.md, the "alone" rows
// against the attached ones). A Budget is fed the main-thread cost
// of each attached frame and of each render (Spend) and says how long to
// wait before the next frame (Wait) so that the costs stay a fraction of
// the wall clock, the budget, but never so long that the dashboard falls
// below MinRate frames per second. Report says the rate and the share it
// keeps, for the attach info and the dashboard.
//
// It is plain Go with the clock passed in, so its tests run natively; the
// page (package main's attach_js.go) measures the costs and sleeps.
package pace
