//go:build js && wasm

package megakernel

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ringscope/ringscope/decode"
	"github.com/ringscope/ringscope/wgsl"
	"github.com/ringscope/ringscope/wgsl/abi"
	"github.com/ringscope/ringscope/wgsl/host"
)

// slowLoop is a user opcode that runs args[0] rounds, adding each to an OBSERVABLE word (a loop
// with no side effect is deleted by SwiftShader's compiler): finite, so the
// host's queue frees itself once the test has what it needs.
var slowLoop = wgsl.Opcode{Value: 0x10, Name: "slow", WGSL: `fn slow(slot: u32, args: Args) -> Outcome {
    for (var i = 0u; i < args[0]; i++) { observable_add(1u, i); }
    return done();
}`}

// slowRounds keeps one lane of SwiftShader busy for well over the bound
// below (and over the attachment's first, unbounded frames' time).
const slowRounds = 1 << 26

// An attachment's copy queued behind host work that outlasts the bound
// ends the attachment, naming the cause, instead of waiting for it; the
// host's device is left alone and works once its own work ends.
func TestAttachCopyBounded(t *testing.T) {
	dev := testDevice(t)
	hr := openT(t, dev, Options{Slots: 64, Observable: 8, LogCapacity: 16, Budget: 1, Tenants: 1, Kernel: wgsl.Kernel{Opcodes: []wgsl.Opcode{slowLoop}}})
	_, err := hr.Step(ctxT(t)) // compiles the host's pipelines
	require.NoError(t, err)
	h := borrow(t, hr)
	const bound = 200 * time.Millisecond
	a := attachT(t, h, AttachOptions{Readback: decode.ReadbackFull, SubmissionTimeout: bound})
	stepT(t, a)

	// The host's long submission, waited for on a goroutine of its own.
	_, err = hr.Publish([]host.Item{{Opcode: slowLoop.Value, Args: [12]uint32{slowRounds}}})
	require.NoError(t, err)
	hostDone := make(chan time.Duration, 1)
	submits := dev.Stats().Submits
	t0 := time.Now()
	go func() {
		_, err := hr.Step(context.Background())
		assert.NoError(t, err, "the host's own submission completes")
		hostDone <- time.Since(t0)
	}()
	for dev.Stats().Submits == submits { // the host submits before the attachment copies
		time.Sleep(time.Millisecond)
	}

	t1 := time.Now()
	_, err = a.Step(ctxT(t))
	waited := time.Since(t1)
	var ended *EndedError
	require.ErrorAs(t, err, &ended)
	require.ErrorIs(t, err, ErrCopyTimeout)
	assert.Contains(t, ended.Reason, "did not complete within 200ms (the submission bound, submissionTimeoutMs)")
	assert.GreaterOrEqual(t, waited, bound)
	assert.Less(t, waited, bound+3*time.Second, "the Step returns at the bound, not when the host's work ends")
	_, err = a.Step(ctxT(t))
	require.ErrorIs(t, err, ErrCopyTimeout, "ended for good")
	a.Detach() // leaves the stuck copy's staging alone

	select {
	case took := <-hostDone:
		t.Logf("the host's submission took %v; the attachment gave up after %v", took, waited)
		assert.Greater(t, took, waited, "the host's work outlasted the bound")
	case <-time.After(60 * time.Second):
		t.Fatal("the host's submission did not complete")
	}
	require.NoError(t, dev.Err(), "the host's device is not abandoned")
	assert.EqualValues(t, 1, ctl(hr, abi.CtrlDoneCount))
}

// Attach refuses a bound out of range, naming it.
func TestAttachRefusesABoundOutOfRange(t *testing.T) {
	h := borrow(t, busyHost(t, shared(t)))
	_, err := Attach(ctxT(t), h.dev, AttachOptions{Control: h.control, Ring: h.ring, SubmissionTimeout: time.Millisecond})
	var ae *AttachError
	require.ErrorAs(t, err, &ae)
	assert.Equal(t, "SubmissionTimeout", ae.Field)
	_, err = SubmissionTimeoutMs(5)
	assert.EqualError(t, err, "submissionTimeoutMs must be 100…600000 (0: the default, 10000), got 5")
}
