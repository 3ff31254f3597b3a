package ui

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/vugu/vugu"

	"github.com/ringscope/ringscope/decode/frame"
)

func TestTablesKeepBetweenRefreshesWhileRunning(t *testing.T) {
	d := &Dashboard{Running: true}
	show := func(seq uint64, at float64) { d.frame = &frame.Frame{Seq: seq, AtMillis: at} }

	show(1, 1000)
	assert.False(t, d.keep(tableLog), "a panel never built builds")
	show(2, 1000+TableRefreshMillis/2)
	assert.True(t, d.keep(tableLog), "built less than a refresh ago: kept")
	assert.False(t, d.keep(tableSketch), "each panel has its own clock")
	show(3, 1000+TableRefreshMillis)
	assert.False(t, d.keep(tableLog), "a refresh later it builds")
	show(4, 1000+TableRefreshMillis+1)
	assert.True(t, d.keep(tableLog))

	d.BuildAll = true
	assert.False(t, d.keep(tableLog), "a DOM event builds everything")
	d.BuildAll = false

	d.Running = false
	assert.False(t, d.keep(tableLog), "a paused page (a step) builds everything")
	d.Running = true

	show(1, 5) // a new ring: its frames start again
	assert.False(t, d.keep(tableLog))

	d.frame = nil
	assert.False(t, d.keep(tableLog), "no frame: nothing to keep")
}

func TestThrottledBuildsThePanelOrTheMarker(t *testing.T) {
	p := &LaunchPanel{}
	th := &Throttled{Panel: p}
	out := th.Build(nil)
	require.Len(t, out.Out, 1)
	assert.Same(t, p, out.Out[0].Component, "the panel in its place")
	assert.Equal(t, []vugu.Builder{p}, out.Components, "built as a child")

	th.Keep = true
	out = th.Build(nil)
	require.Len(t, out.Out, 1)
	assert.Empty(t, out.Components, "a kept panel is not built")
	n := out.Out[0]
	assert.Equal(t, []vugu.VGAttribute{{Key: KeepAttr}}, n.Attr)
	assert.Nil(t, n.FirstChild)

	allocs := testing.AllocsPerRun(100, func() { th.Keep = !th.Keep; th.Build(nil) })
	assert.Zero(t, allocs, "a throttled panel allocates nothing per build")
}
