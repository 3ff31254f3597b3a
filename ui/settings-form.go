package ui

import (
	"github.com/ringscope/ringscope/internal/nocompare"
	"math"
	"strconv"
	"strings"

	"github.com/vugu/vugu"
	js "github.com/vugu/vugu/js"

	"github.com/ringscope/ringscope/decode"
	"github.com/ringscope/ringscope/settings"
)

// SettingsForm edits a draft of the run settings; Apply hands a valid draft
// to OnApply (intent flows up). A new Applied value from the parent resets
// the draft.
type SettingsForm struct {
	Applied settings.Settings
	OnApply func(settings.Settings)
	// Error is why the last Apply was refused after the form's own checks
	// (the runner's limits: device memory, window opcodes); "" for none.
	Error string

	draft   settings.Settings
	applied settings.Settings
	seeded  bool
	// resets counts the draft's resets (a Revert, a preset, new applied
	// settings), synced those the inputs show (sync).
	resets, synced int
}

// Compute keeps the draft in step with the applied settings.
func (c *SettingsForm) Compute() {
	if !c.seeded || c.Applied != c.applied {
		c.applied, c.draft, c.seeded = c.Applied, c.Applied, true
		c.resets++
	}
}

// sync (the form's vg-js-populate, after the render set its inputs'
// attributes) makes the inputs show the draft after a reset of it: an
// input a person typed in shows its own text, whatever its value
// attribute says since, and a menu its own choice. Edits in progress are
// left alone: only a reset writes.
func (c *SettingsForm) sync(form js.Value) {
	if c.synced == c.resets {
		return
	}
	c.synced = c.resets
	els := form.Call("querySelectorAll", "input, option[selected]")
	for i := range els.Length() {
		el := els.Index(i)
		if el.Get("tagName").String() == "OPTION" {
			el.Get("parentElement").Set("value", el.Get("value").String())
		} else {
			el.Set("value", el.Call("getAttribute", "value").String()) // every input has one
		}
	}
}

// Draft returns the settings being edited.
func (c *SettingsForm) Draft() settings.Settings { return c.draft }

// Sub says whether there are unapplied edits.
func (c *SettingsForm) Sub() string {
	if c.draft != c.applied {
		return "edited, not applied"
	}
	return "applied"
}

// PresetOption is one entry of the preset menu.
type PresetOption struct {
	_ nocompare.T

	Name, Title, Description string
	Selected                 bool
}

// Options lists the presets, plus "custom" once edited.
func (c *SettingsForm) Options() []PresetOption {
	opts := make([]PresetOption, 0, len(settings.Presets())+1)
	for _, p := range settings.Presets() {
		opts = append(opts, PresetOption{Name: p.Name, Title: p.Title, Description: p.Description, Selected: p.Name == c.draft.Preset})
	}
	if _, ok := settings.PresetByName(c.draft.Preset); !ok {
		opts = append(opts, PresetOption{Name: c.draft.Preset, Title: "Custom (" + c.draft.Preset + ")", Description: "edited parameters", Selected: true})
	}
	return opts
}

// PresetDescription explains the selected preset.
func (c *SettingsForm) PresetDescription() string {
	if p, ok := settings.PresetByName(c.draft.Preset); ok {
		return p.Description
	}
	return "custom parameters"
}

// SelectPreset loads a preset into the draft.
func (c *SettingsForm) SelectPreset(ev vugu.DOMEvent) { c.LoadPreset(ev.PropString("target", "value")) }

// LoadPreset loads the named preset into the draft (unknown names are ignored).
func (c *SettingsForm) LoadPreset(name string) {
	if p, ok := settings.PresetByName(name); ok {
		c.draft = p.Settings
		c.resets++
	}
}

// ReadbackOption is one entry of the readback menu.
type ReadbackOption struct {
	_ nocompare.T

	Name, Title string
	Selected    bool
}

// ReadbackOptions lists the readback modes, the draft's selected ("" is
// auto).
func (c *SettingsForm) ReadbackOptions() []ReadbackOption {
	cur := c.draft.Readback
	titles := map[decode.Readback]string{
		decode.ReadbackAuto:    "full on a CPU/fallback adapter (faster there: bench/results.md, row 2), summary on a GPU",
		decode.ReadbackSummary: "control + log + GPU summary + 4-bit status map each frame; the ring on demand",
		decode.ReadbackFull:    "the whole ring, 64 bytes per slot, each frame",
	}
	modes := decode.PageReadbacks()
	opts := make([]ReadbackOption, len(modes))
	for i, m := range modes {
		opts[i] = ReadbackOption{Name: m.String(), Title: titles[m], Selected: m == cur}
	}
	return opts
}

// ReadbackTitle is the readback menu's tooltip.
func (c *SettingsForm) ReadbackTitle() string { return ReadbackTitle }

// SelectReadback stores the readback menu's choice.
func (c *SettingsForm) SelectReadback(ev vugu.DOMEvent) {
	c.SetValue("Readback", ev.PropString("target", "value"))
}

// FormField is one input of the form.
type FormField struct {
	_ nocompare.T

	Name, Label, Title, Type, Value, Min, Max, TestID, Class string
}

