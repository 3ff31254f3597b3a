package ui

import (
	"math"
	"math/bits"

	"github.com/ringscope/ringscope/decode"
	"github.com/ringscope/ringscope/wgsl/abi"
)

// SlotLayout places ring slots on the slot-map canvas: row-major, Cols
// slots per row, each slot a Cell×Cell block of backing pixels (the last
// Gap pixels of which are left as a grid line when cells are big). Cols is
// a power of two, so a row starts at a round slot index. The zero value
// lays out nothing.
type SlotLayout struct {
	Slots, Cols, Rows int
	Cell, Gap         int
}

// Limits of the slot-map backing store.
const (
	slotMapMaxCols     = 2048 // 1,048,576 slots → 2048 × 512 one-pixel cells
	slotMapTargetWidth = 1024 // small rings get bigger cells up to this width
)

// LayoutSlots returns the layout for n slots: about four times wider than
// tall, one backing pixel per slot for large rings, bigger cells (with a
// one-pixel gap from 4 px up) for small ones.
func LayoutSlots(n int) SlotLayout {
	if n <= 0 {
		return SlotLayout{}
	}
	want := int(math.Ceil(math.Sqrt(4 * float64(n))))
	cols := 1 << bits.Len(uint(want-1))
	cols = min(cols, slotMapMaxCols)
	cols = max(cols, 1)
	rows := (n + cols - 1) / cols
	cell := max(1, slotMapTargetWidth/cols)
	gap := 0
	if cell >= 4 {
		gap = 1
	}
	return SlotLayout{Slots: n, Cols: cols, Rows: rows, Cell: cell, Gap: gap}
}

// Width and Height are the backing-store size in pixels.
func (l SlotLayout) Width() int  { return l.Cols * l.Cell }
func (l SlotLayout) Height() int { return l.Rows * l.Cell }

// SlotAt maps a mouse position (offsetX, offsetY in CSS pixels) on a canvas
// displayed at cssW×cssH to a slot index; ok is false outside the slots
// (past the last slot of the last row, or off the canvas).
func (l SlotLayout) SlotAt(x, y, cssW, cssH float64) (slot int, ok bool) {
	if l.Slots == 0 || cssW <= 0 || cssH <= 0 || x < 0 || y < 0 || x >= cssW || y >= cssH {
		return 0, false
	}
	col := int(x / cssW * float64(l.Cols))
	row := int(y / cssH * float64(l.Rows))
	col, row = min(col, l.Cols-1), min(row, l.Rows-1)
	slot = row*l.Cols + col
	return slot, slot < l.Slots
}

// DisplaySize returns the CSS size to show the canvas at in a box of
// availW × maxH CSS pixels, keeping the aspect ratio; when it enlarges it
// uses a whole scale factor (crisp cells) if one fits.
func (l SlotLayout) DisplaySize(availW, maxH float64) (w, h float64) {
	bw, bh := float64(l.Width()), float64(l.Height())
	if bw == 0 || bh == 0 || availW <= 0 || maxH <= 0 {
		return 0, 0
	}
	s := min(availW/bw, maxH/bh)
	if s >= 1 {
		s = math.Floor(s)
	}
	return bw * s, bh * s
}

// Paint draws every slot of slots into r (resized to the layout) in its
// status colour; cells past the last slot are background.
func (l SlotLayout) Paint(r *Raster, slots []decode.RingSlotSnapshot) {
	r.Resize(l.Width(), l.Height())
	r.Fill(ColBackground)
	n := min(len(slots), l.Slots)
	if l.Cell == 1 {
		pix := r.Pix
		for i := 0; i < n; i++ {
			c := StatusColor(slots[i].Status)
			j := i * 4
			pix[j], pix[j+1], pix[j+2], pix[j+3] = c[0], c[1], c[2], c[3]
		}
		return
	}
	l.paintCells(r, n, func(i int) RGBA { return StatusColor(slots[i].Status) })
}

// statusMapPalette is the colour of each 4-bit status-map code
// (docs/SUMMARY.md §4): the statuses 0–7, then unknown (8, and the codes
// 9–15 a valid map never holds).
var statusMapPalette = func() (p [16]RGBA) {
	for k := range p {
		p[k] = StatusColor(decode.Status(k))
	}
	return p
}()

// PaintStatusMap draws the slots of a packed status map (4 bits per slot,
// 8 slots per word, slot i at bits 4·(i mod 8) of word i/8) into r, as
// Paint does from slot snapshots: a summary frame carries no slots. One
// word is decoded into 8 pixels at a time; with r's buffer already large
// enough it allocates nothing.
func (l SlotLayout) PaintStatusMap(r *Raster, words []uint32) {
	r.Resize(l.Width(), l.Height())
	r.Fill(ColBackground)
	n := min(len(words)*8, l.Slots)
	if l.Cell != 1 {
		l.paintCells(r, n, func(i int) RGBA { return statusMapPalette[words[i/8]>>(4*(i%8))&0xf] })
		return
	}
	pix := r.Pix[:n*4]
	for w := 0; w*8 < n; w++ {
		v := words[w]
		seg := pix[w*32 : min(w*32+32, len(pix))]
		for j := 0; j < len(seg); j += 4 {
			c := &statusMapPalette[v&0xf]
			seg[j], seg[j+1], seg[j+2], seg[j+3] = c[0], c[1], c[2], c[3]
			v >>= 4
		}
	}
}

