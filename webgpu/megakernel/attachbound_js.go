//go:build js && wasm

package megakernel

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"
)

// An attachment's copy is bounded like a runner's submission
// (AttachOptions.SubmissionTimeout, the same default and range): on the
// host's device ringscope's copy queues behind the host's own work, so a
// host kernel that never ends (or a device that stops answering without
// being lost) would hold the attachment's Step, and every call waiting on
// the page's lock, for good. Past the bound the Step gives the map up and
// the attachment ends, naming the cause. The host's device is the host's:
// it is neither abandoned nor destroyed.

// ErrCopyTimeout is the cause of an attachment that ended because its copy
// did not complete within the bound (errors.Is on the EndedError).
var ErrCopyTimeout = errors.New("megakernel: attach: the copy did not complete within the submission bound")

// copyBound cancels the context of one Step's waits once the bound
// passes. Its context and timer are made once and reused while no bound
// expired: no allocation per Step.
type copyBound struct {
	parent context.Context
	ctx    context.Context
	cancel context.CancelCauseFunc
	timer  *time.Timer
	fired  atomic.Bool
}

// arm starts the bound of the copy just submitted and returns the context
// its waits use: parent, cancelled with ErrCopyTimeout past bound.
func (b *copyBound) arm(parent context.Context, bound time.Duration) context.Context {
	if b.ctx == nil || b.parent != parent || b.ctx.Err() != nil {
		b.parent = parent
		b.ctx, b.cancel = context.WithCancelCause(parent)
	}
	b.fired.Store(false)
	if b.timer == nil {
		b.timer = time.AfterFunc(bound, b.expire)
	} else {
		b.timer.Reset(bound)
	}
	return b.ctx
}

func (b *copyBound) expire() {
	b.fired.Store(true)
	b.cancel(ErrCopyTimeout)
}

// disarm stops the bound and reports whether it expired.
func (b *copyBound) disarm() bool {
	if b.timer != nil {
		b.timer.Stop()
	}
	return b.fired.Load()
}

// stop releases the timer and the context (Detach).
func (b *copyBound) stop() {
	b.disarm()
	if b.cancel != nil {
		b.cancel(context.Canceled)
	}
}

// stuckCopies keeps the resources of attachments whose copy timed out
// reachable until the page closes: the copy still waits in the host's
// queue, and on SwiftShader destroying a buffer that stuck work uses (or
// letting it be collected) blocks the GPU process (webgpu.Device.Abandon).
var stuckCopies struct {
	sync.Mutex
	v []*Attachment
}

// timedOut ends the attachment whose copy outlived bound, keeping its
// resources (stuckCopies) instead of destroying them.
func (a *Attachment) timedOut(bound time.Duration) error {
	stuckCopies.Lock()
	stuckCopies.v = append(stuckCopies.v, a)
	stuckCopies.Unlock()
	a.ended = &EndedError{Err: ErrCopyTimeout, Reason: fmt.Sprintf(
		"ringscope's copy of the host's buffers did not complete within %v (the submission bound, submissionTimeoutMs): the host's queue ran its earlier work that long (a kernel of the host's that does not end?); the host's device is left as it is",
		bound)}
	a.bound.stop()
	a.stuck = true // Detach must not destroy what the stuck copy uses
	return a.ended
}
