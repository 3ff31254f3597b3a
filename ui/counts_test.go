package ui

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ringscope/ringscope/decode"
	"github.com/ringscope/ringscope/decode/frame"
)

func headerStat(d *Dashboard, label string) KV {
	for _, kv := range d.HeaderStats() {
		if kv.Label == label {
			return kv
		}
	}
	return KV{}
}

// The header shows done and faulted apart: DONE_COUNT counts both.
func TestHeaderShowsDoneAndFaultedApart(t *testing.T) {
	var d Dashboard
	assert.Equal(t, dash, headerStat(&d, "faulted").Value)
	r := testRing()
	r.Control.DoneCount, r.Control.Faults = 190450, 76431
	d.Apply(&frame.Frame{Seq: 1, Ring: r})
	labels := []string{}
	for _, kv := range d.HeaderStats() {
		labels = append(labels, kv.Label)
	}
	assert.Equal(t, []string{"preset", "frame", "rate", "round trip", "done", "faulted", "health", "cause", "readback"}, labels)
	assert.Equal(t, "114,019", headerStat(&d, "done").Value, "DONE_COUNT less FAULTS")
	faulted := headerStat(&d, "faulted")
	assert.Equal(t, "76,431", faulted.Value)
	assert.Equal(t, "num-bad", faulted.Class)

	r.Control.Faults = 0
	d.Apply(&frame.Frame{Seq: 2, Ring: r})
	assert.Equal(t, "190,450", headerStat(&d, "done").Value)
	assert.Equal(t, "0", headerStat(&d, "faulted").Value)
	assert.Empty(t, headerStat(&d, "faulted").Class)
}

// Masked tenants counts the ring's tenants only.
func TestMaskedTenantsCountsTheRingsTenants(t *testing.T) {
	var k decode.ControlSnapshot
	for i := range 8 {
		k.TenantMasks[i] = 1
	}
	k.TenantMasks[0] = 0 // tenant 0 of 8 masked; ids 8… are not the ring's
	assert.Equal(t, 1, MaskedTenants(&k, 8))
	assert.Equal(t, 2, MaskedTenants(&k, 8+1), "a ring of 9 tenants: 8 is masked too")
	assert.Equal(t, 22, MaskedTenants(&k, 0), "unknown: every id (what the page showed)")
	assert.Equal(t, 22, MaskedTenants(&k, 99))

	r := testRing()
	r.Control.TenantMasks = k.TenantMasks
	p := ControlPanel{Frame: &frame.Frame{Ring: r}, Tenants: 8}
	var masked KV
	for _, kv := range p.Items() {
		if kv.Label == "masked tenants" {
			masked = kv
		}
	}
	assert.Equal(t, "1", masked.Value)
	assert.Contains(t, masked.Title, "0…7, the ring's,")
}

// Opcode executions are the host's counts of what ended, every opcode:
// their shares add up to all that ended.
func TestOpcodeExecutionsCountEveryOpcodeThatEnded(t *testing.T) {
	r := testRing()
	p := ControlPanel{Frame: &frame.Frame{Ring: r, OpcodeEnds: []decode.Metric{{Opcode: 0x101, Count: 600}, {Opcode: 0x100, Count: 300},
		{Opcode: 0x10, Count: 100}}}}
	m := p.Metrics()
	require.Len(t, m, 3)
	assert.Equal(t, Names(nil).Opcode(0x101), m[0].Name, "most first")
	assert.Equal(t, "600", m[0].Count)
	assert.Equal(t, 6000, m[0].Share)
	assert.Equal(t, "60.0 %", m[0].Percent)
	assert.Equal(t, Names(nil).Opcode(0x100), m[1].Name)
	assert.Contains(t, m[0].Title, "counted by the host")
	assert.Contains(t, m[0].Title, "(0x101)")
	share := 0
	for _, row := range m {
		share += row.Share
	}
	assert.Equal(t, 10000, share)

	p.Frame.OpcodeEnds = []decode.Metric{}
	assert.Nil(t, p.Metrics(), "none ended yet")
	p.Frame.OpcodeEnds = nil
	m = p.Metrics()
	require.Len(t, m, 2, "no host counts (a replay): OPCODE_METRICS")
	assert.Contains(t, m[0].Title, "OPCODE_METRICS")
	r.Control.Metrics = []decode.Metric{{Opcode: 3, Count: 0}}
	assert.Nil(t, p.Metrics(), "nothing executed")
}
