package settings

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestPresetsValid(t *testing.T) {
	require.Len(t, Presets(), 6)
	for _, p := range Presets() {
		assert.Empty(t, p.Settings.Validate(), p.Name)
		assert.Equal(t, p.Name, p.Settings.Preset)
		got, ok := PresetByName(p.Name)
		assert.True(t, ok)
		assert.Equal(t, p.Title, got.Title)
	}
	assert.Equal(t, "default-mix", PresetNames()[0])
	_, ok := PresetByName("nope")
	assert.False(t, ok)
}

func TestSettingsValidate(t *testing.T) {
	s := DefaultSettings()
	s.RingSlots, s.Tenants, s.Budget, s.WorkgroupSizeX = 2, 30, 0, 100
	s.WorkerCap, s.WindowOpcodes, s.SketchDepth, s.SketchWidth = -1, "0x100, zz", 0, 1<<20
	var fields []string
	for _, e := range s.Validate() {
		fields = append(fields, e.Field)
		assert.NotEmpty(t, e.Message)
	}
	assert.Equal(t, []string{"RingSlots", "Tenants", "Budget", "WorkgroupSizeX", "WorkerCap", "WindowOpcodes", "SketchDepth", "SketchWidth"}, fields)
}

func TestSettingsValidateABacklogPresetsRing(t *testing.T) {
	p, ok := PresetByName("skewed-tenants")
	require.True(t, ok)
	s := p.Settings
	assert.Empty(t, s.Validate())
	s.RingSlots = 2048
	assert.Empty(t, s.Validate(), "a budget that drains the backlog is the person's to set")
	s.FitBudget()
	assert.Equal(t, 2, s.Budget)

	s.RingSlots = 512
	errs := s.Validate()
	require.Len(t, errs, 1)
	assert.Equal(t, "RingSlots", errs[0].Field)
	assert.Contains(t, errs[0].Message, "skewed-tenants needs at least 520 slots at this width and worker cap")
}

func TestParseOpcodes(t *testing.T) {
	ops, err := ParseOpcodes(" 0x101, 7 256,7")
	require.NoError(t, err)
	assert.Equal(t, []uint32{7, 256, 257}, ops)
	ops, err = ParseOpcodes("")
	assert.NoError(t, err)
	assert.Nil(t, ops)
	_, err = ParseOpcodes("0x1_0000_0000")
	assert.Error(t, err)
	s := DefaultSettings()
	assert.Equal(t, []uint32{0x100}, s.WindowOpcodeList())
}

func TestAdapterSoftware(t *testing.T) {
	var a *AdapterInfo
	assert.False(t, a.Software())
	assert.True(t, (&AdapterInfo{IsCPU: true}).Software())
}

func TestLogCapacity(t *testing.T) {
	s := DefaultSettings()
	assert.Equal(t, DefaultLogCapacity, s.LogCapacity, "the presets keep the page's log")
	for _, n := range []int{0, 1, MaxLogCapacity} {
		s.LogCapacity = n
		assert.Empty(t, s.Validate(), "%d records", n)
	}
	for _, n := range []int{-1, MaxLogCapacity + 1} {
		s.LogCapacity = n
		errs := s.Validate()
		require.Len(t, errs, 1, "%d records", n)
		assert.Equal(t, "LogCapacity", errs[0].Field)
		assert.Equal(t, "log capacity must be 0…1,048,576 records", errs[0].Message)
	}
}
