//go:build js && wasm

package megakernel

import (
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ringscope/ringscope/webgpu"
)

// The watchdog abandons its device only when a bound expires, and is
// re-armed without a new timer; RunawayError matches the device's loss.
func TestWatchdog(t *testing.T) {
	dev := testDevice(t)
	var w watchdog
	w.arm(dev, time.Second)
	timer := w.timer
	assert.False(t, w.disarm(), "disarmed in time")
	w.arm(dev, time.Second)
	assert.Same(t, timer, w.timer, "one timer, re-armed")
	assert.False(t, w.disarm())
	require.NoError(t, dev.Err(), "the device lives")

	w.arm(dev, 20*time.Millisecond)
	select {
	case <-dev.Lost():
	case <-time.After(5 * time.Second):
		t.Fatal("the watchdog did not abandon the device")
	}
	assert.True(t, w.disarm(), "expired")
	reason, msg := dev.LostReason()
	assert.Equal(t, LostRunaway, reason)
	assert.Equal(t, "a submission did not complete within 20ms", msg)

	err := &RunawayError{Bound: 20 * time.Millisecond, Opcodes: []string{"spin"}, Err: dev.Err()}
	assert.True(t, errors.Is(err, webgpu.ErrDeviceLost))
	assert.Equal(t, "megakernel: runaway: a submission did not complete within 20ms (the submission bound, submissionTimeoutMs); user opcodes in flight: spin; its device was abandoned", err.Error())
	err.Behind = 1
	assert.Equal(t, "megakernel: runaway: a submission did not complete within 20ms (the submission bound, submissionTimeoutMs); user opcodes in flight: spin; its device was abandoned; 1 earlier runaway(s) still ran on the adapter, which this submission may have waited behind", err.Error())
	dev.JSValue().Call("destroy") // no work runs on it here (Destroy leaves an abandoned device alone)
}
