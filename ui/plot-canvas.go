package ui

import "github.com/vugu/vugu"

// PlotCanvas is the one canvas component every plot uses: after each
// render it sizes a reused Raster to the element's layout size, lets
// Painter draw into it and puts it on the canvas, but only when Seq (the
// frame sequence) or the size changed. Class sets the element's size
// (static/dashboard.css), Title its tooltip.
type PlotCanvas struct {
	Painter Painter
	Seq     uint64
	Class   string
	Title   string

	canvas  Canvas
	raster  Raster
	drawn   uint64
	drawnOK bool
}

// Rendered draws after the DOM is in place.
func (c *PlotCanvas) Rendered(ctx vugu.RenderedCtx) {
	if c.Painter == nil || !c.canvas.Attached() {
		return
	}
	w, h := c.canvas.ClientSize()
	if w <= 0 || h <= 0 {
		return
	}
	if c.drawnOK && c.drawn == c.Seq && w == c.raster.W && h == c.raster.H {
		return
	}
	c.raster.Resize(w, h)
	c.Painter.Paint(&c.raster)
	c.canvas.Draw(&c.raster)
	c.drawn, c.drawnOK = c.Seq, true
}
