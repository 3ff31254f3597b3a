package megakernel

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/ringscope/ringscope/decode"
)

func TestReduceGrid(t *testing.T) {
	for _, tc := range []struct {
		name         string
		slots, width uint32
		maxPerDim    uint64
		want         uint32
	}{
		{"one slot", 1, 64, 65535, 1},
		{"one workgroup's words", 64 * 8 * reduceWordsPerLane, 64, 65535, 1},
		{"one word more", 64*8*reduceWordsPerLane + 1, 64, 65535, 2},
		{"1M slots at 64", 1 << 20, 64, 65535, (1 << 20) / (64 * 8 * reduceWordsPerLane)},
		{"1M slots at 256", 1 << 20, 256, 65535, (1 << 20) / (256 * 8 * reduceWordsPerLane)},
		{"capped", 1 << 28, 64, 65535, reduceMaxWorkgroups},
		{"device cap", 1 << 28, 64, 100, 100},
		{"no device cap", 1 << 20, 64, 0, (1 << 20) / (64 * 8 * reduceWordsPerLane)},
	} {
		t.Run(tc.name, func(t *testing.T) { assert.Equal(t, tc.want, reduceGrid(tc.slots, tc.width, tc.maxPerDim)) })
	}
	assert.Equal(t, uint32(1), tenantsGrid(0, 65535))
	assert.Equal(t, uint32(4), tenantsGrid(256, 65535))
}

func TestEpochAddTo(t *testing.T) {
	var rep decode.MegakernelReport
	ep := Epoch{Telemetry: decode.MegakernelTelemetry{BytesReadBack: 100, KernelLaunches: 2}, GPUTime: 3 * time.Millisecond,
		Timings: Timings{Total: 5 * time.Millisecond, Publish: time.Millisecond}}
	ep.AddTo(&rep)
	ep.AddTo(&rep)
	assert.EqualValues(t, 2, rep.DispatchCount)
	assert.EqualValues(t, 200, rep.BytesReadBack)
	assert.Equal(t, 10*time.Millisecond, rep.WallTime)
	assert.Equal(t, 6*time.Millisecond, rep.GPUTime)
	assert.Equal(t, 2*time.Millisecond, rep.PublishTime)
}
