package decode

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ringscope/ringscope/wgsl/abi"
)

func TestDecodeControlV1(t *testing.T) {
	c := newControl(3, 256)
	c[abi.CtrlShutdown] = 1
	c[abi.CtrlDoneCount] = 77
	c[abi.CtrlEpoch] = 5
	c[abi.CtrlOpcodeMetrics+0] = 10
	c[abi.CtrlOpcodeMetrics+7] = 2
	c[abi.CtrlOpcodeMetrics+31] = 1
	c[abi.CtrlTenantClaims+1] = 9
	c[abi.CtrlTenantClaims+31] = 4
	c[abi.CtrlPriorityClaims+4] = 6
	c[abi.CtrlTenantMask+28] = 0xFFFFFFFF
	c[abi.CtrlTenantQuota+31] = 1_000_000
	c[abi.CtrlStarvation] = 3
	for i, w := range []uint32{11, 12, 13, 14, 15, 16} {
		c[abi.CtrlGeneration+i] = w // GENERATION … BUDGET_EXHAUSTED
	}
	for p := range abi.PriorityLevels {
		c[abi.CtrlHead+p] = uint32(100 + p)
		c[abi.CtrlTail+p] = uint32(200 + p)
	}
	c[abi.CtrlObservable+0], c[abi.CtrlObservable+2] = 0xAA, 0xCC

	tel, err := tryDecode(c.bytes(), nil)
	require.NoError(t, err)
	got := tel.Control
	assert.True(t, got.Shutdown)
	assert.False(t, got.Legacy)
	assert.NoError(t, got.CheckABI())
	assert.Equal(t, uint32(77), got.DoneCount)
	assert.Equal(t, uint32(5), got.Epoch)
	assert.Equal(t, []Metric{{Opcode: 0, Count: 10}, {Opcode: 7, Count: 2}, {Opcode: 31, Count: 1}}, got.Metrics)
	assert.Equal(t, uint32(9), got.TenantFairness[1])
	assert.Equal(t, uint32(4), got.TenantFairness[31])
	assert.Equal(t, [abi.PriorityLevels]uint32{0, 0, 0, 0, 6}, got.PriorityFairness)
	assert.Equal(t, uint32(abi.TenantBaseValue), got.TenantBase)
	assert.Equal(t, uint32(0xFFFFFFFF), got.TenantMasks[28])
	assert.Equal(t, uint32(1_000_000), got.TenantQuotas[31])
	assert.Equal(t, [abi.PriorityLevels + 1]uint32{0, 51, 102, 154, 205, 256}, got.PriorityOffsets)
	assert.Equal(t, uint32(3), got.Starvation)
	assert.Equal(t, abi.Magic, got.Magic)
	assert.Equal(t, abi.Version, got.ABIVersion)
	assert.Equal(t, []uint32{11, 12, 13, 14, 15, 16},
		[]uint32{got.Generation, got.Dispatches, got.Claims, got.Faults, got.Denied, got.BudgetExhausted})
	assert.Equal(t, [abi.PriorityLevels]uint32{100, 101, 102, 103, 104}, got.Heads)
	assert.Equal(t, [abi.PriorityLevels]uint32{200, 201, 202, 203, 204}, got.Tails)
	assert.Equal(t, []uint32{0xAA, 0, 0xCC}, got.Observable)
	v, ok := got.Observed(2)
	assert.True(t, ok)
	assert.Equal(t, uint32(0xCC), v)
	_, ok = got.Observed(3)
	assert.False(t, ok)
}

