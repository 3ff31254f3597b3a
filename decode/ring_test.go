package decode

import (
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ringscope/ringscope/wgsl/abi"
)

func TestStatus(t *testing.T) {
	for _, tc := range []struct {
		status Status
		name   string
		active bool
	}{
		{StatusEmpty, "EMPTY", false},
		{StatusPublished, "PUBLISHED", true},
		{StatusClaimed, "CLAIMED", true},
		{StatusDone, "DONE", false},
		{StatusWaitIO, "WAIT_IO", true},
		{StatusYield, "YIELD", true},
		{StatusRequeue, "REQUEUE", true},
		{StatusFault, "FAULT", false},
		{8, "UNKNOWN(0x8)", false},
		{0xDEADBEEF, "UNKNOWN(0xdeadbeef)", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.name, tc.status.String())
			assert.Equal(t, tc.active, tc.status.Active())
			assert.Equal(t, tc.status < abi.StatusCount, tc.status.Known())
		})
	}
}

func TestDecodeMixedStatuses(t *testing.T) {
	ring := statusRing(0, 1, 1, 2, 3, 3, 3, 4, 5, 6, 7, 8, 0xFFFFFFFF, 0)
	tel, err := tryDecode(newControl(0, 14).bytes(), ring)
	require.NoError(t, err)
	assert.Equal(t, RingOccupancy{StatusEmpty: 2, StatusPublished: 2, StatusClaimed: 1, StatusDone: 3, StatusWaitIO: 1, StatusYield: 1, StatusRequeue: 1, StatusFault: 1, StatusUnknown: 2}, tel.Occupancy)
	assert.Equal(t, uint32(14), tel.Occupancy.TotalSlots())
	assert.Equal(t, uint32(9), tel.Occupancy.QueueDepth(), "FAULT and unknown count toward the queue depth")
	assert.Equal(t, uint32(6), tel.Occupancy.ActiveSlots())
	require.Len(t, tel.Slots, 14)
	assert.Equal(t, Status(0xFFFFFFFF), tel.Slots[12].Status, "unknown statuses are kept")
	for i, s := range tel.Slots {
		assert.Equal(t, uint32(i), s.Index)
	}
}

func TestDecodeSlotFields(t *testing.T) {
	ring := ringBytes(
		slot{status: abi.StatusPublished, op: abi.OpHash, tenant: 28, prio: abi.PriorityIdle, args: []uint32{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}},
		slot{status: abi.StatusDone, op: abi.OpShutdown, tenant: 0xFFFFFFFF, prio: 9},
	)
	tel, err := tryDecode(newControl(0, 2).bytes(), ring)
	require.NoError(t, err)
	assert.Equal(t, []RingSlotSnapshot{
		{Index: 0, Status: StatusPublished, Opcode: abi.OpHash, Tenant: 28, Priority: abi.PriorityIdle, Args: [3]uint32{1, 2, 3}},
		{Index: 1, Status: StatusDone, Opcode: abi.OpShutdown, Tenant: 0xFFFFFFFF, Priority: 9},
	}, tel.Slots)
}

func TestRingSizeErrors(t *testing.T) {
	for _, tc := range []struct {
		name       string
		len        int
		wantOffset int
		wantMsg    string
	}{
		{"130 bytes", 130, 128, "decode: ring length 130 bytes is not a whole number of 64-byte slots (2 whole ring slots, then 2 stray bytes)"},
		{"one byte short", 63, 0, "decode: ring length 63 bytes is not a whole number of 64-byte slots (0 whole ring slots, then 63 stray bytes)"},
		{"one byte long", 65, 64, "decode: ring length 65 bytes is not a whole number of 64-byte slots (1 whole ring slots, then 1 stray bytes)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := tryDecode(newControl(0, 1).bytes(), make([]byte, tc.len))
			var de *DecodeError
			require.True(t, errors.As(err, &de), "want *DecodeError, got %v", err)
			assert.Equal(t, BufferRing, de.Buffer)
			assert.Equal(t, tc.wantOffset, de.Offset)
			assert.Equal(t, tc.wantMsg, err.Error())
		})
	}
}

