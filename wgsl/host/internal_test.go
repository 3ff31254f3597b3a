package host

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ringscope/ringscope/wgsl/abi"
)

func TestCounterLimit(t *testing.T) {
	q, err := NewQueue(ControlConfig{Slots: 5}, 0)
	require.NoError(t, err)
	// Pretend 2^31 − 1 items went through NORMAL, all completed.
	putWord(q.control, abi.CtrlHead+abi.PriorityNormal, MaxCounter-1)
	putWord(q.control, abi.CtrlTail+abi.PriorityNormal, MaxCounter-1)
	it := Item{Priority: abi.PriorityNormal}
	_, err = q.Publish([]Item{it})
	require.NoError(t, err)
	before := append([]byte(nil), q.control...)
	_, err = q.Publish([]Item{it})
	assert.ErrorIs(t, err, ErrCounterLimit)
	assert.Equal(t, before, q.control)
}

func TestDirtySetOutOfOrder(t *testing.T) {
	var d dirtySet
	d.markWords(10, 2)
	d.markWords(0, 1)
	d.markWords(12, 1) // touches [10,12) only after sorting? no: appended after [0,1)
	d.markWords(1, 2)
	d.markWords(9, 1)
	assert.Equal(t, []ByteRange{{0, 12}, {36, 52}}, d.ranges())
	d.markWords(3, 6) // bridges both
	assert.Equal(t, []ByteRange{{0, 52}}, d.ranges())
	d.clear()
	assert.Empty(t, d.ranges())
}
