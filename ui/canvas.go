package ui

import (
	gjs "github.com/gowebapi/webapi/core/js"
	"github.com/gowebapi/webapi/css/resizeobserver"
	"github.com/gowebapi/webapi/dom"
	"github.com/gowebapi/webapi/html/canvas"
	js "github.com/vugu/vugu/js"
)

// Canvas puts a Raster on a <canvas> element: one reused ImageData,
// refilled with js.CopyBytesToJS and drawn with putImageData, so a frame
// costs two JS calls and allocates nothing. The canvas's backing size is
// the raster's; CSS scales it to the layout (static/dashboard.css).
//
// The renderer (wasm/render) writes only the nodes it made, so the
// template renders an empty host <div> and Mount creates the <canvas>
// inside it, where no render writes (a width or height write would clear
// the bitmap). Setting the canvas up goes through gowebapi's typed DOM;
// the per-frame calls (Draw, DrawRows) use js.Values bound once, since a
// typed wrapper there would allocate per call on the hot path.
// The zero value is detached: Draw does nothing until Mount.
type Canvas struct {
	el  *canvas.HTMLCanvasElement
	ctx *canvas.CanvasRenderingContext2D
	// put is ctx, img the ImageData and data its Uint8ClampedArray, as
	// the per-frame calls take them.
	put, img, data js.Value
	w, h           int
	size           SizeWatch
}

// Mount makes sure host (an empty element; call it from vg-js-create,
// which the renderer runs on every render) holds this canvas, creating
// the <canvas> on the first call and adopting host's first child after
// the component was re-created. It returns the canvas element.
func (c *Canvas) Mount(host js.Value) js.Value {
	h := dom.ElementFromJS(webValue(host))
	if h == nil {
		return js.Null()
	}
	if first := h.FirstElementChild(); first != nil {
		if !c.Attached() || !c.el.IsSameNode(&first.Node) {
			c.bind(canvas.HTMLCanvasElementFromJS(first.JSValue()))
		}
		return c.Element()
	}
	el := canvas.HTMLCanvasElementFromJS(newElement(&h.Node, "canvas").JSValue())
	h.AppendChild(&el.Node)
	c.bind(el)
	return c.Element()
}

func (c *Canvas) bind(el *canvas.HTMLCanvasElement) {
	c.el = el
	c.ctx = nil
	if u := el.GetContext("2d", nil); u != nil {
		c.ctx = canvas.CanvasRenderingContext2DFromJS(u.JSValue())
	}
	c.w, c.h = 0, 0
	c.size.watch(&el.Element)
}

// newElement creates a tag element in the document of node. The DOM
// setup goes through gowebapi's typed packages but not its root package:
// that one (Window, Document) imports most of gowebapi's packages, whose
// init code and types the wasm would carry for two calls.
func newElement(node *dom.Node, tag string) *dom.Element {
	return dom.ElementFromJS(node.OwnerDocument().Call("createElement", tag))
}

// Attached reports whether a canvas element is bound.
func (c *Canvas) Attached() bool { return c.ctx != nil }

// Element returns the bound <canvas> (null when detached).
func (c *Canvas) Element() js.Value {
	if c.el == nil {
		return js.Null()
	}
	return vuguValue(c.el.JSValue())
}

// Draw copies r onto the canvas, resizing its backing store when r's size
// changed.
func (c *Canvas) Draw(r *Raster) {
	if !c.Attached() || r.W == 0 || r.H == 0 {
		return
	}
	if r.W != c.w || r.H != c.h {
		c.el.SetWidth(uint(r.W))
		c.el.SetHeight(uint(r.H))
		img := c.ctx.CreateImageData(r.W, r.H)
		c.img = vuguValue(img.JSValue())
		c.data = c.img.Get("data")
		c.put = vuguValue(c.ctx.JSValue())
		c.w, c.h = r.W, r.H
	}
	js.CopyBytesToJS(c.data, r.Pix)
	c.put.Call("putImageData", c.img, 0, 0)
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
	c.put.Call("putImageData", c.img, 0, 0, 0, y0, r.W, y1-y0)
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
// the renderer's DOM writes that read forces a synchronous style and
// layout pass in the middle of the frame (a share of the page's
// main-thread time worth avoiding: bench/results-render.md), while the observer runs after the
// browser's own layout, when the numbers are already clean.
//
// Go in wasm runs on the page's one thread, so the callback and the
// readers never run at the same time.
type SizeWatch struct {
	el      *dom.Element
	obs     *resizeobserver.ResizeObserver
	changed *resizeobserver.ResizeObserverCallback
	w, h    int
}

// Watch starts observing el, an element as the renderer's callbacks pass
// it (a no-op when it already does).
func (s *SizeWatch) Watch(el js.Value) { s.watch(dom.ElementFromJS(webValue(el))) }

// watch starts observing el (a no-op when it already does). The size is
// 0, 0 until the observer's first report, which comes after the next
// layout: reading it here would force a layout for every canvas the
// renderer creates while it builds the page (a large part of the first
// render: bench/results-render.md).
func (s *SizeWatch) watch(el *dom.Element) {
	if el == nil || (s.el != nil && s.el.IsSameNode(&el.Node)) {
		return
	}
	s.Stop()
	s.el = el
	if !gjs.Global().Get("ResizeObserver").Truthy() {
		// No observer (not a browser): read once.
		s.w, s.h = el.ClientWidth(), el.ClientHeight()
		return
	}
	s.changed = resizeobserver.ResizeObserverCallbackToJS(func([]*resizeobserver.ResizeObserverEntry, *resizeobserver.ResizeObserver) {
		w, h := s.el.ClientWidth(), s.el.ClientHeight()
		if w == s.w && h == s.h {
			return
		}
		s.w, s.h = w, h
		if Resized != nil {
			Resized()
		}
	})
	s.obs = resizeobserver.NewResizeObserver(s.changed)
	s.obs.Observe(el)
}

// Resized, when set, asks for a render after a watched element's size
// changed; the composition root sets it once, before the first render. A
// canvas learns its size after the render that made it, and on a page
// with no frame coming (paused, a drain done) it would stay blank, or
// drawn at its old size, until the next event.
var Resized func()

// Size is the last observed clientWidth and clientHeight (0, 0 before Watch).
func (s *SizeWatch) Size() (w, h int) { return s.w, s.h }

// Stop disconnects the observer.
func (s *SizeWatch) Stop() {
	if s.obs != nil {
		s.obs.Disconnect()
		(*gjs.Func)(s.changed).Release()
	}
	s.el, s.obs, s.changed, s.w, s.h = nil, nil, nil, 0, 0
}