func TestEmptyRingDecodes(t *testing.T) {
	tel, err := tryDecode(newControl(0, 0).bytes(), nil)
	require.NoError(t, err)
	assert.Empty(t, tel.Slots)
	assert.Zero(t, tel.Occupancy.TotalSlots())
}

// TestFailureLeavesDstUntouched pins that a failed strict decode writes
// nothing: a UI can keep showing the last good snapshot.
func TestFailureLeavesDstUntouched(t *testing.T) {
	good := newControl(1, 3)
	good[abi.CtrlDoneCount] = 5
	var dst RingTelemetry
	var scratch DecodeScratch
	require.NoError(t, DecodeInto(&dst, &scratch, good.bytes(), ringBytes(window(1, 300, 2, 9, 0), window(2, 300, 2, 9, 1), slot{status: 3}), []uint32{300}))
	want := dst
	want.Slots = append([]RingSlotSnapshot(nil), dst.Slots...)
	want.Windows = append([]WindowTelemetry(nil), dst.Windows...)
	want.Control.Metrics = append([]Metric(nil), dst.Control.Metrics...)
	want.Control.Observable = append([]uint32(nil), dst.Control.Observable...)

	for _, tc := range []struct {
		name          string
		control, ring []byte
	}{
		{"short control", make([]byte, 100), statusRing(1)},
		{"misaligned control", make([]byte, 641), statusRing(1)},
		{"partial ring", newControl(0, 1).bytes(), make([]byte, 65)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			require.Error(t, DecodeInto(&dst, &scratch, tc.control, tc.ring, []uint32{300}))
			assert.Equal(t, want, dst)
		})
	}
}

func TestDecodeIntoReusesStorage(t *testing.T) {
	control := newControl(4, 64)
	control[abi.CtrlOpcodeMetrics+3] = 1
	slots := make([]slot, 64)
	for i := range slots {
		slots[i] = window(uint32(1+i%7), 500+uint32(i%3), 1, uint32(i/4), uint32(i%2))
	}
	ring := ringBytes(slots...)
	ops := []uint32{502, 500, 501}

	var dst RingTelemetry
	var scratch DecodeScratch
	require.NoError(t, DecodeInto(&dst, &scratch, control.bytes(), ring, ops))
	require.NotEmpty(t, dst.Windows)
	slotsPtr, windowsPtr := &dst.Slots[0], &dst.Windows[0]
	slotsCap, windowsCap := cap(dst.Slots), cap(dst.Windows)

	cb := control.bytes()
	allocs := testing.AllocsPerRun(20, func() {
		if err := DecodeInto(&dst, &scratch, cb, ring, ops); err != nil {
			panic(err)
		}
	})
	assert.Zero(t, allocs, "a repeated decode allocates nothing")
	assert.Same(t, slotsPtr, &dst.Slots[0])
	assert.Same(t, windowsPtr, &dst.Windows[0])
	assert.Equal(t, slotsCap, cap(dst.Slots))
	assert.Equal(t, windowsCap, cap(dst.Windows))
	assert.Equal(t, []uint32{502, 500, 501}, ops, "the caller's opcode list is not reordered")

	// A smaller ring reuses the same storage and leaves no stale slots.
	require.NoError(t, DecodeInto(&dst, &scratch, cb, ring[:4*abi.SlotBytes], nil))
	assert.Len(t, dst.Slots, 4)
	assert.Empty(t, dst.Windows)
	assert.Same(t, slotsPtr, &dst.Slots[0])
}

