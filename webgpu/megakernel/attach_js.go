//go:build js && wasm

package megakernel

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/ringscope/ringscope/decode"
	"github.com/ringscope/ringscope/decode/tasktrace"
	"github.com/ringscope/ringscope/webgpu"
	"github.com/ringscope/ringscope/wgsl/abi"
	"github.com/ringscope/ringscope/wgsl/host"
)

// AttachOptions names the host's buffers an Attachment watches and how.
// Control and Ring are required; the zero value of every other field
// means: no log, the ring's whole slots, no window opcodes, decode.ReadbackAuto,
// the default summary shape, a GPU adapter.
type AttachOptions struct {
	// Control, Ring and Log are the host's own buffers in ABI v1 (or
	// vyre's) layout, on the device given to Attach, each with COPY_SRC
	// usage. Log may be nil.
	Control, Ring, Log *webgpu.Buffer
	// Slots watches the ring's first Slots slots (0: all of them; then the
	// ring must be whole 64-byte slots).
	Slots uint32
	// WindowOpcodes are the opcodes decoded as ticketed windows.
	WindowOpcodes []uint32
	// Readback picks what each frame reads; Summary shapes the summary.
	Readback decode.Readback
	Summary  SummaryShape
	// Software says the device's adapter runs on the CPU (decode.ReadbackAuto then
	// picks decode.ReadbackFull): a GPUDevice does not always say which adapter
	// made it (webgpu.Device.AdapterInfo).
	Software bool
	// SubmissionTimeout bounds one frame's copy, from its submit to its
	// readback, as Options.SubmissionTimeout bounds a runner's submission
	// (0: DefaultSubmissionTimeout): past it the attachment ends with
	// ErrCopyTimeout (attachbound_js.go).
	SubmissionTimeout time.Duration
	// Trace is the host's trace buffer (docs/TRACE.md §8), nil for none;
	// each frame reads the records its kernel appended (Trace). It needs
	// COPY_SRC usage and room for TraceCapacity records (0: all it holds).
	Trace         *webgpu.Buffer
	TraceCapacity uint32
}

// ErrDetached is returned by the methods of a detached Attachment.
var ErrDetached = errors.New("megakernel: attachment is detached")

// EndedError is why an attachment ended on its own: the host destroyed a
// buffer it watched, or lost its device. The last good frame stays
// decoded (Telemetry), marked stale by whoever shows it.
type EndedError struct {
	Reason string
	Err    error
}

func (e *EndedError) Error() string { return "megakernel: attachment ended: " + e.Reason }
func (e *EndedError) Unwrap() error { return e.Err }

// Attachment watches a ring that a host page's own kernel drives, on the
// host's device: each Step copies control, the ring (or, in summary mode,
// the reduce pass's summary and status map) and the log into the
// attachment's own MAP_READ staging, maps it and decodes it. It never
// dispatches the host's kernel and never writes the host's buffers (its
// copies only read them; the reduce pass binds the ring read-only and
// reads a copy of control). One copy is in flight at a time, and a Step
// waits for it without blocking the host's submissions, which the queue
// orders before or after it. Not safe for concurrent use.
type Attachment struct {
	// HostView is what the last frame read: its decoder, the copies of the
	// host's buffers (copies), the GPU summary's bytes.
	HostView

	dev  *webgpu.Device
	opts AttachOptions
	geo  attachGeometry
	lay  layout
	mode decode.Readback
	note string

	// sopts is the Options view the shared summary code reads (shape,
	// window opcodes); sum its resources; ctrl ringscope's copy of the
	// host's control, the one the reduce pass binds (control needs no
	// STORAGE usage), and red the reduce pipelines.
	sopts Options
	sum   summary
	ctrl  *webgpu.Buffer
	red   *reducePipelines

	// staging alternates between frames, so a Step cancelled mid-map (its
	// context ended; MapReadInto unmaps) never meets its own buffer still
	// mapping on the next Step.
	staging [2]*webgpu.Buffer
	frames  uint64

	rb       []byte // readback destination, reused
	copies   frameCopies
	ringRead bool // the last Step read the ring
	timings  AttachTimings

	ended  *EndedError
	closed bool
	// bound is the running copy's bound; stuck says a copy outlived it
	// and still waits in the host's queue (attachbound_js.go).
	bound copyBound
	stuck bool
	// tr reads the host's trace buffer, nil without one.
	tr *hostTrace
}

