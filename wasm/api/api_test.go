package api_test

import (
	"errors"
	"fmt"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ringscope/ringscope/decode"
	"github.com/ringscope/ringscope/wasm/api"
	"github.com/ringscope/ringscope/wgsl/abi"
	"github.com/ringscope/ringscope/wgsl/host"
)

func TestLowerCamel(t *testing.T) {
	for in, want := range map[string]string{
		"DoneCount": "doneCount", "QueueDepth": "queueDepth", "BytesUploaded": "bytesUploaded",
		"GPUIdlePPM": "gpuIdlePPM", "ABIVersion": "abiVersion", "ID": "id", "WaitIO": "waitIO",
		"Epoch": "epoch", "OccupancyProxyBps": "occupancyProxyBps", "X": "x", "": "",
	} {
		assert.Equal(t, want, api.LowerCamel(in), in)
	}
}

func TestPlainTelemetry(t *testing.T) {
	tel := decode.RingTelemetry{
		Control:   decode.ControlSnapshot{DoneCount: 7, Metrics: []decode.Metric{{Opcode: 1, Count: 3}}},
		Occupancy: decode.RingOccupancy{decode.StatusDone: 7, decode.StatusEmpty: 1},
		Slots:     []decode.RingSlotSnapshot{{Index: 2, Status: decode.StatusDone}},
	}
	p, ok := api.Plain(tel).(map[string]any)
	require.True(t, ok)
	control := p["control"].(map[string]any)
	assert.Equal(t, 7.0, control["doneCount"])
	assert.Equal(t, []any{map[string]any{"opcode": 1.0, "count": 3.0}}, control["metrics"])
	assert.Equal(t, 7.0, p["occupancy"].(map[string]any)["done"])
	slot := p["slots"].([]any)[0].(map[string]any)
	assert.Equal(t, 2.0, slot["index"])
	assert.Len(t, control["tenantFairness"], 32)
}

func TestPlainEnumsAsNames(t *testing.T) {
	m := api.Plain(decode.MegakernelTelemetry{ExecutionMode: decode.ModeJIT, BytesUploaded: 64}).(map[string]any)
	assert.Equal(t, "jit", m["executionMode"])
	assert.Equal(t, 64.0, m["bytesUploaded"])
	assert.Nil(t, api.Plain(nil))
	var nilPtr *decode.RingTelemetry
	assert.Nil(t, api.Plain(nilPtr))
}

// Errors become their message, nil ones nil; unexported fields are left
// out; the same type converts the same way twice (its names are cached).
func TestPlainErrorsAndFields(t *testing.T) {
	type result struct {
		Err    error
		Cause  error
		hidden int
		Mode   decode.ExecutionMode
		Slots  [2]decode.RingSlotSnapshot
	}
	for range 2 {
		m := api.Plain(result{Err: errors.New("device lost"), hidden: 1, Mode: decode.ModeJIT}).(map[string]any)
		assert.Equal(t, "device lost", m["err"])
		assert.Nil(t, m["cause"])
		assert.NotContains(t, m, "hidden")
		assert.Len(t, m, 4)
		assert.Equal(t, "jit", m["mode"])
		assert.Equal(t, 0.0, m["slots"].([]any)[1].(map[string]any)["status"])
	}
}

func TestUint32(t *testing.T) {
	for _, bad := range []float64{-1, 1.5, math.NaN(), math.Inf(1), 1 << 32} {
		_, err := api.Uint32("open: slots", bad)
		assert.ErrorContains(t, err, "open: slots must be an integer", "%v", bad)
	}
	v, err := api.Uint32("x", 4294967295)
	require.NoError(t, err)
	assert.Equal(t, uint32(math.MaxUint32), v)
}

func TestItem(t *testing.T) {
	it, err := api.Item(0, api.RawItem{Opcode: float64(abi.OpSpin), Tenant: 3, Priority: 4, Args: []float64{10, 2}})
	require.NoError(t, err)
	assert.Equal(t, abi.OpSpin, it.Opcode)
	assert.Equal(t, uint32(10), it.Args[0])
	for name, tc := range map[string]struct {
		raw  api.RawItem
		want string
	}{
		"bad tenant":      {api.RawItem{Tenant: 29}, "publish: item 5: tenant 29 is invalid"},
		"bad priority":    {api.RawItem{Priority: 5}, "priority 5 is invalid"},
		"reserved opcode": {api.RawItem{Opcode: 0xFFF5}, "reserved system opcode"},
		"fraction":        {api.RawItem{Opcode: 1.5}, "publish: item 5: opcode must be an integer"},
		"too many args":   {api.RawItem{Args: make([]float64, 13)}, "13 args"},
		"negative arg":    {api.RawItem{Args: []float64{0, -2}}, "args[1] must be an integer"},
	} {
		_, err := api.Item(5, tc.raw)
		assert.ErrorContains(t, err, tc.want, name)
	}
}

