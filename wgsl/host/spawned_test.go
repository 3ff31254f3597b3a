package host_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ringscope/ringscope/wgsl/abi"
	"github.com/ringscope/ringscope/wgsl/host"
)

// slots returns the byte range of slots [s, e).
func slots(s, e int) host.ByteRange {
	return host.ByteRange{Start: s * abi.SlotBytes, End: e * abi.SlotBytes}
}

// TestTicketRanges: positions map to their partition's slots mod its
// capacity; a wrapped span is two ranges, the lower first; a span of a
// whole capacity or more is the partition; neighbours coalesce; a TAIL
// that went back or stayed spawned nothing.
func TestTicketRanges(t *testing.T) {
	q := newQueue(t, host.ControlConfig{Slots: 100, Tenants: 1}) // partitions of 20
	from := [abi.PriorityLevels]uint32{0, 18, 5, 7, 50}
	to := [abi.PriorityLevels]uint32{3, 23, 5, 27, 95}
	got := q.TicketRanges(nil, from, to)
	assert.Equal(t, []host.ByteRange{slots(0, 3), slots(20, 23), slots(38, 40), slots(60, 100)}, got)

	got = q.TicketRanges(got[:0], [abi.PriorityLevels]uint32{4, 0, 0, 0, 0}, [abi.PriorityLevels]uint32{2, 0, 0, 0, 0})
	assert.Empty(t, got, "TAIL went back")
	got = q.TicketRanges(got[:0], [abi.PriorityLevels]uint32{17, 0, 0, 0, 0}, [abi.PriorityLevels]uint32{20, 1, 0, 0, 0})
	assert.Equal(t, []host.ByteRange{slots(17, 21)}, got, "the end of partition 0 and the start of 1 coalesce")
}

// TestAbsorbRingRanges: the ranges' bytes land in the host copy and count
// as changed; a slot the host wrote since the upload keeps the host's
// words; bad ranges or lengths change nothing.
func TestAbsorbRingRanges(t *testing.T) {
	q := newQueue(t, host.ControlConfig{Slots: 100, Tenants: 1})
	q.ClearRingChanges()
	_, err := q.Publish([]host.Item{{Opcode: 7, Priority: 0}}) // slot 0, dirty
	require.NoError(t, err)
	rs := []host.ByteRange{slots(0, 2), slots(40, 41)}
	data := make([]byte, 3*abi.SlotBytes)
	for i := range data {
		data[i] = byte(i%251 + 1)
	}
	before := snapshot(q)

	require.Error(t, q.AbsorbRingRanges(rs, data[:len(data)-4]), "short data")
	require.Error(t, q.AbsorbRingRanges([]host.ByteRange{slots(40, 41), slots(0, 2)}, data), "unsorted")
	require.Error(t, q.AbsorbRingRanges([]host.ByteRange{{Start: 4, End: 4 + 3*abi.SlotBytes}}, data), "not whole slots")
	require.Error(t, q.AbsorbRingRanges([]host.ByteRange{slots(98, 101)}, data), "past the ring")
	assert.Equal(t, before, snapshot(q), "a refusal changes nothing")

	require.NoError(t, q.AbsorbRingRanges(rs, data))
	ring := q.Ring()
	assert.Equal(t, before[1][:abi.SlotBytes], ring[:abi.SlotBytes], "the host's own slot is kept")
	assert.Equal(t, data[abi.SlotBytes:2*abi.SlotBytes], ring[abi.SlotBytes:2*abi.SlotBytes])
	assert.Equal(t, data[2*abi.SlotBytes:], ring[40*abi.SlotBytes:41*abi.SlotBytes])
	assert.Equal(t, before[1][2*abi.SlotBytes:40*abi.SlotBytes], ring[2*abi.SlotBytes:40*abi.SlotBytes], "between the ranges: untouched")
	assert.Equal(t, []host.ByteRange{slots(0, 2), slots(40, 41)}, q.RingChanges())
}

// TestRingCleared: after a Reset the ring's dirty ranges go and control's
// stay, so an upload then writes the published slots alone; after a
// publish it refuses and forgets nothing.
func TestRingCleared(t *testing.T) {
	q := newQueue(t, host.ControlConfig{Slots: 100, Tenants: 1})
	require.NoError(t, q.Reset(host.ControlConfig{Slots: 100, Tenants: 1}))
	require.NoError(t, q.RingCleared())
	assert.Empty(t, q.Dirty(host.RingBuffer))
	assert.NotEmpty(t, q.Dirty(host.ControlBuffer))
	_, err := q.Publish([]host.Item{{Opcode: 7, Priority: 2}})
	require.NoError(t, err)
	assert.Equal(t, []host.ByteRange{slots(40, 41)}, q.Dirty(host.RingBuffer), "the root's slot alone")
	require.Error(t, q.RingCleared())
	assert.Equal(t, []host.ByteRange{slots(40, 41)}, q.Dirty(host.RingBuffer))
}
