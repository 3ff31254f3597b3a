package ui

import (
	"strconv"
	"strings"

	"github.com/vugu/vugu"
	js "github.com/vugu/vugu/js"

	"github.com/ringscope/ringscope/decode"
	"github.com/ringscope/ringscope/decode/frame"
	"github.com/ringscope/ringscope/wgsl/abi"
)

// SlotMap draws every slot of the ring on a canvas, one cell per slot in
// its status colour (up to millions of slots: cells shrink to one pixel and
// the canvas scales). Hovering shows the slot in a tooltip without a
// re-render (a native listener updates a tooltip element); clicking opens
// the slot inspector (data-testid slot-inspector), which follows the slot
// live.
//
// A frame read back as a GPU summary has no slot snapshots, only the 4-bit
// status map: the map is drawn from it and the tooltip says what it knows
// (index, status, partition). A click names the slot to the page
// (OnInspectSlot), which puts it, from its copy of the ring, in the frames
// that follow (Frame.HostSlot): the inspector follows it live with no ring
// read. A page without OnInspectSlot is asked for the full ring instead
// (OnRequestRing); the inspector then says "loading slot…" until a frame
// with slots arrives, and keeps that snapshot of the slot (with its live
// status from the map) until the person refreshes it.
type SlotMap struct {
	// Names name the kernel's user opcodes.
	Names Names
	Frame *frame.Frame
	// OnRequestRing asks the page to read the full ring back with the next
	// frame (summary readback); nil when the page cannot.
	OnRequestRing func()
	// OnInspectSlot names the inspected slot to the page (-1: none); nil
	// when the page cannot supply Frame.HostSlot.
	OnInspectSlot func(i int)
	// Inspect, when its Seq changes, opens the inspector on its Slot (a
	// task clicked in the timeline panel).
	Inspect SlotRequest

	inspected uint64 // the Inspect.Seq acted on
	canvas    Canvas
	// hostSize is the host's width, which the canvas is scaled to.
	hostSize SizeWatch
	raster   Raster
	painter  SlotPainter
	layout   SlotLayout
	painted  uint64
	tip      js.Value
	hover    js.Func
	leave    js.Func
	hooked   bool
	cssW     float64
	sized    SlotLayout // the layout the CSS size was computed for

	selected int
	hasSel   bool
	// snap is the selected slot as the last frame with slots, or with it
	// as its HostSlot (snapHost), showed it (snapSeq), kept for the summary
	// frames that follow.
	snap     decode.RingSlotSnapshot
	snapSeq  uint64
	snapOK   bool
	snapHost bool
}

// MaxSlotMapHeight is the tallest the slot map is shown, in CSS pixels.
const MaxSlotMapHeight = 440

func (c *SlotMap) slots() []decode.RingSlotSnapshot {
	if c.Frame == nil || c.Frame.Ring == nil {
		return nil
	}
	return c.Frame.Ring.Slots
}

// Compute keeps the inspector's snapshot of the selected slot from the
// last frame that carried slots or the slot as its HostSlot.
func (c *SlotMap) Compute() {
	if c.Inspect.Seq != c.inspected {
		c.inspected = c.Inspect.Seq
		c.Select(c.Inspect.Slot)
	}
	if !c.hasSel || c.Frame == nil {
		return
	}
	if slots := c.slots(); c.selected < len(slots) {
		c.snap, c.snapSeq, c.snapOK, c.snapHost = slots[c.selected], c.Frame.Seq, true, false
	} else if f := c.Frame; f.HostSlotOK && int(f.HostSlot.Index) == c.selected {
		c.snap, c.snapSeq, c.snapOK, c.snapHost = f.HostSlot, f.Seq, true, true
	}
}

// mount is the host's vg-js-create: it ensures the canvas and the tooltip
// element live in the host and hooks the hover listeners once.
func (c *SlotMap) mount(host js.Value) {
	el := c.canvas.Mount(host)
	children := host.Get("children")
	if children.Length() < 2 {
		c.tip = js.Global().Get("document").Call("createElement", "div")
		c.tip.Set("className", "slot-tip")
		host.Call("appendChild", c.tip)
	} else if !c.tip.Truthy() {
		c.tip = children.Index(1)
	}
	if el.Get("rsHooked").Truthy() && c.hooked {
		return
	}
	if !c.hooked {
		c.hover = js.FuncOf(func(this js.Value, args []js.Value) interface{} {
			c.onHover(args[0])
			return nil
		})
		c.leave = js.FuncOf(func(this js.Value, args []js.Value) interface{} {
			c.tip.Get("style").Set("display", "none")
			return nil
		})
		c.hooked = true
	}
	el.Call("addEventListener", "mousemove", c.hover.Value)
	el.Call("addEventListener", "mouseleave", c.leave.Value)
	el.Set("rsHooked", true)
}

