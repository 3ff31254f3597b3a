//go:build js && wasm

package megakernel

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ringscope/ringscope/wgsl"
	"github.com/ringscope/ringscope/wgsl/host"
)

func TestBusyGrace(t *testing.T) {
	assert.Equal(t, time.Second, BusyGrace(DefaultSubmissionTimeout))
	assert.Equal(t, 500*time.Millisecond, BusyGrace(2*time.Second))
	assert.Equal(t, 25*time.Millisecond, BusyGrace(MinSubmissionTimeout))
}

// A submission outstanding past the grace is told to the observer on the
// Step's goroutine, again every tick, and its end once; a quick one is
// not told at all.
func TestWaitObserver(t *testing.T) {
	r := openT(t, testDevice(t), Options{Slots: 64, Observable: 8, LogCapacity: 16, Budget: 1, Tenants: 1,
		SubmissionTimeout: time.Minute, Kernel: wgsl.Kernel{Opcodes: []wgsl.Opcode{slowLoop}}})
	var waits []Wait
	r.OnWait(func(w Wait) { waits = append(waits, w) })
	step := func(rounds uint32) time.Duration {
		_, err := r.Publish([]host.Item{{Opcode: slowLoop.Value, Args: [12]uint32{rounds}}})
		require.NoError(t, err)
		t0 := time.Now()
		_, err = r.Step(ctxT(t))
		require.NoError(t, err)
		return time.Since(t0)
	}
	step(1) // compiles
	if quick := step(1 << 12); quick < BusyGrace(time.Minute)/2 {
		assert.Empty(t, waits, "a quick submission is not told")
	} else {
		t.Logf("1<<12 rounds took %v on this loaded machine: not a quick submission here", quick)
	}
	probe := uint32(1 << 22)
	took := step(probe)

	// Rounds for about 2.5 s, well past the grace (1 s) and well under
	// the bound (a minute). A probe the machine's load slowed gives too
	// few (CI once took 0.9 s): then the run just made is the probe.
	var rounds uint32
	for try := 1; ; try++ {
		rounds = uint32(min(float64(probe)*2500/max(float64(took.Milliseconds()), 1), 1<<31))
		waits = nil // only the long submission's below
		probe, took = rounds, step(rounds)
		t.Logf("try %d: %d rounds took %v; told %d times", try, rounds, took, len(waits))
		if took >= 2*BusyGrace(time.Minute) || try == 3 {
			break
		}
	}
	require.GreaterOrEqual(t, len(waits), 2, "told past the grace, then its end")
	first, last := waits[0], waits[len(waits)-1]
	assert.GreaterOrEqual(t, first.Waited, time.Second)
	assert.Equal(t, time.Minute, first.Bound)
	assert.Equal(t, []string{"slow"}, first.Opcodes)
	assert.False(t, first.Done)
	for _, w := range waits[1 : len(waits)-1] {
		assert.False(t, w.Done)
		assert.Greater(t, w.Waited, first.Waited, "ticks while it waits")
	}
	assert.True(t, last.Done)
	assert.False(t, last.Lost)
	assert.LessOrEqual(t, last.Waited, took)
}
