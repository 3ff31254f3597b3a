//go:build js && wasm

package webgpu

import (
	"errors"
	"syscall/js"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// An abandoned device is lost at once with the reason given, an await
// on it returns even though its promise never settles, and its buffers
// and the device itself are no longer destroyed (Destroy is a no-op).
func TestAbandon(t *testing.T) {
	d := testDevice(t, DeviceDescriptor{Label: "abandoned"})
	b, err := d.CreateBuffer(BufferDescriptor{Label: "kept", Size: 16, Usage: BufferUsageMapRead | BufferUsageCopyDst})
	require.NoError(t, err)

	// A promise that does not settle until the test ends (as a runaway's
	// mapAsync never does).
	var resolve js.Value
	executor := js.FuncOf(func(_ js.Value, args []js.Value) any {
		resolve = args[0]
		return nil
	})
	never := js.Global().Get("Promise").New(executor)
	executor.Release()
	time.AfterFunc(50*time.Millisecond, func() { d.Abandon("runaway", "a submission did not complete within 50ms") })
	t0 := time.Now()
	_, err = d.await(ctxT(t), never)
	assert.Less(t, time.Since(t0), 5*time.Second, "the await returned on Abandon")
	var lost *DeviceLostError
	require.True(t, errors.As(err, &lost), "%v", err)
	assert.True(t, errors.Is(err, ErrDeviceLost))
	reason, msg := d.LostReason()
	assert.Equal(t, "runaway", reason)
	assert.Equal(t, "a submission did not complete within 50ms", msg)

	b.Destroy()
	d.Destroy()
	reason, _ = d.LostReason()
	assert.Equal(t, "runaway", reason, "Destroy leaves an abandoned device alone")
	assert.Equal(t, "unmapped", b.v.Get("mapState").String(), "the JS buffer is still there, not destroyed")
	abandonedDevices.Lock()
	kept := len(abandonedDevices.v) > 0 && abandonedDevices.v[len(abandonedDevices.v)-1].Equal(d.v)
	abandonedDevices.Unlock()
	assert.True(t, kept, "the GPUDevice stays reachable, so no collection destroys it")
	// Nothing was submitted: its queue soon says the work is done, and
	// it no longer counts as running.
	waitAbandoned(t)
	assert.Equal(t, 0, AbandonedRunning())

	// No work runs on it here: destroy it behind Abandon's back and settle
	// the promise, so this test leaves no js.Func live (LiveFuncs' test).
	resolve.Invoke()
	d.v.Call("destroy")
}

// An abandoned device counts as running until its queue says the work
// submitted so far is done.
func TestAbandonedRunningUntilItsQueueIsDone(t *testing.T) {
	waitAbandoned(t) // no earlier test leaves one running
	d := testDevice(t, DeviceDescriptor{Label: "abandoned with work"})
	k := newDoubler(t, d, 1<<16, nil)
	in := make([]uint32, 1<<16)
	require.NoError(t, k.run(ctxT(t), u32Bytes(in), make([]byte, 4<<16)))
	d.Abandon("runaway", "test")
	assert.Equal(t, 1, AbandonedRunning(), "counted until its queue answers")
	assert.Equal(t, 0, d.AbandonedBehind(), "none ran before it")
	e := testDevice(t, DeviceDescriptor{Label: "abandoned behind it"})
	e.Abandon("runaway", "test")
	assert.Equal(t, 1, e.AbandonedBehind(), "d still counted as running")
	assert.Equal(t, 2, AbandonedRunning())
	waitAbandoned(t)
	assert.Equal(t, 0, AbandonedRunning())
	for _, dev := range []*Device{d, e} {
		dev.v.Call("destroy") // its work is done (Destroy leaves an abandoned device alone)
	}
}

// waitAbandoned waits until no abandoned device's work runs.
func waitAbandoned(t *testing.T) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for AbandonedRunning() > 0 {
		require.True(t, time.Now().Before(deadline), "abandoned work still runs after 5 s")
		time.Sleep(10 * time.Millisecond)
	}
}
