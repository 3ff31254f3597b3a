package ui

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ringscope/ringscope/decode"
)

func TestLayoutSlots(t *testing.T) {
	for _, c := range []struct {
		n, cols, rows, cell int
	}{
		{1, 2, 1, 512}, {256, 32, 8, 32}, {1000, 64, 16, 16},
		{65536, 512, 128, 2}, {262144, 1024, 256, 1}, {1 << 20, 2048, 512, 1},
		{1<<22 + 5, 2048, 2049, 1},
	} {
		l := LayoutSlots(c.n)
		assert.Equal(t, c.cols, l.Cols, "n=%d", c.n)
		assert.Equal(t, c.rows, l.Rows, "n=%d", c.n)
		assert.Equal(t, c.cell, l.Cell, "n=%d", c.n)
		assert.GreaterOrEqual(t, l.Cols*l.Rows, c.n)
	}
	assert.Equal(t, SlotLayout{}, LayoutSlots(0))
	assert.Equal(t, 1, LayoutSlots(256).Gap)
	assert.Equal(t, 0, LayoutSlots(65536).Gap)
}

func TestSlotAt(t *testing.T) {
	l := LayoutSlots(65536) // 512 × 128
	// displayed at 1024 × 256 CSS pixels: 2 CSS px per slot
	s, ok := l.SlotAt(0, 0, 1024, 256)
	assert.True(t, ok)
	assert.Equal(t, 0, s)
	s, ok = l.SlotAt(3.9, 2.1, 1024, 256) // col 1, row 1
	assert.True(t, ok)
	assert.Equal(t, 513, s)
	s, ok = l.SlotAt(1023.9, 255.9, 1024, 256)
	assert.True(t, ok)
	assert.Equal(t, 65535, s)
	_, ok = l.SlotAt(1024, 0, 1024, 256)
	assert.False(t, ok, "right edge is outside")
	_, ok = l.SlotAt(-1, 0, 1024, 256)
	assert.False(t, ok)

	l = LayoutSlots(1000) // 64 × 16, last row has 40 slots
	s, ok = l.SlotAt(39.5/64*640, 15.5/16*160, 640, 160)
	assert.True(t, ok)
	assert.Equal(t, 999, s)
	_, ok = l.SlotAt(40.5/64*640, 15.5/16*160, 640, 160)
	assert.False(t, ok, "past the last slot")

	l = LayoutSlots(1 << 20) // 2048 × 512, shown shrunk
	s, ok = l.SlotAt(1000, 200, 1024, 256)
	assert.True(t, ok)
	assert.Equal(t, 400*2048+2000, s)
}

func TestDisplaySize(t *testing.T) {
	l := LayoutSlots(65536) // 512 × 256 backing (cell 2): 1024 × 256
	w, h := l.DisplaySize(1300, 600)
	assert.Equal(t, 1024.0, w, "whole scale factor when enlarging")
	assert.Equal(t, 256.0, h)
	w, h = LayoutSlots(1<<20).DisplaySize(1024, 600) // 2048 × 512 shrinks to fit
	assert.Equal(t, 1024.0, w)
	assert.Equal(t, 256.0, h)
	w, h = l.DisplaySize(0, 10)
	assert.Zero(t, w+h)
}

func TestPaint(t *testing.T) {
	slots := make([]decode.RingSlotSnapshot, 5)
	slots[1].Status = decode.StatusDone
	slots[4].Status = 99 // unknown
	var r Raster
	l := LayoutSlots(5) // 8 cols × 1 row, 128 px cells
	l.Paint(&r, slots)
	require.Equal(t, l.Width(), r.W)
	assert.Equal(t, RGBA(StatusColor(decode.StatusDone)), r.At(l.Cell+1, 1))
	assert.Equal(t, RGBA(StatusColor(99)), r.At(4*l.Cell, 0))
	assert.Equal(t, ColBackground, r.At(l.Cell-1, 0), "gap")
	assert.Equal(t, ColBackground, r.At(5*l.Cell+2, 2), "past the last slot")

	big := make([]decode.RingSlotSnapshot, 1<<20)
	big[2049].Status = decode.StatusFault
	l = LayoutSlots(len(big))
	l.Paint(&r, big)
	assert.Equal(t, RGBA(StatusColor(decode.StatusFault)), r.At(1, 1))
}

