package ui

// Raster is a reused RGBA pixel buffer that every canvas view draws into in
// pure Go (so drawing is natively testable and costs no JS calls), and that
// Canvas copies to a <canvas> with one putImageData. Coordinates grow right
// and down from (0, 0). The zero value is an empty 0×0 raster; Resize
// reuses the buffer when it is large enough.
type Raster struct {
	W, H int
	Pix  []byte // RGBA, row-major, len = W*H*4
}

// RGBA is one colour.
type RGBA [4]byte

// Plot colours shared by the canvas views (they match static/dashboard.css).
var (
	ColBackground = RGBA{0x0d, 0x11, 0x17, 0xff}
	ColGrid       = RGBA{0x21, 0x26, 0x2d, 0xff}
	ColAxis       = RGBA{0x30, 0x36, 0x3d, 0xff}
	ColLine       = RGBA{0x58, 0xa6, 0xff, 0xff}
	ColLine2      = RGBA{0xf7, 0x78, 0x3a, 0xff}
	ColLine3      = RGBA{0x3f, 0xb9, 0x50, 0xff}
	ColOK         = RGBA{0x22, 0xc5, 0x5e, 0xff}
	ColWarn       = RGBA{0xf5, 0x9e, 0x0b, 0xff}
	ColBad        = RGBA{0xef, 0x44, 0x44, 0xff}
	ColMuted      = RGBA{0x48, 0x4f, 0x58, 0xff}
)

// Resize sets the raster's size, reusing Pix when it has the capacity.
// The contents are undefined afterwards; call Fill.
func (r *Raster) Resize(w, h int) {
	if w < 0 {
		w = 0
	}
	if h < 0 {
		h = 0
	}
	n := w * h * 4
	if cap(r.Pix) < n {
		r.Pix = make([]byte, n)
	}
	r.Pix = r.Pix[:n]
	r.W, r.H = w, h
}

// Fill paints the whole raster in c.
func (r *Raster) Fill(c RGBA) {
	if len(r.Pix) == 0 {
		return
	}
	copy(r.Pix[:4], c[:])
	for filled := 4; filled < len(r.Pix); filled *= 2 {
		copy(r.Pix[filled:], r.Pix[:filled])
	}
}

// Set paints one pixel; points outside the raster are ignored.
func (r *Raster) Set(x, y int, c RGBA) {
	if x < 0 || y < 0 || x >= r.W || y >= r.H {
		return
	}
	i := (y*r.W + x) * 4
	r.Pix[i], r.Pix[i+1], r.Pix[i+2], r.Pix[i+3] = c[0], c[1], c[2], c[3]
}

// At returns the colour of one pixel (zero outside the raster).
func (r *Raster) At(x, y int) RGBA {
	if x < 0 || y < 0 || x >= r.W || y >= r.H {
		return RGBA{}
	}
	i := (y*r.W + x) * 4
	return RGBA{r.Pix[i], r.Pix[i+1], r.Pix[i+2], r.Pix[i+3]}
}

// Rect fills the rectangle [x0, x1) × [y0, y1), clipped to the raster.
func (r *Raster) Rect(x0, y0, x1, y1 int, c RGBA) {
	x0, x1 = clampInt(x0, 0, r.W), clampInt(x1, 0, r.W)
	y0, y1 = clampInt(y0, 0, r.H), clampInt(y1, 0, r.H)
	if x0 >= x1 || y0 >= y1 {
		return
	}
	row := r.Pix[(y0*r.W+x0)*4 : (y0*r.W+x1)*4]
	copy(row[:4], c[:])
	for filled := 4; filled < len(row); filled *= 2 {
		copy(row[filled:], row[:filled])
	}
	for y := y0 + 1; y < y1; y++ {
		copy(r.Pix[(y*r.W+x0)*4:], row)
	}
}

// HLine draws a horizontal line at y from x0 to x1 inclusive.
func (r *Raster) HLine(x0, x1, y int, c RGBA) {
	if x1 < x0 {
		x0, x1 = x1, x0
	}
	r.Rect(x0, y, x1+1, y+1, c)
}

// VLine draws a vertical line at x from y0 to y1 inclusive.
func (r *Raster) VLine(x, y0, y1 int, c RGBA) {
	if y1 < y0 {
		y0, y1 = y1, y0
	}
	r.Rect(x, y0, x+1, y1+1, c)
}

// Line draws a 1-pixel line from (x0, y0) to (x1, y1) (Bresenham).
func (r *Raster) Line(x0, y0, x1, y1 int, c RGBA) {
	dx, dy := absInt(x1-x0), -absInt(y1-y0)
	sx, sy := 1, 1
	if x0 > x1 {
		sx = -1
	}
	if y0 > y1 {
		sy = -1
	}
	e := dx + dy
	for {
		r.Set(x0, y0, c)
		if x0 == x1 && y0 == y1 {
			return
		}
		e2 := 2 * e
		if e2 >= dy {
			e += dy
			x0 += sx
		}
		if e2 <= dx {
			e += dx
			y0 += sy
		}
	}
}

// Grid draws n-1 evenly spaced horizontal grid lines.
func (r *Raster) Grid(n int, c RGBA) {
	for i := 1; i < n; i++ {
		r.HLine(0, r.W-1, i*r.H/n, c)
	}
}

// PlotSeries draws the last up-to-W values of s (oldest left, newest at the
// right edge, one pixel per sample) scaled so that max maps to the top row,
// as a line in c. Values ≤ 0 sit on the bottom row. A max ≤ 0 draws
// nothing.
func (r *Raster) PlotSeries(s *Series, max float64, c RGBA) {
	n := s.Len()
	if n == 0 || max <= 0 || r.W == 0 || r.H == 0 {
		return
	}
	start := 0
	if n > r.W {
		start = n - r.W
	}
	x0 := r.W - (n - start)
	py := -1
	for i := start; i < n; i++ {
		y := r.yOf(s.At(i), max)
		x := x0 + i - start
		if py >= 0 {
			r.Line(x-1, py, x, y, c)
		} else {
			r.Set(x, y, c)
		}
		py = y
	}
}

// yOf maps v in [0, max] to a row, max at the top.
func (r *Raster) yOf(v, max float64) int {
	if v <= 0 {
		return r.H - 1
	}
	if v >= max {
		return 0
	}
	return r.H - 1 - int(v/max*float64(r.H-1)+0.5)
}

// StackedColumn paints one column x as stacked spans bottom-up: each value
// of parts takes parts[i]/total of the height in cols[i]. Rounding is
// carried so the spans always fill exactly the height when the parts sum
// to total.
func (r *Raster) StackedColumn(x int, parts []uint32, total uint64, cols []RGBA) {
	if total == 0 || x < 0 || x >= r.W {
		return
	}
	var acc uint64
	prev := r.H
	for i, p := range parts {
		acc += uint64(p)
		top := r.H - int(acc*uint64(r.H)/total)
		if top < prev {
			r.Rect(x, top, x+1, prev, cols[i])
			prev = top
		}
	}
}

func clampInt(v, lo, hi int) int {
	if v < lo {
		return lo
	}
	if v > hi {
		return hi
	}
	return v
}

func absInt(v int) int {
	if v < 0 {
		return -v
	}
	return v
}
