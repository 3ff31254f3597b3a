package abi_test

import (
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ringscope/ringscope/wgsl/abi"
	"github.com/ringscope/ringscope/wgsl/internal/abigen"
)

type region struct {
	name        string
	start, size int
}

// controlRegions is the control layout of PROTOCOL §2, one row per region.
var controlRegions = []region{
	{"SHUTDOWN", abi.CtrlShutdown, 1},
	{"DONE_COUNT", abi.CtrlDoneCount, 1},
	{"TENANT_BASE", abi.CtrlTenantBase, 1},
	{"TENANT_MASK", abi.CtrlTenantMask, abi.TenantCount},
	{"TENANT_QUOTA", abi.CtrlTenantQuota, abi.TenantSlots},
	{"TENANT_CLAIMS", abi.CtrlTenantClaims, abi.TenantSlots},
	{"OPCODE_METRICS", abi.CtrlOpcodeMetrics, abi.MetricOpcodes},
	{"EPOCH", abi.CtrlEpoch, 1},
	{"PRIORITY_OFFSETS", abi.CtrlPriorityOffsets, abi.PriorityLevels + 1},
	{"STARVATION", abi.CtrlStarvation, 1},
	{"PRIORITY_CLAIMS", abi.CtrlPriorityClaims, abi.PriorityLevels},
	{"MAGIC", abi.CtrlMagic, 1},
	{"ABI_VERSION", abi.CtrlABIVersion, 1},
	{"GENERATION", abi.CtrlGeneration, 1},
	{"DISPATCHES", abi.CtrlDispatches, 1},
	{"CLAIMS", abi.CtrlClaims, 1},
	{"FAULTS", abi.CtrlFaults, 1},
	{"DENIED", abi.CtrlDenied, 1},
	{"BUDGET_EXHAUSTED", abi.CtrlBudgetExhausted, 1},
	{"HEAD", abi.CtrlHead, abi.PriorityLevels},
	{"TAIL", abi.CtrlTail, abi.PriorityLevels},
	{"reserved", abi.CtrlReserved, 1},
}

func TestControlLayoutIsContiguousAndOrdered(t *testing.T) {
	require.True(t, sort.SliceIsSorted(controlRegions, func(i, j int) bool {
		return controlRegions[i].start < controlRegions[j].start
	}), "regions out of order")
	next := 0
	for _, r := range controlRegions {
		assert.Equalf(t, next, r.start, "%s starts at %d, want %d (gap or overlap)", r.name, r.start, next)
		next = r.start + r.size
	}
	assert.Equal(t, 160, next)
	assert.Equal(t, 160, abi.ControlMinWords)
	assert.Equal(t, abi.ControlMinWords, abi.CtrlObservable)
	assert.Equal(t, 3, abi.TenantBaseValue)
	assert.Equal(t, 140, abi.LegacyLastWord)
}

func TestSlotLayout(t *testing.T) {
	assert.Equal(t, 16, abi.SlotWords)
	assert.Equal(t, 64, abi.SlotBytes)
	assert.Equal(t, abi.SlotWords, abi.SlotArg0+abi.SlotArgs)
	assert.Equal(t, []int{0, 1, 2, 3, 4}, []int{abi.SlotStatus, abi.SlotOpcode, abi.SlotTenant, abi.SlotPriority, abi.SlotArg0})
}

func TestPinnedValues(t *testing.T) {
	assert.Equal(t, uint32(0x31435352), abi.Magic)
	magic := abi.Magic
	assert.Equal(t, "RSC1", string([]byte{byte(magic), byte(magic >> 8), byte(magic >> 16), byte(magic >> 24)}))
	assert.Equal(t, uint32(1), abi.Version)
	assert.Equal(t, []int{0, 1, 2, 3, 4, 5, 6, 7}, []int{abi.StatusEmpty, abi.StatusPublished, abi.StatusClaimed,
		abi.StatusDone, abi.StatusWaitIO, abi.StatusYield, abi.StatusRequeue, abi.StatusFault})
	assert.Equal(t, []int{1, 2, 3, 4, 5, 6}, []int{abi.FaultUnknownOpcode, abi.FaultOutOfBounds, abi.FaultProtected,
		abi.FaultBadTenant, abi.FaultBadState, abi.FaultUserFault})
	assert.Equal(t, []int{0, 1, 2, 3, 4, 5}, []int{abi.BindingControl, abi.BindingRing, abi.BindingLog,
		abi.BindingParams, abi.BindingData, abi.BindingFirstExtension})
	assert.Equal(t, uint32(164), abi.LogWords(40))
	assert.Equal(t, uint32(168), abi.ControlWords(8))
}

func TestDefaultPartitions(t *testing.T) {
	for _, tc := range []struct {
		slots uint32
		want  [6]uint32
	}{
		{256, [6]uint32{0, 51, 102, 154, 205, 256}},
		{1, [6]uint32{0, 0, 0, 1, 1, 1}},
		{5, [6]uint32{0, 1, 2, 3, 4, 5}},
		{0, [6]uint32{}},
	} {
		assert.Equal(t, tc.want, abi.DefaultPartitions(tc.slots), "slots=%d", tc.slots)
	}
}

func TestOpcodeClasses(t *testing.T) {
	for op, want := range map[uint32]bool{
		abi.OpNop: true, abi.OpSpin: true, abi.OpYield: true, abi.OpPrintf: true, abi.OpShutdown: true,
		0xFFF4: false, 0xFFFF: false, 0x80000000: false, 0x7FFFFFFF: true, 0x10000: true,
	} {
		assert.Equal(t, want, abi.IsPublishable(op), "op %#x", op)
	}
}

// TestStatusNames checks the name table against the Status constants: the
// constant of each known status s spells its name (StatusWaitIO is
// STATUS_WAIT_IO in WGSL, WAIT_IO in the table), and every other value
// has none.
func TestStatusNames(t *testing.T) {
	consts, err := abigen.Constants(".")
	require.NoError(t, err)
	named := map[uint32]string{}
	for _, c := range consts {
		name, ok := strings.CutPrefix(c.WGSLName, "STATUS_")
		if ok && c.File == "abi.go" && c.GoName != "StatusCount" && c.GoName != "StatusActiveMask" {
			named[c.Value] = name
		}
	}
	require.Len(t, named, abi.StatusCount, "one Status constant per known status")
	for s := range uint32(abi.StatusCount) {
		name, ok := abi.StatusName(s)
		assert.True(t, ok)
		assert.Equalf(t, named[s], name, "status %d", s)
	}
	_, ok := abi.StatusName(abi.StatusCount)
	assert.False(t, ok, "an unknown status has no name")
}