// onHover runs in a JS event (between Go turns, never during Apply): it
// only reads the last applied frame and writes the tooltip element.
func (c *SlotMap) onHover(ev js.Value) {
	x, y := ev.Get("offsetX").Float(), ev.Get("offsetY").Float()
	el := c.canvas.Element()
	w, h := el.Get("clientWidth").Float(), el.Get("clientHeight").Float()
	slot, ok := c.layout.SlotAt(x, y, w, h)
	st := c.tip.Get("style")
	text, ok := c.tooltip(slot, ok)
	if !ok {
		st.Set("display", "none")
		return
	}
	c.tip.Set("textContent", text)
	left, top := TooltipPos(x, y, w, h)
	st.Set("left", strconv.Itoa(int(left))+"px")
	st.Set("top", strconv.Itoa(int(top))+"px")
	st.Set("display", "block")
}

// tooltip is the hover text of slot i: every field from a slot snapshot,
// or what the status map knows.
func (c *SlotMap) tooltip(i int, inside bool) (string, bool) {
	if !inside {
		return "", false
	}
	if slots := c.slots(); i < len(slots) {
		return SlotTooltip(&slots[i], c.Names), true
	}
	st, ok := c.Frame.SlotStatus(i)
	if !ok {
		return "", false
	}
	return StatusTooltip(i, st, &c.Frame.Ring.Control), true
}

// StatusTooltip is the hover text of a slot known only from the status map
// (a summary frame): index, status and priority partition, and how to see
// the rest.
func StatusTooltip(i int, st decode.Status, ctl *decode.ControlSnapshot) string {
	var b strings.Builder
	b.WriteString("slot ")
	b.WriteString(Thousands(uint64(i)))
	b.WriteString(" · ")
	b.WriteString(st.String())
	b.WriteString("\npartition ")
	if p, ok := PartitionOf(ctl, uint32(i)); ok {
		b.WriteString(strconv.Itoa(p))
		b.WriteString(" ")
		b.WriteString(PriorityName(uint32(p)))
	} else {
		b.WriteString("outside the partitions")
	}
	b.WriteString("\nstatus map only (summary readback): click to load the slot")
	return b.String()
}

// TooltipPos places the tooltip beside the pointer, flipped to the other
// side near the canvas's right or bottom edge.
func TooltipPos(x, y, w, h float64) (left, top float64) {
	left, top = x+14, y+14
	if x > w-240 {
		left = x - 240
	}
	if y > h-90 {
		top = y - 90
	}
	return max(left, 0), max(top, 0)
}

// Destroy releases the listeners.
func (c *SlotMap) Destroy() {
	if c.hooked {
		if c.canvas.Attached() {
			c.canvas.Element().Call("removeEventListener", "mousemove", c.hover.Value)
			c.canvas.Element().Call("removeEventListener", "mouseleave", c.leave.Value)
		}
		c.hover.Release()
		c.leave.Release()
		c.hooked = false
	}
}

// Rendered repaints the map when a new frame arrived and keeps the canvas
// scaled to the panel.
func (c *SlotMap) Rendered(ctx vugu.RenderedCtx) {
	if !c.canvas.Attached() {
		return
	}
	if n := c.Frame.SlotCount(); n > 0 && c.Frame.Seq != c.painted {
		c.layout = LayoutSlots(n)
		if slots := c.slots(); len(slots) > 0 {
			c.painter.PaintSlots(&c.raster, c.layout, slots)
		} else {
			c.painter.PaintStatusMap(&c.raster, c.layout, c.Frame.StatusWords())
		}
		c.canvas.DrawRows(&c.raster, c.painter.Dirty())
		c.painted = c.Frame.Seq
	}
	if c.layout.Slots == 0 {
		return
	}
	c.hostSize.Watch(c.canvas.Element().Get("parentElement"))
	availW, _ := c.hostSize.Size()
	avail := float64(availW)
	if (avail != c.cssW || c.layout != c.sized) && avail > 0 {
		w, h := c.layout.DisplaySize(avail, MaxSlotMapHeight)
		st := c.canvas.Element().Get("style")
		st.Set("width", strconv.Itoa(int(w))+"px")
		st.Set("height", strconv.Itoa(int(h))+"px")
		c.cssW, c.sized = avail, c.layout
	}
}

