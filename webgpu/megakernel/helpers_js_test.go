//go:build js && wasm

package megakernel

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/ringscope/ringscope/webgpu"
	"github.com/ringscope/ringscope/wgsl/abi"
	"github.com/ringscope/ringscope/wgsl/host"
)

// testDevice requests a fresh adapter and its device (an adapter gives one
// device), destroyed when the test ends.
func testDevice(t testing.TB) *webgpu.Device {
	t.Helper()
	ctx := ctxT(t)
	a, err := webgpu.RequestAdapter(ctx, webgpu.RequestAdapterOptions{})
	require.NoError(t, err, "this tier needs a WebGPU adapter (shared/docs/BROWSER.md)")
	d, err := a.RequestDevice(ctx, webgpu.DeviceDescriptor{Label: t.Name()})
	require.NoError(t, err)
	t.Cleanup(d.Destroy)
	return d
}

var (
	sharedOnce sync.Once
	sharedDev  *webgpu.Device
	sharedErr  error
)

// shared is one device for the tests that do not destroy theirs: the
// device caches compiled pipelines, so the suite stays fast on SwiftShader.
func shared(t testing.TB) *webgpu.Device {
	t.Helper()
	sharedOnce.Do(func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		a, err := webgpu.RequestAdapter(ctx, webgpu.RequestAdapterOptions{})
		if err != nil {
			sharedErr = err
			return
		}
		sharedDev, sharedErr = a.RequestDevice(ctx, webgpu.DeviceDescriptor{Label: "shared"})
	})
	require.NoError(t, sharedErr, "this tier needs a WebGPU adapter (shared/docs/BROWSER.md)")
	require.NoError(t, sharedDev.Err())
	return sharedDev
}

func ctxT(t testing.TB) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	return ctx
}

func openT(t testing.TB, dev *webgpu.Device, o Options) *Runner {
	t.Helper()
	r, err := Open(ctxT(t), dev, o)
	require.NoError(t, err)
	t.Cleanup(r.Close)
	return r
}

// addItem is an ATOMIC_ADD of delta into OBSERVABLE[obs].
func addItem(obs, delta, prio, tenant uint32) host.Item {
	it := host.Item{Opcode: abi.OpAtomicAdd, Priority: prio, Tenant: tenant}
	it.Args[0], it.Args[1] = delta, abi.CtrlObservable+obs
	return it
}

func item(op, prio uint32, args ...uint32) host.Item {
	it := host.Item{Opcode: op, Priority: prio}
	copy(it.Args[:], args)
	return it
}

// statuses counts the host copy's slots by status.
func statuses(r *Runner) map[uint32]int {
	m := map[uint32]int{}
	ring := r.Ring()
	for s := 0; s < len(ring)/abi.SlotBytes; s++ {
		m[abi.Word(ring[s*abi.SlotBytes:], abi.SlotStatus)]++
	}
	return m
}

func slotStatus(r *Runner, slot uint32) uint32 {
	return abi.Word(r.Ring()[slot*abi.SlotBytes:], abi.SlotStatus)
}

func ctl(r *Runner, w int) uint32 { return abi.Word(r.Control(), w) }

// slotOf finds the slot of the k-th item published into partition p.
func slotOf(r *Runner, p, k uint32) uint32 {
	off := r.q.Partitions()
	return off[p] + k%(off[p+1]-off[p])
}

// poke overwrites word w of slot in the host copy after Publish: the slot's
// words are dirty, so the next upload carries it. Tests use it to build
// slots the publisher refuses (a tenant ≥ 29, a claimed slot not PUBLISHED).
func poke(r *Runner, slot uint32, w int, v uint32) {
	b := r.q.Ring()[int(slot)*abi.SlotBytes+w*abi.WordBytes:]
	b[0], b[1], b[2], b[3] = byte(v), byte(v>>8), byte(v>>16), byte(v>>24)
}
