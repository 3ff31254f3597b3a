package ui

import (
	js "github.com/vugu/vugu/js"
)

// Canvas puts a Raster on a <canvas> element: one reused Uint8Array and
// ImageData, refilled with js.CopyBytesToJS and drawn with putImageData, so
// a frame costs three JS calls and allocates nothing. The canvas's backing
// size is the raster's; CSS scales it to the layout (static/dashboard.css).
// The zero value is detached: Draw does nothing until Attach.
type Canvas struct {
	el, ctx js.Value
	data    js.Value // Uint8ClampedArray of img
	img     js.Value // ImageData
	w, h    int
}

// Attach binds the canvas element (call it from vg-js-create, which runs
// once per element creation).
func (c *Canvas) Attach(el js.Value) {
	c.el = el
	c.ctx = el.Call("getContext", "2d")
	c.w, c.h = 0, 0
}

// Attached reports whether a canvas element is bound.
func (c *Canvas) Attached() bool { return c.ctx.Truthy() }

// Element returns the bound <canvas>.
func (c *Canvas) Element() js.Value { return c.el }

// Draw copies r onto the canvas, resizing its backing store when r's size
// changed.
func (c *Canvas) Draw(r *Raster) {
	if !c.Attached() || r.W == 0 || r.H == 0 {
		return
	}
	if r.W != c.w || r.H != c.h {
		c.el.Set("width", r.W)
		c.el.Set("height", r.H)
		c.img = c.ctx.Call("createImageData", r.W, r.H)
		c.data = c.img.Get("data")
		c.w, c.h = r.W, r.H
	}
	js.CopyBytesToJS(c.data, r.Pix)
	c.ctx.Call("putImageData", c.img, 0, 0)
}

// ClientSize returns the element's CSS layout size in pixels (0 when
// detached), so a view can size its raster to the space it has.
func (c *Canvas) ClientSize() (w, h int) {
	if !c.Attached() {
		return 0, 0
	}
	return c.el.Get("clientWidth").Int(), c.el.Get("clientHeight").Int()
}