// TestSlotPainter checks the incremental painter against a full Paint,
// frame after frame: random status changes, a shrinking ring, a new
// layout, and the status-map path.
func TestSlotPainter(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var p SlotPainter
	var inc, full Raster
	for _, n := range []int{5, 5, 3, 4096, 65536, 65536, 700} {
		l := LayoutSlots(n)
		slots := make([]decode.RingSlotSnapshot, n)
		for frame := 0; frame < 3; frame++ {
			for k := 0; k < n/4+1; k++ {
				slots[rng.IntN(n)].Status = decode.Status(rng.IntN(10)) // 8, 9: unknown
			}
			p.PaintSlots(&inc, l, slots)
			l.Paint(&full, slots)
			require.Equal(t, full.W, inc.W)
			require.Equal(t, full.H, inc.H)
			require.True(t, bytes.Equal(full.Pix, inc.Pix), "slots %d frame %d", n, frame)
		}
		// The same layout with fewer slots than it holds (the frame's
		// slots end early): the rest goes back to the background.
		p.PaintSlots(&inc, l, slots[:n/2])
		l.Paint(&full, slots[:n/2])
		require.True(t, bytes.Equal(full.Pix, inc.Pix), "slots %d, half", n)

		words := make([]uint32, (n+7)/8)
		for i := range words {
			words[i] = rng.Uint32() & 0x77777777 // codes 0-7
		}
		words[0] |= 0x8 // an unknown
		for frame := 0; frame < 4; frame++ {
			if frame > 0 {
				for k := 0; k < n/16+1; k++ { // codes 0-15: 8-15 unknown
					i := rng.IntN(n)
					words[i/8] = words[i/8]&^(0xf<<(4*(i%8))) | rng.Uint32N(16)<<(4*(i%8))
				}
			}
			shown := words
			if frame == 2 {
				shown = words[:len(words)/3] // the map ends early, then grows back
			}
			before := bytes.Clone(inc.Pix)
			p.PaintStatusMap(&inc, l, shown)
			l.PaintStatusMap(&full, shown)
			require.True(t, bytes.Equal(full.Pix, inc.Pix), "status map, slots %d frame %d", n, frame)
			assertOnlyDirtyRowsChanged(t, before, inc, p.Dirty())
		}
	}
}

// assertOnlyDirtyRowsChanged checks that every pixel row outside dirty is
// as it was before the paint (a caller uploads only the dirty rows).
func assertOnlyDirtyRowsChanged(t *testing.T, before []byte, r Raster, dirty RowSpan) {
	t.Helper()
	if len(before) != len(r.Pix) {
		return // resized: everything is new
	}
	stride := r.W * 4
	for y := 0; y < r.H; y++ {
		if y >= dirty.Y0 && y < dirty.Y1 {
			continue
		}
		require.True(t, bytes.Equal(before[y*stride:(y+1)*stride], r.Pix[y*stride:(y+1)*stride]),
			"row %d changed outside the dirty rows [%d, %d)", y, dirty.Y0, dirty.Y1)
	}
}

// BenchmarkSlotPainter repaints a 1,048,576-slot map after a frame that
// changed 4,096 consecutive slots (what a frame of the default workload
// does), from slot snapshots (full readback) and from a status map
// (summary readback).
func BenchmarkSlotPainter(b *testing.B) {
	const n = 1 << 20
	l := LayoutSlots(n)
	slots := make([]decode.RingSlotSnapshot, n)
	words := make([]uint32, n/8)
	frame := func(i int) {
		start := i * 4096 % n
		for s := start; s < start+4096; s++ {
			st := decode.Status(i%3 + 1)
			slots[s].Status = st
			words[s/8] = words[s/8]&^(0xf<<(4*(s%8))) | uint32(st)<<(4*(s%8))
		}
	}
	for _, mode := range []struct {
		name  string
		paint func(*SlotPainter, *Raster)
	}{
		{"slots", func(p *SlotPainter, r *Raster) { p.PaintSlots(r, l, slots) }},
		{"statusmap", func(p *SlotPainter, r *Raster) { p.PaintStatusMap(r, l, words) }},
	} {
		b.Run(mode.name, func(b *testing.B) {
			var p SlotPainter
			var r Raster
			mode.paint(&p, &r)
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				frame(i)
				mode.paint(&p, &r)
			}
		})
	}
}