// Fields lists the inputs with their current draft values.
func (c *SettingsForm) Fields() []FormField {
	d := c.draft
	bad := map[string]bool{}
	for _, e := range d.Validate() {
		bad[e.Field] = true
	}
	num := func(name, label, title string, v, lo, hi int) FormField {
		f := FormField{Name: name, Label: label, Title: title, Type: "number", Value: strconv.Itoa(v),
			Min: strconv.Itoa(lo), Max: strconv.Itoa(hi), TestID: "setting-" + strings.ToLower(name), Class: "field"}
		if bad[name] {
			f.Class = "field invalid"
		}
		return f
	}
	win := FormField{Name: "WindowOpcodes", Label: "window opcodes", Type: "text", Value: d.WindowOpcodes, TestID: "setting-windowopcodes", Class: "field",
		Title: "opcodes whose slots form ticketed windows (ARG0 = ticket), comma separated, decimal or 0x-hex; empty = none"}
	if bad["WindowOpcodes"] {
		win.Class = "field invalid"
	}
	return []FormField{
		num("RingSlots", "ring slots", "ring size in 64-byte slots (partitioned over 5 priorities)", d.RingSlots, 5, settings.MaxRingSlots),
		num("Tenants", "tenants", "tenant ids 0…n−1 the workload publishes for (at most 29)", d.Tenants, 1, 29),
		num("Budget", "lane budget", "params.budget: claim iterations per lane per dispatch", d.Budget, 1, settings.MaxBudget),
		num("WorkgroupSizeX", "workgroup width", "preferred workgroup size x: 64, 128 or 256 lanes", d.WorkgroupSizeX, 64, 256),
		num("WorkerCap", "worker cap", "RequestedWorkerGroups: ceiling on workgroups; 0 derives it from the adapter's limits", d.WorkerCap, 0, settings.MaxWorkerCap),
		win,
		num("SketchDepth", "sketch depth", "Count-Min rows: δ = e^−depth", d.SketchDepth, 1, settings.MaxSketchDepth),
		num("SketchWidth", "sketch width", "Count-Min counters per row: ε = e / width", d.SketchWidth, 1, settings.MaxSketchWidth),
		num("LogCapacity", "log capacity", "log records a ring keeps: its generation's first (Apply starts the log over); raise it when the log panel says DROPPED", d.LogCapacity, 0, settings.MaxLogCapacity),
	}
}

// Set stores one input's value from a change event.
func (c *SettingsForm) Set(name string, ev vugu.DOMEvent) {
	c.SetValue(name, ev.PropString("target", "value"))
}

// SetValue stores one field from its text; numbers that do not parse are
// stored as -1 so that validation names the field. The preset (the
// workload's kind) stays: parameters tune it.
func (c *SettingsForm) SetValue(name, text string) {
	n := formInt(text)
	d := &c.draft
	follows := budgetFollows(*d)
	switch name {
	case "RingSlots":
		d.RingSlots = n
	case "Tenants":
		d.Tenants = n
	case "Budget":
		d.Budget = n
		follows = false
	case "WorkgroupSizeX":
		d.WorkgroupSizeX = n
	case "WorkerCap":
		d.WorkerCap = n
	case "WindowOpcodes":
		d.WindowOpcodes = strings.TrimSpace(text)
	case "SketchDepth":
		d.SketchDepth = n
	case "SketchWidth":
		d.SketchWidth = n
	case "LogCapacity":
		d.LogCapacity = n
	case "Readback":
		r, ok := decode.ParseReadback(strings.TrimSpace(text))
		if !ok {
			r = badReadback // Validate names the field
		}
		d.Readback = r
	}
	if follows {
		d.FitBudget()
	}
}

// budgetFollows says whether d's budget is still its preset's on its
// ring, which then follows edits of the ring, width and worker cap, as a
// link with no budget does (settings.FitBudget).
func budgetFollows(d settings.Settings) bool {
	fitted := d
	fitted.FitBudget()
	return fitted.Budget == d.Budget
}

// formInt reads a number input's text: an integer, also written as a
// number input takes one ("4e3"); -1 for anything else.
func formInt(text string) int {
	text = strings.TrimSpace(text)
	if n, err := strconv.Atoi(text); err == nil {
		return n
	}
	if f, err := strconv.ParseFloat(text, 64); err == nil && f == math.Trunc(f) && math.Abs(f) <= math.MaxInt32 {
		return int(f)
	}
	return -1
}

// Errors validates the draft.
func (c *SettingsForm) Errors() []settings.FieldError { return c.draft.Validate() }

// Valid reports a valid draft.
func (c *SettingsForm) Valid() bool { return len(c.Errors()) == 0 }

// Apply hands a valid draft up.
func (c *SettingsForm) Apply() {
	if !c.Valid() || c.OnApply == nil {
		return
	}
	c.OnApply(c.draft)
}

// Revert discards the edits.
func (c *SettingsForm) Revert() { c.draft, c.resets = c.applied, c.resets+1 }

// badReadback is a readback the form could not parse: no mode, so the
// settings' validation refuses it.
const badReadback = decode.Readback(0xFF)
