package ui

import (
	js "github.com/vugu/vugu/js"
)

// Canvas puts a Raster on a <canvas> element: one reused ImageData,
// refilled with js.CopyBytesToJS and drawn with putImageData, so a frame
// costs two JS calls and allocates nothing. The canvas's backing size is
// the raster's; CSS scales it to the layout (static/dashboard.css).
//
// Vugu re-sets every attribute of the elements it renders on every render
// and removes the others, which would clear a <canvas> (a width/height
// write resets its bitmap). So the template renders an empty host <div>
// and Mount creates the <canvas> inside it, where Vugu never looks.
// The zero value is detached: Draw does nothing until Mount.
type Canvas struct {
	el, ctx js.Value
	data    js.Value // Uint8ClampedArray of img
	img     js.Value // ImageData
	w, h    int
	size    SizeWatch
}

// Mount makes sure host (an empty element; call it from vg-js-create,
// which Vugu runs on every render) holds this canvas, creating the
// <canvas> on the first call and adopting host's first child after the
// component was re-created. It returns the canvas element.
func (c *Canvas) Mount(host js.Value) js.Value {
	first := host.Get("firstElementChild")
	if first.Truthy() {
		if !c.Attached() || !c.el.Call("isSameNode", first).Bool() {
			c.bind(first)
		}
		return c.el
	}
	el := js.Global().Get("document").Call("createElement", "canvas")
	host.Call("appendChild", el)
	c.bind(el)
	return el
}

func (c *Canvas) bind(el js.Value) {
	c.el = el
	c.ctx = el.Call("getContext", "2d")
	c.w, c.h = 0, 0
	c.size.Watch(el)
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

// DrawRows is Draw for a raster of which only the pixel rows in rows
// changed since the last Draw or DrawRows: it copies and puts only those
// rows (a frame of a 1,048,576-slot map changes a few of its 512), and
// nothing at all when rows is empty. A new size draws everything.
func (c *Canvas) DrawRows(r *Raster, rows RowSpan) {
	if !c.Attached() || r.W == 0 || r.H == 0 {
		return
	}
	if r.W != c.w || r.H != c.h {
		c.Draw(r)
		return
	}
	y0, y1 := max(rows.Y0, 0), min(rows.Y1, r.H)
	if y0 >= y1 {
		return
	}
	stride := r.W * 4
	js.CopyBytesToJS(c.data.Call("subarray", y0*stride, y1*stride), r.Pix[y0*stride:y1*stride])
	c.ctx.Call("putImageData", c.img, 0, 0, 0, y0, r.W, y1-y0)
}

// ClientSize returns the canvas's CSS layout size in pixels (0 when
// detached), so a view can size its raster to the space it has.
func (c *Canvas) ClientSize() (w, h int) {
	if !c.Attached() {
		return 0, 0
	}
	return c.size.Size()
}

// SizeWatch keeps an element's clientWidth and clientHeight as a
// ResizeObserver reports them. A render must not read them itself: after
// Vugu's DOM writes that read forces a synchronous style and layout pass
// in the middle of the frame (measured: 14% of the page's main-thread
// time at 65,536 slots), while the observer runs after the browser's own
// layout, when the numbers are already clean.
//
// Go in wasm runs on the page's one thread, so the callback and the
// readers never run at the same time.
type SizeWatch struct {
	el, obs js.Value
	changed js.Func
	w, h    int
}

// Watch starts observing el (a no-op when it already does). The size is
// 0, 0 until the observer's first report, which comes after the next
// layout: reading it here would force a layout for every canvas Vugu
// creates while it builds the page (measured: 130 ms of the first render).
func (s *SizeWatch) Watch(el js.Value) {
	if s.el.Truthy() && s.el.Call("isSameNode", el).Bool() {
		return
	}
	s.Stop()
	s.el = el
	ro := js.Global().Get("ResizeObserver")
	if !ro.Truthy() {
		// No observer (not a browser): read once.
		s.w, s.h = el.Get("clientWidth").Int(), el.Get("clientHeight").Int()
		return
	}
	s.changed = js.FuncOf(func(js.Value, []js.Value) interface{} {
		s.w, s.h = s.el.Get("clientWidth").Int(), s.el.Get("clientHeight").Int()
		return nil
	})
	s.obs = ro.New(s.changed)
	s.obs.Call("observe", el)
}

// Size is the last observed clientWidth and clientHeight (0, 0 before Watch).
func (s *SizeWatch) Size() (w, h int) { return s.w, s.h }

// Stop disconnects the observer.
func (s *SizeWatch) Stop() {
	if s.obs.Truthy() {
		s.obs.Call("disconnect")
		s.changed.Release()
	}
	s.el, s.obs, s.w, s.h = js.Value{}, js.Value{}, 0, 0
}
