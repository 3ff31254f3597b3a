//go:build js && wasm

package megakernel

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ringscope/ringscope/wgsl/abi"
	"github.com/ringscope/ringscope/wgsl/host"
)

func TestStepBasic(t *testing.T) {
	dev := testDevice(t)
	r := openT(t, dev, Options{Slots: 256, Tenants: 1, Observable: 64, LogCapacity: 16, Budget: 4})
	items := make([]host.Item, 40)
	for i := range items {
		items[i] = addItem(uint32(i), 1, abi.PriorityNormal, 0)
	}
	n, err := r.Publish(items)
	require.NoError(t, err)
	require.Equal(t, 40, n)
	ep, err := r.Step(ctxT(t))
	require.NoError(t, err)
	t.Logf("epoch %+v", *ep)
	obs := r.Observable()
	for i := 0; i < 40; i++ {
		assert.EqualValues(t, 1, obs[i], "observable %d", i)
	}
	assert.EqualValues(t, 40, r.Telemetry().Control.DoneCount)
	assert.EqualValues(t, 40, r.Telemetry().Occupancy.Done)
}