func TestLenientDecode(t *testing.T) {
	full := newControl(2, 2)
	full[abi.CtrlDoneCount] = 4
	full[abi.CtrlEpoch] = 6
	full[abi.CtrlObservable+1] = 9
	ring := ringBytes(slot{status: 1, op: 7}, slot{status: 3, op: 8})

	for _, tc := range []struct {
		name          string
		control, ring []byte
		wantSlots     int
		wantDone      uint32
		wantEpoch     uint32
		wantLegacy    bool
		wantObs       []uint32
	}{
		{"whole buffers", full.bytes(), ring, 2, 4, 6, false, []uint32{0, 9}},
		{"nil buffers", nil, nil, 0, 0, 0, true, []uint32{}},
		{"control cut after EPOCH, partial word", full.bytes()[:(abi.CtrlEpoch+1)*abi.WordBytes+3], ring, 2, 4, 6, true, []uint32{}},
		{"control cut inside DONE_COUNT", full.bytes()[:6], ring, 2, 0, 0, true, []uint32{}},
		{"partial trailing slot dropped", full.bytes(), ring[:abi.SlotBytes+10], 1, 4, 6, false, []uint32{0, 9}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tel := decodeLenient(tc.control, tc.ring)
			assert.Len(t, tel.Slots, tc.wantSlots)
			assert.Equal(t, uint32(tc.wantSlots), tel.Occupancy.TotalSlots())
			assert.Equal(t, tc.wantDone, tel.Control.DoneCount)
			assert.Equal(t, tc.wantEpoch, tel.Control.Epoch)
			assert.Equal(t, tc.wantLegacy, tel.Control.Legacy, "a control cut before MAGIC reads as legacy")
			assert.Equal(t, tc.wantObs, append([]uint32{}, tel.Control.Observable...))
		})
	}
}

func TestActiveSlotsForOpcode(t *testing.T) {
	ring := ringBytes(
		slot{status: abi.StatusPublished, op: 9},
		slot{status: abi.StatusDone, op: 9},
		slot{status: abi.StatusClaimed, op: 8},
		slot{status: abi.StatusRequeue, op: 9},
		slot{status: abi.StatusFault, op: 9},
		slot{status: 99, op: 9},
		slot{status: abi.StatusWaitIO, op: 9},
	)
	tel := telemetryOf(newControl(0, 7), ring)
	got := tel.ActiveSlotsForOpcode(9)
	idx := make([]uint32, len(got))
	for i, s := range got {
		idx[i] = s.Index
	}
	assert.Equal(t, []uint32{0, 3, 6}, idx)
	assert.Empty(t, tel.ActiveSlotsForOpcode(1234))

	buf := make([]RingSlotSnapshot, 0, 8)
	allocs := testing.AllocsPerRun(10, func() { buf = tel.AppendActiveSlotsForOpcode(buf[:0], 9) })
	assert.Zero(t, allocs)
	assert.Len(t, buf, 3)
}

func TestOccupancySaturates(t *testing.T) {
	const m = 0xFFFFFFFF
	o := RingOccupancy{StatusEmpty: m, StatusPublished: m, StatusFault: 1}
	assert.Equal(t, uint32(m), o.TotalSlots())
	assert.Equal(t, uint32(m), o.QueueDepth())
	assert.Equal(t, uint32(m), o.ActiveSlots())
}

func TestDecodeIntoNilScratch(t *testing.T) {
	var dst RingTelemetry
	require.NoError(t, DecodeInto(&dst, nil, newControl(0, 1).bytes(), ringBytes(window(1, routeOp, 0, 3, 0)), []uint32{routeOp}))
	assert.Len(t, dst.Windows, 1)
}

func TestDecodeSlot(t *testing.T) {
	ring := randomRing(rand.New(rand.NewPCG(3, 9)), 40, []uint32{9})
	full, err := tryDecode(newControl(0, 4).bytes(), ring)
	require.NoError(t, err)
	for i := range full.Slots {
		got, ok := DecodeSlot(ring, i)
		require.True(t, ok)
		require.Equal(t, full.Slots[i], got, "slot %d", i)
	}
	for _, i := range []int{-1, 40, 1 << 40} {
		_, ok := DecodeSlot(ring, i)
		assert.False(t, ok, "slot %d", i)
	}
	_, ok := DecodeSlot(ring[:100], 1)
	assert.False(t, ok, "a partial slot")
}