func TestCheckTenants(t *testing.T) {
	items := []host.Item{{Tenant: 0}, {Tenant: 1}, {Tenant: 5}}
	assert.NoError(t, api.CheckTenants(items, 6))
	err := api.CheckTenants(items, 2)
	assert.EqualError(t, err, "publish: item 2: tenant 5 is not one the ring runs (it runs tenants 0…1: "+
		"open({tenants: 6}) runs every tenant these items use); its work would wait forever, nothing published")
	// The fix names the tenants every item needs, not the first refused
	// one's: a workload over tenants 0…5 on a ring of one.
	assert.ErrorContains(t, api.CheckTenants(items, 1), "item 1: tenant 1 is not one the ring runs (it runs tenant 0 only: open({tenants: 6})")
	assert.ErrorContains(t, api.CheckTenants(items, 0), "item 0: tenant 0 is not one the ring runs (it runs no tenant")
	assert.NoError(t, api.CheckTenants(nil, 0))
}

func TestCheckKnownOpcodes(t *testing.T) {
	ok := []host.Item{{Opcode: abi.OpNop}, {Opcode: abi.OpAtomicAdd}, {Opcode: abi.OpSpin}, {Opcode: abi.OpShutdown}, {Opcode: abi.OpPrintf}}
	assert.NoError(t, api.CheckKnownOpcodes(ok, nil))
	user := func(op uint32) bool { return op == 0x10 }
	assert.NoError(t, api.CheckKnownOpcodes(append(ok, host.Item{Opcode: 0x10}), user), "the user kernel's opcode")
	assert.Error(t, api.CheckKnownOpcodes(append(ok, host.Item{Opcode: 0x10}), nil), "no user kernel")
	err := api.CheckKnownOpcodes(append(ok, host.Item{Opcode: 9}), user)
	assert.ErrorContains(t, err, "publish: item 5: opcode 0x9 is unknown")
	assert.ErrorContains(t, err, "allowUnknownOpcodes")
	assert.False(t, api.KnownOpcode(0xFFF5))
	assert.False(t, api.KnownOpcode(0x102))
}

func TestStuckOf(t *testing.T) {
	var tel decode.RingTelemetry
	tel.Occupancy = decode.RingOccupancy{decode.StatusPublished: 2, decode.StatusYield: 500, decode.StatusWaitIO: 1, decode.StatusDone: 7, decode.StatusFault: 3}
	tel.Active.Tenant[1], tel.Active.Tenant[4] = 500, 3
	tel.Active.Priority[2] = 503
	st := api.StuckOf(&tel)
	assert.Equal(t, map[string]uint32{"1": 500, "4": 3}, st.ByTenant)
	assert.Equal(t, map[string]uint32{"2": 503}, st.ByPriority)
	assert.Equal(t, api.StuckStatus{"published": 2, "claimed": 0, "waitIO": 1, "yield": 500, "requeue": 0}, st.ByStatus, "ended slots are not stuck")
	b, ok := api.Encode(st).(api.RawJSON)
	require.True(t, ok)
	assert.JSONEq(t, `{"byTenant":{"1":500,"4":3},"byPriority":{"2":503},
		"byStatus":{"published":2,"claimed":0,"waitIO":1,"yield":500,"requeue":0}}`, string(b))
}

func TestNumberKeysAreJSKeys(t *testing.T) {
	m := map[int]uint32{1: 500, 28: 3}
	b, ok := api.Encode(m).(api.RawJSON)
	require.True(t, ok)
	assert.JSONEq(t, `{"1":500,"28":3}`, string(b), "not <float64 Value>")
	assert.Equal(t, map[string]any{"1": float64(500), "28": float64(3)}, api.Plain(m))
	assert.Equal(t, map[string]any{"true": float64(1)}, api.Plain(map[bool]int{true: 1}))
}

// A page-state rejection (not ready, attached) names the method refused,
// as every other rejection starts with it; others are left as they are.
func TestNamedPrefixesPageStateErrors(t *testing.T) {
	assert.EqualError(t, api.Named("setTenantMask", api.ErrAttached), "setTenantMask: "+api.ErrAttached.Error())
	assert.ErrorIs(t, api.Named("setTenantMask", api.ErrAttached), api.ErrAttached)
	assert.EqualError(t, api.Named("drain", fmt.Errorf("wrapped: %w", api.ErrNotReady)), "drain: wrapped: "+api.ErrNotReady.Error())
	other := errors.New("publish: item 1: bad")
	assert.Same(t, other, api.Named("publish", other))
	assert.Contains(t, api.ErrAttached.Error(), "setIOService")
	// A method that already named itself is not named twice.
	own := fmt.Errorf("readBuffer: %w", api.ErrAttached)
	assert.Same(t, own, api.Named("readBuffer", own))
}