// Click selects the slot under the pointer.
func (c *SlotMap) Click(ev vugu.DOMEvent) {
	x, y := ev.PropFloat64("offsetX"), ev.PropFloat64("offsetY")
	w, h := ev.PropFloat64("target", "clientWidth"), ev.PropFloat64("target", "clientHeight")
	if slot, ok := c.layout.SlotAt(x, y, w, h); ok {
		c.Select(slot)
	}
}

// Select opens the inspector on slot i and names it to the page. On a
// frame without slot snapshots (summary readback) the inspector shows
// "loading slot…" until a frame brings the slot: as its HostSlot or, for a
// page without OnInspectSlot, with the ring, which it asks for.
func (c *SlotMap) Select(i int) {
	c.selected, c.hasSel = i, true
	if c.snapOK && int(c.snap.Index) != i {
		c.snapOK = false
	}
	if c.OnInspectSlot != nil {
		c.OnInspectSlot(i)
	} else if !c.Frame.HasSlots() {
		c.RefreshSlot()
	}
}

// RefreshSlot asks the page for a fresh ring read for the inspector.
func (c *SlotMap) RefreshSlot() { call(c.OnRequestRing) }

// CloseInspector closes the inspector.
func (c *SlotMap) CloseInspector() {
	c.hasSel = false
	if c.OnInspectSlot != nil {
		c.OnInspectSlot(-1)
	}
}

// HasSelection reports whether the inspector is open on a slot of the ring.
func (c *SlotMap) HasSelection() bool { return c.hasSel && c.selected < c.Frame.SlotCount() }

// Loading reports whether the inspector waits for a ring read: the frame
// has only the status map and no earlier frame showed the selected slot.
func (c *SlotMap) Loading() bool {
	return c.HasSelection() && !c.Frame.HasSlots() && !c.snapOK
}

// Summarised reports whether the inspector shows a kept snapshot: the
// frame has only the status map (the person may refresh it).
func (c *SlotMap) Summarised() bool { return c.HasSelection() && !c.Frame.HasSlots() && c.snapOK }

// Live reports whether a summary frame's inspector shows the slot of this
// very frame, from the page's copy of the ring (Frame.HostSlot).
func (c *SlotMap) Live() bool { return c.Summarised() && c.snapHost && c.snapSeq == c.Frame.Seq }

// InspectorNote says where the inspector's data comes from on a summary
// frame: still loading, this frame's host copy, or the frame of the ring
// read it shows.
func (c *SlotMap) InspectorNote() string {
	switch {
	case c.Loading() && c.OnInspectSlot != nil:
		return "loading slot… (with the next frame)"
	case c.Loading():
		return "loading slot… (the full ring is read back with the next frame)"
	case c.Live():
		return "slot from the page's copy of the ring, which follows the GPU's status map (no ring read)"
	case c.Summarised() && c.snapHost:
		return "slot as of frame " + Thousands(c.snapSeq) + " (the page's copy of the ring); status from the live status map"
	case c.Summarised():
		return "slot as of frame " + Thousands(c.snapSeq) + " (the last ring read); status from the live status map"
	}
	return ""
}

// Sub describes the geometry.
func (c *SlotMap) Sub() string {
	n := c.Frame.SlotCount()
	if n == 0 {
		return "no frame yet"
	}
	l := LayoutSlots(n)
	sub := Thousands(uint64(n)) + " slots · " + strconv.Itoa(l.Cols) + " per row · " + strconv.Itoa(l.Cell) + " px cells"
	if !c.Frame.HasSlots() {
		sub += " · from the status map"
	}
	return sub
}

// LegendItem is one status of the slot-map legend.
type LegendItem struct{ Key, Name, Title, Swatch string }

// Legend lists the status colours.
func (c *SlotMap) Legend() []LegendItem {
	items := make([]LegendItem, len(StatusOrder))
	for i, s := range StatusOrder {
		k := StatusKey(s)
		items[i] = LegendItem{Key: k, Name: k, Title: StatusMeaning(s), Swatch: "swatch st-" + k}
	}
	return items
}

// InspectorTitle names the selected slot.
func (c *SlotMap) InspectorTitle() string {
	return "slot " + Thousands(uint64(c.selected))
}

