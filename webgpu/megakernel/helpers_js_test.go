//go:build js && wasm

package megakernel

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/ringscope/ringscope/webgpu"
	"github.com/ringscope/ringscope/wgsl/abi"
	"github.com/ringscope/ringscope/wgsl/host"
)

// testDevice requests a fresh adapter and its device: an adapter gives one
// device.
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

func ctxT(t testing.TB) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
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

func item(op uint32, prio uint32, args ...uint32) host.Item {
	it := host.Item{Opcode: op, Priority: prio}
	copy(it.Args[:], args)
	return it
}

// statuses counts the host copy's slots by status.
func statuses(r *Runner) map[uint32]int {
	m := map[uint32]int{}
	ring := r.Ring()
	for s := 0; s < len(ring)/abi.SlotBytes; s++ {
		m[word(ring[s*abi.SlotBytes:], abi.SlotStatus)]++
	}
	return m
}
