//go:build js && wasm

package main

import (
	"fmt"
	"syscall/js"
	"time"

	"github.com/gowebapi/webapi"
	"github.com/gowebapi/webapi/dom"
	"github.com/gowebapi/webapi/dom/domcore"
	"github.com/gowebapi/webapi/file"
	"github.com/gowebapi/webapi/html"
	"github.com/gowebapi/webapi/html/htmlevent"
	"github.com/gowebapi/webapi/url"

	"github.com/ringscope/ringscope/wasm/capture"
)

// Files in and out of the page: the exports' downloads, and capture files
// chosen in the capture bar or dropped on the page. These are the DOM's
// edges, run once per person's action, so they use gowebapi's typed
// bindings; where it has none (Blob.arrayBuffer, DataTransfer.types as a
// list) they use syscall/js.

// saveFile hands b to the browser as a download named name (Blob, object
// URL, a temporary <a download>).
func saveFile(name, mime string, b []byte) {
	blob := file.NewBlob([]*file.Union{file.UnionFromJS(bytesToJS(b))}, &file.BlobPropertyBag{Type: mime})
	href := url.CreateObjectURL(blob)
	doc := webapi.GetDocument()
	link := html.HTMLAnchorElementFromJS(doc.CreateElement("a", nil).JSValue())
	link.SetHref(href)
	link.SetDownload(name)
	link.SetAttribute("data-testid", "download-link") // gowebapi's DOMStringMap.Set calls no function
	doc.Body().Append(dom.UnionFromJS(link.JSValue()))
	link.Click()
	link.Remove()
	// The download has started reading the URL by now; a minute is ample.
	time.AfterFunc(time.Minute, func() { url.RevokeObjectURL(href) })
}

// installImportListeners accepts files from the capture bar's file input
// (a delegated change listener, since the renderer may replace the input)
// and dropped anywhere on the page. The listeners live as long as the
// page, so their js.Funcs are never released.
func installImportListeners(a *app) {
	doc := webapi.GetDocument()
	doc.AddEventChange(func(ev *domcore.Event, _ *webapi.Document) {
		defer survive("change")
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
		go a.importFiles(files)
	})
	doc.AddEventDragOver(func(ev *htmlevent.DragEvent, _ *webapi.Document) {
		defer survive("dragover")
		if hasFiles(ev) {
			ev.PreventDefault()
			doc.Body().ClassList().Add("rs-drop-target")
		}
	})
	doc.AddEventDragLeave(func(*htmlevent.DragEvent, *webapi.Document) {
		defer survive("dragleave")
		doc.Body().ClassList().Remove("rs-drop-target")
	})
	doc.AddEventDrop(func(ev *htmlevent.DragEvent, _ *webapi.Document) {
		defer survive("drop")
		doc.Body().ClassList().Remove("rs-drop-target")
		if !hasFiles(ev) {
			return
		}
		ev.PreventDefault()
		go a.importFiles(fileList(ev.DataTransfer().Files()))
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

// readFile reads a File's bytes (File.arrayBuffer(), which gowebapi does
// not bind).
func readFile(f *file.File) ([]byte, error) {
	if size := f.Size(); size > capture.MaxFileBytes {
		return nil, fmt.Errorf("%s: %d bytes exceeds the %d-byte import limit; nothing was read", f.Name(), size, capture.MaxFileBytes)
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

func bytesToJS(b []byte) js.Value {
	u := jsGlobal.Get("Uint8Array").New(len(b))
	js.CopyBytesToJS(u, b)
	return u
}
