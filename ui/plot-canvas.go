package ui

import js "github.com/vugu/vugu/js"

// Plot is the one canvas piece every plot uses. The panel's template
// renders an empty host element, <div class="plot" vg-js-create="c.plot.Mount(value)"></div>,
// and the panel's Rendered calls Draw: it sizes a reused Raster to the
// host's layout size, lets the Painter draw and puts the pixels on the
// canvas, only when the frame (seq) or the size changed.
//
// The page's renderer (wasm/render) calls Rendered on nested components
// too, so a panel that draws may sit anywhere in the tree.
type Plot struct {
	canvas  Canvas
	raster  Raster
	drawn   uint64
	drawnOK bool
}

// Mount binds the host element (from vg-js-create, on every render).
func (p *Plot) Mount(host js.Value) { p.canvas.Mount(host) }

// Draw repaints when seq or the size changed.
func (p *Plot) Draw(seq uint64, painter Painter) {
	if painter == nil || !p.canvas.Attached() {
		return
	}
	w, h := p.canvas.ClientSize()
	if w <= 0 || h <= 0 {
		return
	}
	if p.drawnOK && p.drawn == seq && w == p.raster.W && h == p.raster.H {
		return
	}
	p.raster.Resize(w, h)
	painter.Paint(&p.raster)
	p.canvas.Draw(&p.raster)
	p.drawn, p.drawnOK = seq, true
}