// InspectorItems describes the selected slot: live from a frame with
// slots, else the kept snapshot with the status map's live status first
// (nil while loading).
func (c *SlotMap) InspectorItems() []KV {
	if !c.HasSelection() {
		return nil
	}
	if slots := c.slots(); len(slots) > 0 {
		return SlotDetails(&slots[c.selected], &c.Frame.Ring.Control, c.Names)
	}
	if !c.snapOK {
		return nil
	}
	items := SlotDetails(&c.snap, &c.Frame.Ring.Control, c.Names)
	if c.Live() {
		return items // this frame's slot: its status is the map's
	}
	if st, ok := c.Frame.SlotStatus(c.selected); ok {
		now := KV{Label: "status now", Value: st.String(), Title: "the slot's status in this frame's status map (the other fields are from frame " + Thousands(c.snapSeq) + ")"}
		items = append([]KV{now}, items...)
	}
	return items
}

// SlotDetails lists every field of a slot; ctl (may be nil) adds the slot's
// priority partition and whether its PRIORITY word matches it (ABI v1
// requires it).
func SlotDetails(s *decode.RingSlotSnapshot, ctl *decode.ControlSnapshot, names Names) []KV {
	statusClass := ""
	switch s.Status {
	case decode.StatusFault:
		statusClass = "num-bad"
	case decode.StatusWaitIO, decode.StatusYield, decode.StatusRequeue:
		statusClass = "num-warn"
	}
	items := []KV{
		{Label: "index", Value: Thousands(uint64(s.Index)), Title: "slot index in the ring (byte offset = 64 × index)"},
		{Label: "byte offset", Value: Hex32(s.Index * abi.SlotBytes), Title: "offset of the slot in the ring buffer, bytes"},
		{Label: "status", Value: s.Status.String(), Class: statusClass, Title: StatusMeaning(s.Status)},
		{Label: "opcode", Value: names.Opcode(s.Opcode) + " (" + Hex32(s.Opcode) + ")", Title: "OPCODE word 1 (PROTOCOL §4)"},
		{Label: "tenant", Value: strconv.FormatUint(uint64(s.Tenant), 10), Title: "TENANT word 2; ids ≥ 29 fault BAD_TENANT"},
		{Label: "priority", Value: strconv.FormatUint(uint64(s.Priority), 10) + " " + PriorityName(s.Priority), Title: "PRIORITY word 3, 0 CRITICAL … 4 IDLE"},
		{Label: "args", Value: Hex32(s.Args[0]) + " " + Hex32(s.Args[1]) + " " + Hex32(s.Args[2]), Title: "ARG0, ARG1, ARG2 (words 4–6)"},
	}
	if ctl != nil {
		p, ok := PartitionOf(ctl, s.Index)
		kv := KV{Label: "partition", Value: "outside the partitions", Class: "num-warn", Title: "the priority partition (PRIORITY_OFFSETS) the slot's index falls in; ABI v1 requires PRIORITY to equal it"}
		if ok {
			kv.Value, kv.Class = strconv.Itoa(p)+" "+PriorityName(uint32(p)), ""
			if uint32(p) != s.Priority && s.Status != decode.StatusEmpty {
				kv.Value += " ≠ PRIORITY"
				kv.Class = "num-bad"
			}
		}
		items = append(items, kv)
	}
	return items
}

// PartitionOf returns the priority partition whose PRIORITY_OFFSETS range
// holds slot i.
func PartitionOf(ctl *decode.ControlSnapshot, i uint32) (int, bool) {
	for p := 0; p < abi.PriorityLevels; p++ {
		if i >= ctl.PriorityOffsets[p] && i < ctl.PriorityOffsets[p+1] {
			return p, true
		}
	}
	return 0, false
}

// SlotTooltip is the hover text of a slot: index, status, opcode, tenant,
// priority and the first three args, one fact per line.
func SlotTooltip(s *decode.RingSlotSnapshot, names Names) string {
	var b strings.Builder
	b.WriteString("slot ")
	b.WriteString(Thousands(uint64(s.Index)))
	b.WriteString(" · ")
	b.WriteString(s.Status.String())
	b.WriteString("\nopcode ")
	b.WriteString(names.Opcode(s.Opcode))
	b.WriteString(" (")
	b.WriteString(Hex32(s.Opcode))
	b.WriteString(")\ntenant ")
	b.WriteString(strconv.FormatUint(uint64(s.Tenant), 10))
	b.WriteString(" · priority ")
	b.WriteString(strconv.FormatUint(uint64(s.Priority), 10))
	b.WriteString(" ")
	b.WriteString(PriorityName(s.Priority))
	b.WriteString("\nargs ")
	for i, a := range s.Args {
		if i > 0 {
			b.WriteString(" ")
		}
		b.WriteString(Hex32(a))
	}
	return b.String()
}