// SlotPainter repaints a slot map frame after frame, touching only the
// cells whose status changed since the last paint. A frame changes a few
// thousand of 65,536 slots, so a full Paint spent most of the slot map's
// time rewriting pixels that were already right. It keeps what it painted
// packed as the status map packs it (8 cells a word), so an unchanged run
// of 8 slots costs one compare: at 1,048,576 slots a per-slot check was
// the page's largest cost per frame.
type SlotPainter struct {
	layout  SlotLayout
	shown   []uint32         // the 4-bit codes painted, 8 cells a word
	packed  decode.StatusMap // PaintSlots's statuses, packed
	painted int              // cells [0, painted) hold shown's codes; the rest are background
	dirty   RowSpan          // the pixel rows the last paint changed
}

// RowSpan is a range [Y0, Y1) of pixel rows; empty when Y0 >= Y1.
type RowSpan struct{ Y0, Y1 int }

// Dirty returns the pixel rows the last PaintSlots or PaintStatusMap
// changed, so a caller can upload only those.
func (p *SlotPainter) Dirty() RowSpan { return p.dirty }

// PaintSlots brings r up to date with slots (laid out by l), packing their
// statuses as the GPU's status map does (decode.StatusMap.SetSlots), so both
// readback modes paint the same way.
func (p *SlotPainter) PaintSlots(r *Raster, l SlotLayout, slots []decode.RingSlotSnapshot) {
	n := min(len(slots), l.Slots)
	p.packed.SetSlots(slots[:n])
	p.paint(r, l, n, p.packed.Words())
}

// PaintStatusMap brings r up to date with a packed status map (as
// SlotLayout.PaintStatusMap reads it).
func (p *SlotPainter) PaintStatusMap(r *Raster, l SlotLayout, words []uint32) {
	p.paint(r, l, min(len(words)*abi.StatusMapPerWord, l.Slots), words)
}

// paint brings the first n cells up to date with the packed codes in
// words; the cells past n show the background.
func (p *SlotPainter) paint(r *Raster, l SlotLayout, n int, words []uint32) {
	p.begin(r, l, n)
	for w := 0; w*abi.StatusMapPerWord < n; w++ {
		p.paintWord(r, w, words[w], n)
	}
	p.painted = n
}

// begin starts a paint of n cells: on a new layout it clears r and forgets
// every cell; cells the last paint had past n go back to the background.
func (p *SlotPainter) begin(r *Raster, l SlotLayout, n int) {
	p.dirty = RowSpan{}
	if l != p.layout || r.W != l.Width() || r.H != l.Height() || uint64(len(p.shown)) != abi.StatusMapWords(uint32(l.Slots)) {
		p.layout = l
		r.Resize(l.Width(), l.Height())
		r.Fill(ColBackground)
		p.shown = append(p.shown[:0], make([]uint32, abi.StatusMapWords(uint32(l.Slots)))...)
		p.painted = 0
		p.dirty = RowSpan{0, r.H}
	}
	for i := n; i < p.painted; i++ {
		p.paintCell(r, i, ColBackground)
	}
}

// paintWord paints the cells of word w (slots 8w to 8w+7, those below n)
// whose code in v differs from what they show, or that show nothing yet.
func (p *SlotPainter) paintWord(r *Raster, w int, v uint32, n int) {
	const per, bits, mask = abi.StatusMapPerWord, abi.StatusMapBits, 1<<abi.StatusMapBits - 1
	first := w * per
	if p.painted >= first+per && v == p.shown[w] {
		return
	}
	diff := v ^ p.shown[w]
	for k := 0; k < per && first+k < n; k++ {
		if first+k >= p.painted || diff>>(bits*k)&mask != 0 {
			p.paintCell(r, first+k, statusMapPalette[v>>(bits*k)&mask])
		}
	}
	p.shown[w] = v
}

// paintCell paints cell i in c and widens the dirty rows to hold it.
func (p *SlotPainter) paintCell(r *Raster, i int, c RGBA) {
	p.layout.paintCell(r, i, c)
	y0 := i / p.layout.Cols * p.layout.Cell
	if p.dirty.Y0 >= p.dirty.Y1 {
		p.dirty = RowSpan{y0, y0 + p.layout.Cell}
		return
	}
	p.dirty.Y0 = min(p.dirty.Y0, y0)
	p.dirty.Y1 = max(p.dirty.Y1, y0+p.layout.Cell)
}

// paintCell paints slot i's cell (its inner square; the gap stays) in c.
func (l SlotLayout) paintCell(r *Raster, i int, c RGBA) {
	inner := l.Cell - l.Gap
	stride := r.W * 4
	x0 := (i % l.Cols) * l.Cell * 4
	y0 := (i / l.Cols) * l.Cell
	for y := y0; y < y0+inner; y++ {
		px := r.Pix[y*stride+x0 : y*stride+x0+inner*4]
		for j := 0; j < len(px); j += 4 {
			px[j], px[j+1], px[j+2], px[j+3] = c[0], c[1], c[2], c[3]
		}
	}
}

// paintCells paints n slots of colour color(i) as cells of more than one
// pixel: one pixel row per row of cells, copied down the cell's other rows
// (memmove), leaving the gap rows background.
func (l SlotLayout) paintCells(r *Raster, n int, color func(i int) RGBA) {
	inner := l.Cell - l.Gap
	stride := r.W * 4
	for row := 0; row*l.Cols < n; row++ {
		line := r.Pix[row*l.Cell*stride : row*l.Cell*stride+stride]
		for col := 0; col < l.Cols; col++ {
			i := row*l.Cols + col
			if i >= n {
				break
			}
			c := color(i)
			px := line[col*l.Cell*4 : (col*l.Cell+inner)*4]
			for j := 0; j < len(px); j += 4 {
				px[j], px[j+1], px[j+2], px[j+3] = c[0], c[1], c[2], c[3]
			}
		}
		for k := 1; k < inner; k++ {
			copy(r.Pix[(row*l.Cell+k)*stride:], line)
		}
	}
}
