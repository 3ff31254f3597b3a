// Package diagnose turns telemetry frames into one verdict a person can act
// on: the ring's health and the causes behind it, each with the subject it
// is about, the numbers that prove it and a fix.
//
// A Diagnoser is fed once per frame, beside the watchdog, with the decoded
// frame and what the host knows that the buffers do not say (which tenants
// the ring runs, whether WAIT_IO is serviced, publishes refused, a lost
// device, queue-wait times). It keeps the few counters of the frames
// before, so a rule can ask "did DENIED rise", "has this tenant's claim
// counter moved", and holds each cause through a short hysteresis so a
// single noisy frame neither raises nor clears it.
//
// The vocabulary (Health and the cause Kinds) is part of the page's
// contract: the header, the watchdog panel, the JS API (snapshot, drain,
// subscribe), the metrics and the trace all show the same Diagnosis. Every
// rule and threshold is listed in docs/DIAGNOSIS.md, one row per Kind; a
// test keeps that table and Vocabulary in step.
//
// The package is pure Go (decode and wgsl/abi only) and runs natively.
package diagnose
