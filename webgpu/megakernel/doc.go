// Package megakernel runs the ringscope megakernel (docs/PROTOCOL.md,
// ABI v1) on a WebGPU device: the runner between the host publisher
// (wgsl/host), the WGSL kernels (wgsl), the typed binding (webgpu) and the
// decoders (decode).
//
// A Runner owns the host copy of one ring (a host.Queue, which is the
// truth), the resident device buffers of PROTOCOL §1, one drain pipeline per
// program and width (Drain, or JIT specialised to the opcodes the ring
// holds) and the finalize pipeline, and two MAP_READ staging buffers used
// alternately. Each Step is one submission, a phase a method of its
// state (submission, in step_js.go):
//
//	plan     the launch policy's recommendation (decode) from the last
//	         readback, the device limits, the queue length and the memory
//	         budget; the grid is the policy's (PROTOCOL §6), raised to
//	         about 8 claims per lane where the queue needs more (gridFor),
//	         so a full ring drains in one submission; the JIT opcode set
//	         comes from the queue's pending counts, not a scan of the ring
//	prepare  buffers and pipelines, created only on a cache miss
//	upload   only the dirty byte ranges of the host copy (coalesced), and
//	         the params uniform (epoch, budget, observable, flags)
//	submit   drain dispatch + finalize dispatch + copies to staging, one
//	         command buffer
//	read     one mapAsync of the staging prefix into a reused Go slice
//	decode   Absorb into the host copy, DecodeInto and DecodeLogInto into
//	         reused telemetry; without a ring read (decode.ReadbackOnDemand), control
//	         alone, the host copy's slots when Telemetry asks
//
// and returns an Epoch with the dispatch's decode.MegakernelTelemetry,
// whose transfer, launch, wait and allocation counts are deltas of the
// device's own counters (webgpu.Device.Stats), not estimates. Drain loops
// Steps, republishing what the kernel parked, until the ring is drained.
//
// Options and their validation, buffer geometry, memory-budget arithmetic
// and upload coalescing are pure Go and tested natively; the runner itself
// is in *_js.go files and tested on a real WebGPU device (Node + Dawn, see
// shared/docs/BROWSER.md), against the reference interpreter wgsl/ref.
//
// A Runner and an Attachment embed one HostView: the decoder of the last
// readback (Telemetry, Log, the window opcodes), the host copies and their
// change ranges (Copies: the runner's host.Queue, the attachment's last
// frame), the GPU summary's bytes and sketches and the request for a ring
// read. The page's session reads frames through it, whichever steps.
//
// An Attachment (Attach) watches a ring that someone else's kernel drives,
// in their buffers on their device (a host page's own WebGPU app): each
// Step copies control, ring and log into the attachment's own staging (or
// runs the reduce pass, the runner's own code, over the host's ring), maps
// and decodes it, and never dispatches the host's kernel or writes its
// buffers. A destroyed buffer or a lost device ends it (EndedError).
//
// Device loss: every error of a lost device matches webgpu.ErrDeviceLost.
// Since the host copy is the truth, Rebind moves a runner to a new device
// and re-uploads it whole; nothing published is lost.
package megakernel
