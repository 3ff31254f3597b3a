//go:build js && wasm

package browser

import (
	"fmt"
	"syscall/js"
	"time"

	"github.com/gowebapi/webapi/dom"
	"github.com/gowebapi/webapi/dom/domcore"
	"github.com/gowebapi/webapi/file"
	"github.com/gowebapi/webapi/html"
	"github.com/gowebapi/webapi/html/htmlevent"
	"github.com/gowebapi/webapi/url"
)

// Files in and out of the page: the exports' downloads, and capture files
// chosen in the capture bar or dropped on the page. These are the DOM's
// edges, run once per person's action, so they use gowebapi's typed
// bindings; where it has none (Blob.arrayBuffer, DataTransfer.types as a
// list) they use syscall/js.

var jsGlobal = js.Global()

// SaveFile hands b to the browser as a download named name (Blob, object
// URL, a temporary <a download>).
func SaveFile(name, mime string, b []byte) {
	blob := file.NewBlob([]*file.Union{file.UnionFromJS(BytesToJS(b))}, &file.BlobPropertyBag{Type: mime})
	href := url.CreateObjectURL(blob)
	doc := jsGlobal.Get("document")
	link := html.HTMLAnchorElementFromJS(doc.Call("createElement", "a"))
	link.SetHref(href)
	link.SetDownload(name)
	link.SetAttribute("data-testid", "download-link") // gowebapi's DOMStringMap.Set calls no function
	dom.ElementFromJS(doc.Get("body")).Append(dom.UnionFromJS(link.JSValue()))
	link.Click()
	link.Remove()
	// The download has started reading the URL by now; a minute is ample.
	time.AfterFunc(time.Minute, func() { url.RevokeObjectURL(href) })
}

// ListenForFiles calls onFiles, on a goroutine of its own, with the files
// chosen in the capture bar's file input (a delegated change listener on
// target, since the renderer may replace the input) and those dropped on
// target; target (the body, for a document) shows a drop target while
// files are dragged over it. target is the page's document, or an
// instance's own dashboard; c removes the listeners.
func ListenForFiles(c *Cleanup, target js.Value, onFiles func([]*file.File)) {
	doc := domcore.EventTargetFromJS(target)
	marked := target
	if target.Equal(jsGlobal.Get("document")) {
		marked = js.Null()
	}
	body := func() *domcore.DOMTokenList {
		if marked.Truthy() {
			return dom.ElementFromJS(marked).ClassList()
		}
		if b := jsGlobal.Get("document").Get("body"); b.Truthy() {
			return dom.ElementFromJS(b).ClassList()
		}
		return nil
	}
	listen := func(typ string, fn func(ev *domcore.Event)) {
		l := domcore.NewEventListenerFunc(func(ev *domcore.Event) {
			defer survive(typ)
			fn(ev)
		})
		doc.AddEventListener(typ, l, nil)
		c.Add(func() { doc.RemoveEventListener(typ, l, nil); l.Release() })
	}
	listen("change", func(ev *domcore.Event) {
		t := ev.Target()
		if t == nil || !t.JSValue().Truthy() {
			return
		}
		input := html.HTMLInputElementFromJS(t.JSValue())
		// Not Dataset().Get: gowebapi's DOMStringMap.Get calls no function.
		if id := input.GetAttribute("data-testid"); id == nil || *id != "capture-file" {
			return
		}
		files := fileList(input.Files())
		input.SetValue("") // the same file can be chosen again
		go onFiles(files)
	})
	listen("dragover", func(e *domcore.Event) {
		if ev := htmlevent.DragEventFromJS(e.JSValue()); hasFiles(ev) {
			ev.PreventDefault()
			if cl := body(); cl != nil {
				cl.Add("rs-drop-target")
			}
		}
	})
	listen("dragleave", func(*domcore.Event) {
		if cl := body(); cl != nil {
			cl.Remove("rs-drop-target")
		}
	})
	listen("drop", func(e *domcore.Event) {
		if cl := body(); cl != nil {
			cl.Remove("rs-drop-target")
		}
		ev := htmlevent.DragEventFromJS(e.JSValue())
		if !hasFiles(ev) {
			return
		}
		ev.PreventDefault()
		go onFiles(fileList(ev.DataTransfer().Files()))
	})
}

// survive ends a listener that panicked (a page script that replaced a
// DOM method, say) with a console error instead of the program: no event
// of the page may end it.
func survive(listener string) {
	if p := recover(); p != nil {
		jsGlobal.Get("console").Call("error", fmt.Sprintf("ringscope: %s listener: %v", listener, p))
	}
}

// hasFiles reports whether a drag carries files (not text or a link).
func hasFiles(ev *htmlevent.DragEvent) bool {
	dt := ev.DataTransfer()
	if dt == nil || !dt.JSValue().Truthy() {
		return false
	}
	types := dt.Types().JSValue() // a frozen array of strings
	for i := range types.Length() {
		if types.Index(i).String() == "Files" {
			return true
		}
	}
	return false
}

func fileList(l *file.FileList) []*file.File {
	if l == nil || !l.JSValue().Truthy() {
		return nil
	}
	// By index, not FileList.item as gowebapi's Index calls: a page (and
	// the e2e tests) may hand an array of File-likes.
	v := l.JSValue()
	out := make([]*file.File, 0, l.Length())
	for i := range int(l.Length()) {
		if f := file.FileFromJS(v.Index(i)); f != nil {
			out = append(out, f)
		}
	}
	return out
}

// ReadFile reads a File's bytes (File.arrayBuffer(), which gowebapi does
// not bind), refusing one over max bytes before anything is read.
func ReadFile(f *file.File, max int) ([]byte, error) {
	if size := f.Size(); size > max {
		return nil, fmt.Errorf("%s: %d bytes exceeds the %d-byte import limit; nothing was read", f.Name(), size, max)
	}
	ch := make(chan js.Value, 1)
	errc := make(chan string, 1)
	ok := js.FuncOf(func(_ js.Value, args []js.Value) any { ch <- args[0]; return nil })
	fail := js.FuncOf(func(_ js.Value, args []js.Value) any { errc <- args[0].Call("toString").String(); return nil })
	defer ok.Release()
	defer fail.Release()
	f.JSValue().Call("arrayBuffer").Call("then", ok, fail)
	select {
	case buf := <-ch:
		u := jsGlobal.Get("Uint8Array").New(buf)
		b := make([]byte, u.Length())
		js.CopyBytesToGo(b, u)
		return b, nil
	case msg := <-errc:
		return nil, fmt.Errorf("read %s: %s", f.Name(), msg)
	}
}

// BytesToJS copies b into a new Uint8Array.
func BytesToJS(b []byte) js.Value {
	u := jsGlobal.Get("Uint8Array").New(len(b))
	js.CopyBytesToJS(u, b)
	return u
}
