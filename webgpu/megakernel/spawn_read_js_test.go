//go:build js && wasm

package megakernel

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ringscope/ringscope/decode"
	"github.com/ringscope/ringscope/webgpu"
	"github.com/ringscope/ringscope/wgsl/abi"
	"github.com/ringscope/ringscope/wgsl/examples"
	"github.com/ringscope/ringscope/wgsl/host"
)

// TestSpawnedSlotsReachHostCopy: under summary readback a spawning ring's
// host copy equals the GPU's ring after every submission of generations
// (the spawned slots read by their positions, the claims by the status
// map), and each submission reads back the fixed prefix (control, log,
// summary, status map, spawn state) plus at most the slots it spawned:
// the device's own count of bytes copied into Go, not a time. A ring
// small enough that its partitions lap within a submission reads them
// whole; the host copy is still the GPU's. TAIL never goes back. A Reset
// to a ring of the same size zeroes it on the device: the next Step
// uploads the root alone, and the device's ring is still the host copy
// (the smaller tree leaves none of the larger one's slots).
func TestSpawnedSlotsReachHostCopy(t *testing.T) {
	dev := shared(t)
	ctx := ctxT(t)
	var r *Runner
	for i, c := range []struct {
		slots, gens, depth uint32
		lap                bool
	}{{4096, 2, 5, false}, {4096, 2, 4, false}, {200, 3, 5, true}} {
		tr := examples.SpawnTree{Fanout: 3, Depth: c.depth, Seed: 5, Capacity: treeCapacity} // 364 nodes at depth 5
		o := userOptions(tr.Kernel())
		o.Slots, o.Tenants, o.Generations, o.Readback = c.slots, 1, c.gens, decode.ReadbackSummary
		if r == nil {
			r = openT(t, dev, o)
		} else {
			require.NoError(t, r.Reset(o))
		}
		_, err := r.Publish([]host.Item{{Opcode: examples.SpawnTreeOpcode, Priority: 2, Args: tr.Root()}})
		require.NoError(t, err)
		fixed := r.lay.ringOffset() - r.lay.controlOffset()
		if r.tq.querySet != nil {
			fixed = r.lay.ringOffset()
		}
		ringBytes := uint64(len(r.Ring()))
		var spawned uint32
		var tails [abi.PriorityLevels]uint32
		lapped := false
		for steps := 0; r.Pending() > 0; steps++ {
			require.Less(t, steps, 50)
			ep, err := r.Step(ctx)
			require.NoError(t, err)
			assert.False(t, ep.RingRead, "no ring read")
			if i == 1 && steps == 0 {
				// A Reset that kept the ring's buffer zeroed it on the
				// device: the first Step uploads the root, not the ring.
				assert.Less(t, ep.Telemetry.BytesUploaded, uint64(len(r.Ring()))/8, "the ring is not uploaded after a Reset")
			}
			sp, _ := r.Spawn()
			made := sp.Spawned - spawned
			spawned = sp.Spawned
			read := ep.Telemetry.BytesReadBack - fixed
			assert.LessOrEqualf(t, read, min(uint64(made)*abi.SlotBytes, ringBytes), "slots %d step %d: the spawned slots at most", c.slots, steps)
			if made > 0 {
				assert.Positivef(t, read, "slots %d step %d", c.slots, steps)
			}
			lapped = lapped || read == ringBytes
			require.Equalf(t, gpuRing(t, r), r.Ring(), "slots %d step %d: the host copy is the GPU's ring", c.slots, steps)
			for p := range tails {
				now := ctl(r, abi.CtrlTail+p)
				assert.GreaterOrEqualf(t, now, tails[p], "TAIL[%d] is monotonic", p)
				tails[p] = now
			}
		}
		assert.Equalf(t, c.lap, lapped, "slots %d: every partition lapped within a submission", c.slots)
		assert.Positive(t, spawned)
	}
}

// gpuRing reads r's ring buffer back from the device.
func gpuRing(t *testing.T, r *Runner) []byte {
	t.Helper()
	ring := r.res.bufs[bufRing]
	stage, err := r.dev.CreateBuffer(webgpu.BufferDescriptor{Label: "test ring", Size: ring.Size(), Usage: webgpu.BufferUsageMapRead | webgpu.BufferUsageCopyDst})
	require.NoError(t, err)
	defer stage.Destroy()
	enc, err := r.dev.CreateCommandEncoder("test ring")
	require.NoError(t, err)
	enc.CopyBufferToBuffer(ring, 0, stage, 0, ring.Size())
	cmd, err := enc.Finish()
	require.NoError(t, err)
	require.NoError(t, r.dev.Queue().Submit(cmd))
	b := make([]byte, ring.Size())
	require.NoError(t, stage.MapReadInto(ctxT(t), b, 0))
	return b[:len(r.Ring())]
}