func TestCountOccupancy(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 2))
	for n := range 60 {
		ring := randomRing(rng, n, []uint32{9})
		full, err := tryDecode(newControl(0, 4).bytes(), ring)
		require.NoError(t, err)
		got, err := CountOccupancy(ring)
		require.NoError(t, err)
		require.Equal(t, full.Occupancy, got, "%d slots", n)
	}
	_, err := CountOccupancy(make([]byte, 100))
	var de *DecodeError
	require.ErrorAs(t, err, &de)
	assert.Equal(t, BufferRing, de.Buffer)
}

// TestDecodeControlIntoKeepsSlots: a control-only decode gives the same
// telemetry as a full decode of an unchanged ring with the new control,
// refuses a short control without touching dst, and allocates nothing.
func TestDecodeControlIntoKeepsSlots(t *testing.T) {
	control := newControl(4, 64)
	slots := make([]slot, 64)
	for i := range slots {
		slots[i] = window(uint32(1+i%7), 500+uint32(i%3), 1, uint32(i/4), uint32(i%2))
	}
	ring := ringBytes(slots...)
	ops := []uint32{500, 501}
	var dst RingTelemetry
	var scratch DecodeScratch
	require.NoError(t, DecodeInto(&dst, &scratch, control.bytes(), ring, ops))

	control[abi.CtrlDoneCount] = 17
	control[abi.CtrlOpcodeMetrics+2] = 5
	var want RingTelemetry
	require.NoError(t, DecodeInto(&want, nil, control.bytes(), ring, ops))
	require.NoError(t, decodeControlInto(&dst, control.bytes()))
	assert.Equal(t, want, dst)

	before := dst
	var de *DecodeError
	require.ErrorAs(t, decodeControlInto(&dst, control.bytes()[:100]), &de)
	assert.Equal(t, before, dst)
	cb := control.bytes()
	assert.Zero(t, testing.AllocsPerRun(20, func() { _ = decodeControlInto(&dst, cb) }))
}

func TestStatusLabels(t *testing.T) {
	for _, tc := range []struct {
		s                           Status
		protocol, kebab, snake, cam string
	}{
		{StatusEmpty, "EMPTY", "empty", "empty", "empty"},
		{StatusWaitIO, "WAIT_IO", "wait-io", "wait_io", "waitIO"},
		{StatusFault, "FAULT", "fault", "fault", "fault"},
		{StatusUnknown, "UNKNOWN", "unknown", "unknown", "unknown"},
		{0xDEADBEEF, "UNKNOWN", "unknown", "unknown", "unknown"},
	} {
		assert.Equal(t, tc.protocol, tc.s.Label(StatusProtocol))
		assert.Equal(t, tc.kebab, tc.s.Label(StatusKebab))
		assert.Equal(t, tc.snake, tc.s.Label(StatusSnake))
		assert.Equal(t, tc.cam, tc.s.Label(StatusCamel))
	}
	var o RingOccupancy
	o[StatusYield], o[StatusUnknown] = 3, 2
	assert.EqualValues(t, 3, o.Of(StatusYield))
	assert.EqualValues(t, 2, o.Of(0xDEADBEEF), "every unknown value reads the unknown count")
	assert.EqualValues(t, 3, o.ActiveSlots())
	assert.EqualValues(t, 5, o.QueueDepth())
}

func TestLowerLabels(t *testing.T) {
	k, s, c := lowerLabels("A_LONG_IO_NAME2")
	assert.Equal(t, []string{"a-long-io-name2", "a_long_io_name2", "aLongIOName2"}, []string{k, s, c})
	k, s, c = lowerLabels("EMPTY")
	assert.Equal(t, []string{"empty", "empty", "empty"}, []string{k, s, c})
}
