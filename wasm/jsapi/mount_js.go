//go:build js && wasm

package jsapi

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"syscall/js"
	"time"

	"github.com/gowebapi/webapi/dom"
	"github.com/gowebapi/webapi/dom/domcore"

	"github.com/ringscope/ringscope/wasm/api"
)

// Embedding: ringscope.mount(element, {panels}) moves the page's dashboard
// (the Vugu root, which keeps rendering where it is moved) into an element
// of the host page. With options.panels, only the named panels show, in
// the host's layout: the host element gets the class rs-mount, one class
// rs-show-<panel> per panel and data-rs-panels; static/capture.css hides
// the rest. There is one dashboard per page, so a second mount moves it.
//
// static/ringscope.mjs loads the wasm on any page (it gives the wasm an
// element of its own to render into, never the host's #app) and
// resolves to the ringscope object.
// Panels are the names options.panels accepts.
var Panels = []string{"header", "capture", "settings", "counters", "adapter", "occupancy", "watchdog",
	"slotmap", "dispatch", "control", "launch", "windows", "waits", "log", "sketch"}

// mountTimeout bounds the wait for the dashboard's first render.
const mountTimeout = 10 * time.Second

// Dashboard is the page's dashboard as mount moves it.
type Dashboard interface {
	// Root is the element it renders into once it rendered, or undefined.
	Root() js.Value
	// Redraw re-renders it (its canvases size themselves from their boxes).
	Redraw()
}

// installMount adds panels and mount(element, {panels}) to obj.
func installMount(obj js.Value, d Dashboard) {
	obj.Set("panels", js.ValueOf(toAny(Panels)))
	RawMethod(obj, "mount", func(args []js.Value) (js.Value, error) { return apiMount(d, args) })
}

func toAny(s []string) []any {
	out := make([]any, len(s))
	for i, v := range s {
		out[i] = v
	}
	return out
}

// mountPanels reads options.panels: nil for the whole dashboard.
func mountPanels(o js.Value) ([]string, error) {
	if err := Known(o, &api.MountOptions, ""); err != nil {
		return nil, err
	}
	p, err := OptProp(o, "mount", "panels")
	if err != nil || p.IsUndefined() || p.IsNull() {
		return nil, err
	}
	if !IsArray(p) {
		return nil, fmt.Errorf("mount: options.panels must be an array of panel names (%s)", strings.Join(Panels, ", "))
	}
	n, err := Array(p, "mount: options.panels", MaxOptionArray)
	if err != nil {
		return nil, err
	}
	out := make([]string, n)
	for i := range out {
		e, err := Get(p, fmt.Sprintf("mount: options.panels[%d]", i), i)
		if err != nil {
			return nil, err
		}
		name, err := String(e, fmt.Sprintf("mount: options.panels[%d]", i), MaxName)
		if err != nil || !slices.Contains(Panels, name) {
			return nil, fmt.Errorf("mount: options.panels[%d] = %s is not a panel; choose from %s", i, panelText(e), strings.Join(Panels, ", "))
		}
		out[i] = name
	}
	return out, nil
}

// panelText shows a refused panel name: the string, or its type.
func panelText(e js.Value) string {
	if s, err := String(e, "", MaxName); err == nil {
		return s
	}
	return Describe(e)
}

// apiMount: mount(element, {panels}) resolves to the element once the
// dashboard has rendered in it.
func apiMount(d Dashboard, args []js.Value) (js.Value, error) {
	el := Arg(args, 0)
	if !IsElement(el) {
		return js.Undefined(), errors.New("mount: element must be a DOM Element (for example document.querySelector('#panel')), got " + Describe(el))
	}
	panels, err := mountPanels(Arg(args, 1))
	if err != nil {
		return js.Undefined(), err
	}
	root, err := dashboardRoot(d)
	if err != nil {
		return js.Undefined(), err
	}
	// The dashboard cannot move into itself (append throws a
	// HierarchyRequestError); nor into a node that is not in a document
	// the page can render to, which is fine and left to the host.
	host, dash := dom.ElementFromJS(el), dom.ElementFromJS(root)
	if dash.IsSameNode(&host.Node) || dash.Contains(&host.Node) {
		return js.Undefined(), errors.New("mount: element is inside the dashboard itself; choose an element outside it")
	}
	// classList through the guarded read: the host's element may have a
	// getter of its own that throws.
	cl, err := Get(el, "mount: element.classList", "classList")
	if err != nil {
		return js.Undefined(), err
	}
	classes := domcore.DOMTokenListFromJS(cl)
	if classes == nil {
		return js.Undefined(), errors.New("mount: element.classList is " + Describe(cl))
	}
	for _, p := range Panels {
		classes.Remove("rs-show-" + p)
	}
	classes.Add("rs-mount")
	if panels == nil {
		host.RemoveAttribute("data-rs-panels")
	} else {
		host.SetAttribute("data-rs-panels", strings.Join(panels, " "))
		for _, p := range panels {
			classes.Add("rs-show-" + p)
		}
	}
	if parent := dash.ParentNode(); parent == nil || !parent.IsSameNode(&host.Node) {
		host.Append(dom.UnionFromJS(root))
	}
	// The panels draw on canvases sized from their boxes: tell them.
	d.Redraw()
	return el, nil
}

// dashboardRoot finds the element the wasm renders the dashboard into:
// the renderer's root once it rendered, #app (the project's own page's)
// before.
func dashboardRoot(d Dashboard) (js.Value, error) {
	deadline := time.Now().Add(mountTimeout)
	for {
		if el := d.Root(); el.Truthy() {
			return el, nil
		}
		if time.Now().After(deadline) {
			if el := js.Global().Get("document").Call("querySelector", "#app"); el.Truthy() {
				return el, nil
			}
			return js.Undefined(), errors.New("mount: the dashboard did not render in time: its renderer has no root element (render.js loaded, and the page's program started?)")
		}
		time.Sleep(10 * time.Millisecond)
	}
}