// attachWidth is the reduce pass's workgroup width on a host's device
// (every device supports 64; the pass is correct at any width).
const attachWidth = 64

// Attach checks the host's buffers (AttachError names the one refused and
// why: its usage, its size, or a device other than dev), picks the readback mode, creates the staging (and, in summary
// mode, the reduce pass's buffers and pipelines) on dev and returns the
// attachment; the first Step reads its first frame.
func Attach(ctx context.Context, dev *webgpu.Device, o AttachOptions) (*Attachment, error) {
	switch {
	case dev == nil:
		return nil, errors.New("megakernel: attach: nil device")
	case o.Control == nil:
		return nil, &AttachError{Field: "control", Reason: "is required"}
	case o.Ring == nil:
		return nil, &AttachError{Field: "ring", Reason: "is required"}
	case o.SubmissionTimeout != 0 && (o.SubmissionTimeout < MinSubmissionTimeout || o.SubmissionTimeout > MaxSubmissionTimeout):
		return nil, &AttachError{Field: "SubmissionTimeout", Reason: fmt.Sprintf("%v: want 0 (the default, %v) or %v … %v",
			o.SubmissionTimeout, DefaultSubmissionTimeout, MinSubmissionTimeout, MaxSubmissionTimeout)}
	}
	if err := dev.Err(); err != nil {
		return nil, fmt.Errorf("megakernel: attach: %w", err)
	}
	hb := func(field string, b *webgpu.Buffer) hostBuffer {
		return hostBuffer{field: field, label: b.Label(), size: b.Size(), usage: b.Usage()}
	}
	var logInfo, traceInfo *hostBuffer
	if o.Log != nil {
		l := hb("log", o.Log)
		logInfo = &l
	}
	if o.Trace != nil {
		t := hb("trace", o.Trace)
		traceInfo = &t
	}
	geo, err := checkAttach(hb("control", o.Control), hb("ring", o.Ring), logInfo, traceInfo, o.TraceCapacity, o.Slots, len(o.WindowOpcodes))
	if err != nil {
		return nil, err
	}
	o.WindowOpcodes = append([]uint32(nil), o.WindowOpcodes...)
	a := &Attachment{dev: dev, opts: o, geo: geo}
	a.SetCopies(&a.copies, o.WindowOpcodes)
	ringBytes := uint64(geo.slots) * abi.SlotBytes
	a.mode, a.note = resolveAttachReadback(o.Readback, o.Software, o.Summary, hb("ring", o.Ring), ringBytes, dev.Limits())
	a.sopts = Options{Slots: geo.slots, Observable: geo.observable, WindowOpcodes: o.WindowOpcodes, Summary: o.Summary}
	if a.mode == decode.ReadbackSummary {
		a.sopts.Readback = decode.ReadbackSummary
		if err := o.Summary.check(); err != nil {
			return nil, err
		}
	}
	a.lay = a.sopts.layout()
	a.lay.data = 0
	if !geo.hasLog {
		a.lay.log = 0
	} else {
		a.lay.log = o.Log.Size()
	}
	if n := geo.traceCapacity; n > 0 {
		a.lay.trace = tasktrace.HeaderBytes
		a.tr = &hostTrace{buf: o.Trace, recs: (a.lay.staging() + 7) &^ 7, rb: make([]byte, tasktrace.Bytes(n))}
		a.tr.win.Capacity = n
	}
	if err := a.create(ctx); err != nil {
		a.release()
		return nil, err
	}
	a.wantRing = true // the first frame reads the ring in every mode
	return a, nil
}

