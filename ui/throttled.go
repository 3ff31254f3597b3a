package ui

import "github.com/vugu/vugu"

// TableRefreshMillis is how often, in page time, the dashboard's tables of
// numbers are built again while the live loop runs: ten times a second,
// about as fast as a person reads a changing number. The live loop runs
// faster than that, and it shares the main thread with the renders: the
// tables' builds and DOM writes, when every render made them, were a
// sizeable share of a frame's cost (bench/results-render.md, "tables at
// 10 Hz"). The header, the occupancy, the watchdog, the slot map and the
// timeline show every frame; a paused page, a step and any DOM event
// build everything.
const TableRefreshMillis = 100

// KeepAttr is wasm/render.KeepAttr, which this package cannot import (a
// test in package main checks that the two agree).
const KeepAttr = "data-rs-keep"

// Throttled builds Panel, or, while Keep, only a marker (KeepAttr) in its
// place, which tells the renderer to leave the panel's DOM as the last
// build left it: the panel's Build is not called at all.
type Throttled struct {
	Panel vugu.Builder
	Keep  bool

	out   vugu.BuildOut
	node  vugu.VGNode
	attrs [1]vugu.VGAttribute
}

// Build reuses one BuildOut and node: a throttled panel allocates nothing.
func (t *Throttled) Build(*vugu.BuildIn) *vugu.BuildOut {
	t.out.Components = t.out.Components[:0]
	if t.Keep {
		t.attrs[0] = vugu.VGAttribute{Key: KeepAttr}
		t.node = vugu.VGNode{Type: vugu.ElementNode, Data: "section", Attr: t.attrs[:]}
	} else {
		t.node = vugu.VGNode{Component: t.Panel}
		t.out.Components = append(t.out.Components, t.Panel)
	}
	t.out.Out = append(t.out.Out[:0], &t.node)
	return &t.out
}

// tablePanel names a throttled panel.
type tablePanel int

const (
	tableCounters tablePanel = iota
	tableWaits
	tableDispatch
	tableControl
	tableLaunch
	tableWindows
	tableLog
	tableSketch
	tablePanelCount
)

// tables are the dashboard's throttled panels (kept here, not in Vugu's
// component cache, since a kept panel is not built) and when each was
// last built.
type tables struct {
	counters CountersPanel
	waits    WaitsPanel
	dispatch DispatchPanel
	control  ControlPanel
	launch   LaunchPanel
	windows  WindowsPanel
	log      LogPanel
	sketch   SketchPanel
	built    [tablePanelCount]builtAt
}

// builtAt is the frame a panel last showed: its sequence number (0:
// never) and page time.
type builtAt struct {
	seq uint64
	at  float64
}

// keep reports whether table p keeps what it shows in this build: the
// live loop runs, no DOM event came since the last render (BuildAll), and
// the panel showed a frame of this run less than TableRefreshMillis ago.
// Otherwise it records this build as p's.
func (c *Dashboard) keep(p tablePanel) bool {
	f, last := c.frame, &c.tables.built[p]
	if c.Running && !c.BuildAll && !c.Stale && f != nil && last.seq != 0 &&
		f.Seq >= last.seq && f.AtMillis >= last.at && f.AtMillis-last.at < TableRefreshMillis {
		return true
	}
	*last = builtAt{}
	if f != nil {
		*last = builtAt{seq: f.Seq, at: f.AtMillis}
	}
	return false
}

// show gives every throttled panel this build's inputs (Dashboard.Compute):
// a kept panel's are set too, and unused until it builds.
func (t *tables) show(c *Dashboard) {
	f, names := c.frame, c.OpcodeNames
	t.counters.Frame, t.waits.Frame, t.launch.Frame = f, f, f
	t.dispatch.Frame, t.dispatch.History = f, c.History()
	t.control.Frame, t.control.Names, t.control.Tenants = f, names, c.Settings.Tenants
	t.windows.Frame, t.windows.Names = f, names
	t.log.Frame, t.log.Names, t.log.Formats = f, names, c.Formats
	t.sketch.Frame, t.sketch.Names = f, names
}
