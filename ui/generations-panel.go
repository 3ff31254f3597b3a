package ui

import (
	"github.com/ringscope/ringscope/internal/nocompare"
	"strconv"
	"strings"

	"github.com/ringscope/ringscope/decode"
	"github.com/ringscope/ringscope/decode/frame"
)

// GenerationsPanel shows a spawning kernel's generations (frame.Frame.Spawn,
// docs/OPCODES.md §7): per drain pass the frontier it drained, what it
// spawned and refused, the work the host published against what the GPU
// made, and the spawned items per opcode. It shows nothing for a ring that
// does not spawn.
type GenerationsPanel struct {
	Frame *frame.Frame
	Names Names
}

// GenerationRow is one generation's row; Bar draws its frontier against
// the widest shown.
type GenerationRow struct {
	_ nocompare.T

	Key, Pass, Claimed, Spawned, Refused, Bar, Class string
}

// generationRows is the most generations the panel lists.
const generationRows = 16

// barCells is the width of the widest frontier's bar, in characters (the
// page's CSP forbids style attributes, so bars are text).
const barCells = 24

func (c *GenerationsPanel) spawn() *decode.SpawnTelemetry {
	if c.Frame == nil {
		return nil
	}
	return c.Frame.Spawn
}

// On reports whether the frame's ring spawns.
func (c *GenerationsPanel) On() bool { return c.spawn() != nil }

// Sub is the panel's headline: generations, spawned against published,
// refusals.
func (c *GenerationsPanel) Sub() string {
	s := c.spawn()
	if s == nil {
		return ""
	}
	out := Thousands(uint64(s.Generations)) + " generations · " + Thousands(uint64(s.Spawned)) + " spawned"
	if c.Frame.Report != nil {
		out += " / " + Thousands(c.Frame.Report.PublishedItems) + " published"
	}
	if r := s.RefusedFull + s.RefusedBad; r > 0 {
		out += " · " + Thousands(uint64(r)) + " refused"
	}
	return out
}

// Rows are the newest generations, newest first.
func (c *GenerationsPanel) Rows() []GenerationRow {
	s := c.spawn()
	if s == nil {
		return nil
	}
	h := s.History[len(s.History)-min(len(s.History), generationRows):]
	widest := uint32(1)
	for _, g := range h {
		widest = max(widest, g.Claimed, g.Spawned)
	}
	rows := make([]GenerationRow, 0, len(h))
	for i := len(h) - 1; i >= 0; i-- {
		g := h[i]
		r := GenerationRow{Key: strconv.FormatUint(uint64(g.Pass), 10), Pass: Thousands(uint64(g.Pass)),
			Claimed: Thousands(uint64(g.Claimed)), Spawned: Thousands(uint64(g.Spawned)), Refused: Thousands(uint64(g.Refused)),
			Bar: strings.Repeat("█", int((uint64(g.Claimed)*barCells+uint64(widest)-1)/uint64(widest)))}
		if g.Refused > 0 {
			r.Class = "row-fault"
		}
		rows = append(rows, r)
	}
	return rows
}

// ByOpcode lists the opcodes that spawned items, by name.
func (c *GenerationsPanel) ByOpcode() string {
	s := c.spawn()
	if s == nil {
		return ""
	}
	var parts []string
	for op, n := range s.ByOpcode {
		if n > 0 {
			parts = append(parts, c.Names.Opcode(uint32(op))+" "+Thousands(uint64(n)))
		}
	}
	if len(parts) == 0 {
		return "nothing spawned yet"
	}
	return "spawned per opcode: " + strings.Join(parts, ", ")
}