// create makes the staging, checks that the host's buffers are the
// device's (checkHostDevice) and, in summary mode, makes the reduce
// pass's resources, all ringscope's own, on the host's device.
func (a *Attachment) create(ctx context.Context) error {
	for i := range a.staging {
		size := a.lay.staging()
		if a.tr != nil {
			size = a.tr.recs + uint64(len(a.tr.rb))
		}
		b, err := a.dev.CreateBuffer(webgpu.BufferDescriptor{Label: fmt.Sprintf("ringscope attach readback %d", i),
			Size: size, Usage: webgpu.BufferUsageMapRead | webgpu.BufferUsageCopyDst})
		if err != nil {
			return failOn(a.dev, "attach: create staging", err)
		}
		a.staging[i] = b
	}
	// Before the summary's bind group uses the ring: a ring of another
	// device would be an uncaptured validation error there.
	if err := checkHostDevice(ctx, a.dev, a.staging[0], a.opts); err != nil {
		return err
	}
	if a.mode != decode.ReadbackSummary {
		return nil
	}
	var err error
	a.ctrl, err = a.dev.CreateBuffer(webgpu.BufferDescriptor{Label: "ringscope attach control copy", Size: a.lay.control,
		Usage: webgpu.BufferUsageStorage | webgpu.BufferUsageCopyDst | webgpu.BufferUsageCopySrc})
	if err != nil {
		return failOn(a.dev, "attach: create control copy", err)
	}
	a.red, _, err = a.sum.ensure(ctx, a.target(), attachWidth, true)
	return err
}

func (a *Attachment) target() reduceTarget {
	return reduceTarget{dev: a.dev, opts: &a.sopts, lay: &a.lay, slots: a.geo.slots, control: a.ctrl, ring: a.opts.Ring,
		ringBytes: uint64(a.geo.slots) * abi.SlotBytes}
}

// Step reads one frame: it copies the host's buffers into staging (one
// submission, inside a validation error scope of its own), maps it and
// decodes it. stepped is false when the frame waits: a host buffer is
// mapped right now, so a copy from it would fail; try on the next frame.
// A buffer the host destroyed, or a lost device, ends the attachment: the
// Step returns an *EndedError (as do all later ones) and Telemetry keeps
// the last good frame.
func (a *Attachment) Step(ctx context.Context) (stepped bool, err error) {
	if a.closed {
		return false, ErrDetached
	}
	if a.ended != nil {
		return false, a.ended
	}
	if err := a.dev.Err(); err != nil {
		return false, a.end(err)
	}
	if a.opts.Control.Mapped() || a.opts.Ring.Mapped() || (a.opts.Log != nil && a.opts.Log.Mapped()) {
		return false, nil
	}
	t0 := time.Now()
	readRing := a.mode == decode.ReadbackFull || a.wantRing
	stage := a.staging[a.frames%2]
	var encErr error
	scope, err := a.dev.ValidationScope(func() { encErr = a.encode(stage, readRing) })
	if err == nil {
		err = encErr
	}
	if err != nil {
		return false, a.end(err)
	}
	tSubmitted := time.Now()
	from, to := a.lay.controlOffset(), a.lay.ringOffset()
	if readRing {
		to += a.lay.ring
	}
	if uint64(len(a.rb)) < a.lay.staging() {
		a.rb = make([]byte, a.lay.staging())
	}
	bound := boundOrDefault(a.opts.SubmissionTimeout)
	bctx := a.bound.arm(ctx, bound)
	mapWait, mapErr := stage.MapReadIntoTimed(bctx, a.rb[from:to], from)
	tScope := time.Now()
	serr := scope.Wait(bctx)
	mapWait += time.Since(tScope)
	if serr == nil && mapErr == nil && a.tr != nil {
		var w time.Duration
		w, mapErr = a.tr.read(bctx, stage, a.rb[a.lay.ringOffset()-tasktrace.HeaderBytes:])
		mapWait += w
	}
	if a.bound.disarm() {
		return false, a.timedOut(bound)
	}
	if err := ctx.Err(); err != nil {
		// The caller gave up: that ends the frame, not the attachment.
		return false, fmt.Errorf("megakernel: attach: step: %w", err)
	}
	if serr != nil {
		// The copy was refused (a destroyed buffer): the bytes mapped are
		// the staging's old ones.
		return false, a.end(serr)
	}
	if mapErr != nil {
		return false, a.end(mapErr)
	}
	a.frames++
	tRead := time.Now()
	if err := a.decode(readRing); err != nil {
		return false, a.end(err)
	}
	a.timings = AttachTimings{Submit: tSubmitted.Sub(t0), Readback: tRead.Sub(tSubmitted), Wait: mapWait, Decode: time.Since(tRead)}
	return true, nil
}