func TestDecodeControlLegacyIgnoresV1Words(t *testing.T) {
	c := newLegacyControl(1, 5)
	c[abi.CtrlDoneCount] = 3
	c[abi.CtrlPriorityClaims+4] = 8 // word 140, the last word vyre defines
	for w := abi.LegacyLastWord + 2; w < abi.CtrlObservable; w++ {
		c[w] = 0xDEAD // garbage in vyre's unused gap
	}
	c[abi.CtrlObservable] = 42

	tel, err := tryDecode(c.bytes(), nil)
	require.NoError(t, err)
	got := tel.Control
	assert.True(t, got.Legacy)
	assert.NoError(t, got.CheckABI())
	assert.Equal(t, uint32(3), got.DoneCount)
	assert.Equal(t, uint32(8), got.PriorityFairness[4])
	assert.Equal(t, [abi.PriorityLevels + 1]uint32{0, 1, 2, 3, 4, 5}, got.PriorityOffsets)
	assert.Zero(t, got.ABIVersion)
	assert.Zero(t, got.Generation)
	assert.Zero(t, got.BudgetExhausted)
	assert.Zero(t, got.Heads)
	assert.Zero(t, got.Tails)
	assert.Equal(t, []uint32{42}, got.Observable)
}

func TestCheckABI(t *testing.T) {
	for _, tc := range []struct {
		name           string
		magic, version uint32
		wantErr        string
	}{
		{"v1", abi.Magic, abi.Version, ""},
		{"legacy", 0, 0, ""},
		{"foreign magic", 0x12345678, abi.Version, "MAGIC is 0x12345678"},
		{"future version", abi.Magic, abi.Version + 1, "ABI_VERSION is 2"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := newControl(0, 5)
			c[abi.CtrlMagic], c[abi.CtrlABIVersion] = tc.magic, tc.version
			tel, err := tryDecode(c.bytes(), nil)
			require.NoError(t, err, "a foreign ABI still decodes")
			err = tel.Control.CheckABI()
			if tc.wantErr == "" {
				assert.NoError(t, err)
				return
			}
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.wantErr)
			assert.Contains(t, err.Error(), "control snapshot")
		})
	}
}

func TestControlSizeErrors(t *testing.T) {
	for _, tc := range []struct {
		name       string
		len        int
		wantOffset int
		wantMsg    string
	}{
		{"empty", 0, 0, "decode: control snapshot of 0 bytes is shorter than the 640-byte minimum (160 words); word 0 is missing"},
		{"one word short", 636, 636, "decode: control snapshot of 636 bytes is shorter than the 640-byte minimum (160 words); word 159 is missing"},
		{"misaligned short", 639, 636, "decode: control snapshot length 639 bytes is not a whole number of 4-byte words"},
		{"misaligned long", 642, 640, "decode: control snapshot length 642 bytes is not a whole number of 4-byte words"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := tryDecode(make([]byte, tc.len), nil)
			var de *DecodeError
			require.True(t, errors.As(err, &de), "want *DecodeError, got %v", err)
			assert.Equal(t, BufferControl, de.Buffer)
			assert.Equal(t, tc.wantOffset, de.Offset)
			assert.Equal(t, tc.wantMsg, err.Error())
		})
	}
}

func TestControlSizeAccepted(t *testing.T) {
	for _, words := range []int{abi.ControlMinWords, abi.ControlMinWords + 1, abi.ControlMinWords + 1000} {
		tel, err := tryDecode(make([]byte, words*abi.WordBytes), nil)
		require.NoError(t, err, "%d words", words)
		assert.Len(t, tel.Control.Observable, words-abi.ControlMinWords)
	}
}

// TestControlMetricsWindowOneWordShort is §10.1's "metrics window one word
// short": strict decoding rejects it, lenient decoding keeps the metrics
// that are there.
func TestControlMetricsWindowOneWordShort(t *testing.T) {
	c := newControl(0, 1)
	c[abi.CtrlOpcodeMetrics+0], c[abi.CtrlOpcodeMetrics+30], c[abi.CtrlOpcodeMetrics+31] = 1, 2, 3
	short := c.bytes()[:(abi.CtrlOpcodeMetrics+abi.MetricOpcodes-1)*abi.WordBytes]
	_, err := tryDecode(short, nil)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "word 127 is missing")
	assert.Equal(t, []Metric{{Opcode: 0, Count: 1}, {Opcode: 30, Count: 2}}, decodeLenient(short, nil).Control.Metrics)
}
