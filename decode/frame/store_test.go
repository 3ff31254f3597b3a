package frame

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ringscope/ringscope/decode"
)

type gpuSketches struct{ err error }

func (g gpuSketches) Sketches(dst *decode.SketchTelemetry) error {
	dst.TotalSlots = 99
	return g.err
}

func ringOf(slots int, done uint32) *decode.RingTelemetry {
	t := &decode.RingTelemetry{Slots: make([]decode.RingSlotSnapshot, slots)}
	t.Control.DoneCount = done
	t.Control.Metrics = []decode.Metric{{Opcode: 1, Count: done}}
	return t
}

func TestAssembleCopiesAndAlternates(t *testing.T) {
	var s Store
	assert.Nil(t, s.Last())
	src := ringOf(4, 7)
	log := &decode.Log{Records: []decode.LogRecord{{}}, Capacity: 8}
	disp := decode.MegakernelTelemetry{KernelLaunches: 2}
	rep := decode.MegakernelReport{DispatchCount: 5}
	waits := decode.WaitTimes{}
	waits.Tenant[3].P99 = 40
	f1 := s.Assemble(&Parts{Seq: 1, Ring: src, Log: log, Dispatch: &disp, Report: &rep, Waits: &waits, SketchDepth: 2, SketchWidth: 8})
	// The producer reuses its storage: the frame must not change.
	src.Control.DoneCount, src.Control.Metrics[0].Count, src.Slots[0].Opcode = 8, 100, 9
	log.Records[0].A = 5
	disp.KernelLaunches, rep.DispatchCount = 3, 6
	waits.Tenant[3].P99 = 41
	assert.Equal(t, uint32(7), f1.Ring.Control.DoneCount)
	assert.Equal(t, []decode.Metric{{Opcode: 1, Count: 7}}, f1.Ring.Control.Metrics)
	assert.Zero(t, f1.Ring.Slots[0].Opcode)
	assert.Zero(t, f1.Log.Records[0].A)
	assert.Equal(t, uint32(2), f1.Dispatch.KernelLaunches)
	assert.Equal(t, uint64(5), f1.Report.DispatchCount)
	require.NotNil(t, f1.Waits)
	assert.Equal(t, 40.0, f1.Waits.Tenant[3].P99)
	require.NotNil(t, f1.Sketch, "sketched from the slots")
	assert.Equal(t, uint32(4), f1.Sketch.TotalSlots)
	assert.Nil(t, f1.Launch, "absent parts stay nil")
	assert.Same(t, f1, s.Last())

	f2 := s.Assemble(&Parts{Seq: 2, Ring: src, Sketches: gpuSketches{}})
	assert.NotSame(t, f1, f2, "two buffers alternate")
	assert.Equal(t, uint32(7), f1.Ring.Control.DoneCount, "the frame before stays as it was")
	assert.Equal(t, uint32(8), f2.Ring.Control.DoneCount)
	assert.Equal(t, uint32(99), f2.Sketch.TotalSlots, "a summary's sketches come from the Sketcher")
	assert.Nil(t, f2.Log)
	assert.Nil(t, f2.Waits, "no waits measured, none shown")
	f3 := s.Assemble(&Parts{Seq: 3, Ring: src, Sketches: gpuSketches{err: errors.New("none")}})
	assert.Same(t, f1, f3, "the third frame reuses the first's buffer")
	assert.Nil(t, f3.Sketch, "no sketch when the Sketcher fails")
}

func TestAssembleCopiesTheStatusMap(t *testing.T) {
	var s Store
	src := ringOf(0, 1)
	src.StatusMap.SetSlots(slotsWith(1, 2, 3, 4, 5, 6, 7, 3, 2))
	slot := decode.RingSlotSnapshot{Opcode: 4}
	f := s.Assemble(&Parts{Seq: 1, Ring: src, HostSlot: &slot})
	assert.Equal(t, 9, f.StatusSlots)
	assert.Equal(t, 9, f.SlotCount())
	st, ok := f.SlotStatus(8)
	assert.True(t, ok)
	assert.Equal(t, decode.Status(2), st)
	assert.True(t, f.HostSlotOK)
	assert.Equal(t, uint32(4), f.HostSlot.Opcode)
	src.StatusMap.SetSlots(slotsWith(7))
	st, _ = f.SlotStatus(0)
	assert.Equal(t, decode.Status(1), st, "the frame holds its own copy of the words")
	assert.Zero(t, f.Ring.StatusMap.Len(), "the copied telemetry does not alias the source's map")
}

func slotsWith(statuses ...decode.Status) []decode.RingSlotSnapshot {
	out := make([]decode.RingSlotSnapshot, len(statuses))
	for i, st := range statuses {
		out[i].Status = st
	}
	return out
}