// encode records and submits one frame's copies (and the reduce pass).
// It runs inside ValidationScope: it must not yield.
func (a *Attachment) encode(stage *webgpu.Buffer, readRing bool) error {
	enc, err := a.dev.CreateCommandEncoder("ringscope attach")
	if err != nil {
		return err
	}
	control := a.opts.Control
	if a.mode == decode.ReadbackSummary {
		a.sum.encodeClear(enc)
		// The reduce pass reads this copy, taken in the same command
		// buffer as the ring it reduces: the two agree.
		enc.CopyBufferToBuffer(a.opts.Control, 0, a.ctrl, 0, a.lay.control)
		a.sum.encodePass(enc, a.target(), a.red, attachWidth)
		enc.CopyBufferToBuffer(a.sum.buf, 0, stage, a.lay.summaryOffset(), a.lay.summary)
		enc.CopyBufferToBuffer(a.sum.statusMap, 0, stage, a.lay.statusMapOffset(), a.lay.statusMap)
		control = a.ctrl
	}
	enc.CopyBufferToBuffer(control, 0, stage, a.lay.controlOffset(), a.lay.control)
	if a.lay.log > 0 {
		enc.CopyBufferToBuffer(a.opts.Log, 0, stage, a.lay.logOffset(), a.lay.log)
	}
	if readRing {
		enc.CopyBufferToBuffer(a.opts.Ring, 0, stage, a.lay.ringOffset(), a.lay.ring)
	}
	if t := a.tr; t != nil {
		// The trace header before the ring, and the records from the last
		// one read (read again: hostTrace) to the capacity after it.
		enc.CopyBufferToBuffer(t.buf, 0, stage, a.lay.ringOffset()-tasktrace.HeaderBytes, tasktrace.HeaderBytes)
		from := uint64(max(t.seen, 1)-1) * tasktrace.RecordBytes
		enc.CopyBufferToBuffer(t.buf, tasktrace.HeaderBytes+from, stage, t.recs+from, uint64(len(t.rb))-tasktrace.HeaderBytes-from)
	}
	cmd, err := enc.Finish()
	if err != nil {
		return err
	}
	return a.dev.Queue().Submit(cmd)
}

// decode decodes the frame in a.rb.
func (a *Attachment) decode(readRing bool) error {
	a.ringRead = readRing
	c, lay := &a.copies, &a.lay
	c.control = a.rb[lay.controlOffset() : lay.controlOffset()+lay.control]
	if lay.log > 0 {
		c.log = a.rb[lay.logOffset() : lay.logOffset()+lay.log]
	}
	ring := a.rb[lay.ringOffset() : lay.ringOffset()+lay.ring]
	switch {
	case readRing && a.mode == decode.ReadbackSummary:
		c.ring = append(c.ring[:0], ring...)
		c.changed = append(c.changed[:0], host.ByteRange{Start: 0, End: len(c.ring)})
	case readRing:
		c.ring = ring
	}
	if readRing {
		a.wantRing = false
	}
	if a.mode == decode.ReadbackSummary {
		a.sumBytes, a.mapBytes = a.rb[lay.summaryOffset():lay.statusMapOffset()], a.rb[lay.statusMapOffset():lay.ringOffset()]
	}
	b := decode.Buffers{Control: c.control, Log: c.log}
	summary := a.mode == decode.ReadbackSummary && !readRing
	if summary {
		b.Summary, b.StatusMap = a.sumBytes, a.mapBytes
	} else {
		b.Ring = c.ring
	}
	if err := a.Decode(b); err != nil {
		return fmt.Errorf("megakernel: attach: decode: %w", err)
	}
	if summary {
		a.followStatusMap(b.StatusMap)
	}
	return nil
}

// followStatusMap writes the status map's statuses into the ring copy, so
// that it shows what a ring read would for every status the map can say
// (an unknown status keeps the word last read); the other words are the
// last ring read's, since the host may have rewritten them since.
//
// The slots it changes are RingChanges (merged runs, in slot order), so a
// recorder stores a summary frame as a patch of them, not a ring.
func (a *Attachment) followStatusMap(mb []byte) {
	// Changes not yet cleared: the runs would interleave, so the whole
	// ring counts as changed.
	c := &a.copies
	all := len(c.changed) > 0
	for s := range a.geo.slots {
		w := uint32(mb[s/abi.StatusMapPerWord*abi.WordBytes+s%abi.StatusMapPerWord/2]) >> (abi.StatusMapBits * (s % 2)) & (1<<abi.StatusMapBits - 1)
		at := int(s) * abi.SlotBytes
		if w >= abi.StatusMapUnknown || abi.Word(c.ring, int(s)*abi.SlotWords) == w {
			continue
		}
		c.ring[at], c.ring[at+1], c.ring[at+2], c.ring[at+3] = byte(w), 0, 0, 0
		if all {
			continue
		}
		if n := len(c.changed); n > 0 && c.changed[n-1].End == at {
			c.changed[n-1].End = at + abi.SlotBytes
		} else {
			c.changed = append(c.changed, host.ByteRange{Start: at, End: at + abi.SlotBytes})
		}
	}
	if all {
		c.changed = append(c.changed[:0], host.ByteRange{Start: 0, End: len(c.ring)})
	}
}

// end ends the attachment for err: what was created is released, the
// last frame stays decoded.
func (a *Attachment) end(err error) error {
	reason := err.Error()
	var verr *webgpu.ValidationError
	switch {
	case errors.Is(err, webgpu.ErrDeviceLost):
		r, msg := a.dev.LostReason()
		reason = fmt.Sprintf("the host's device was lost (%s): %s", r, msg)
	case errors.As(err, &verr):
		reason = "the host's buffers can no longer be copied: " + a.refusedCopy(verr.Message)
	}
	a.ended = &EndedError{Reason: reason, Err: err}
	a.release()
	return a.ended
}

// refusedCopy says in one line why the device refused a frame's copy,
// from its validation message (Dawn's: `[Buffer "ring"] used in submit
// while destroyed.` and a line per call it was met in): the watched buffer
// it names, or the message's first line.
func (a *Attachment) refusedCopy(msg string) string {
	first, _, _ := strings.Cut(strings.TrimSpace(msg), "\n")
	for _, b := range []struct {
		field string
		buf   *webgpu.Buffer
	}{{"control", a.opts.Control}, {"ring", a.opts.Ring}, {"log", a.opts.Log}, {"trace", a.opts.Trace}} {
		if b.buf != nil && b.buf.Label() != "" && strings.Contains(first, fmt.Sprintf("[Buffer %q]", b.buf.Label())) &&
			strings.Contains(first, "destroyed") {
			return fmt.Sprintf("its %s buffer %q was destroyed", b.field, b.buf.Label())
		}
	}
	return strings.TrimSuffix(first, ".")
}

// Ended returns why the attachment ended on its own, or nil.
func (a *Attachment) Ended() *EndedError { return a.ended }

// Detach stops watching and destroys what Attach created (staging, the
// control copy, the summary's buffers). The host's buffers and device are
// left as they were. Detaching twice does nothing.
func (a *Attachment) Detach() {
	if a.closed {
		return
	}
	a.bound.stop()
	if !a.stuck {
		a.release()
	}
	a.closed = true
}

func (a *Attachment) release() {
	for i, b := range a.staging {
		if b != nil {
			b.Destroy()
		}
		a.staging[i] = nil
	}
	if a.ctrl != nil {
		a.ctrl.Destroy()
		a.ctrl = nil
	}
	a.sum.release()
	a.red = nil
}
