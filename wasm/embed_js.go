//go:build js && wasm

package main

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"syscall/js"
	"time"

	"github.com/ringscope/ringscope/ui"
)

// Embedding: ringscope.mount(element, {panels}) moves the page's dashboard
// (the Vugu root, which keeps rendering where it is moved) into an element
// of the host page. With options.panels, only the named panels show, in
// the host's layout: the host element gets the class rs-mount, one class
// rs-show-<panel> per panel and data-rs-panels; static/capture.css hides
// the rest. There is one dashboard per page, so a second mount moves it.
//
// static/ringscope.mjs loads the wasm on any page (it adds the hidden
// mount point the wasm renders into when the host page has none) and
// resolves to the ringscope object.
func init() { apiExtensions = append(apiExtensions, installEmbedAPI) }

// Panels are the names options.panels accepts.
var Panels = []string{"header", "capture", "settings", "counters", "adapter", "occupancy", "watchdog",
	"slotmap", "dispatch", "control", "launch", "windows", "log", "sketch"}

// mountTimeout bounds the wait for the dashboard's first render.
const mountTimeout = 10 * time.Second

func installEmbedAPI(a *app, obj js.Value) {
	obj.Set("panels", js.ValueOf(toAny(Panels)))
	rawMethod(obj, "mount", func(args []js.Value) (js.Value, error) { return a.apiMount(args) })
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
	if o.IsUndefined() || o.IsNull() {
		return nil, nil
	}
	if o.Type() != js.TypeObject {
		return nil, fmt.Errorf("mount: options must be an object, got %s", o.Type())
	}
	p := o.Get("panels")
	if p.IsUndefined() || p.IsNull() {
		return nil, nil
	}
	if !jsGlobal.Get("Array").Call("isArray", p).Bool() {
		return nil, fmt.Errorf("mount: options.panels must be an array of panel names (%s)", strings.Join(Panels, ", "))
	}
	out := make([]string, p.Length())
	for i := range out {
		e := p.Index(i)
		if e.Type() != js.TypeString || !slices.Contains(Panels, e.String()) {
			return nil, fmt.Errorf("mount: options.panels[%d] = %v is not a panel; choose from %s", i, e, strings.Join(Panels, ", "))
		}
		out[i] = e.String()
	}
	return out, nil
}

// apiMount: mount(element, {panels}) resolves to the element once the
// dashboard has rendered in it.
func (a *app) apiMount(args []js.Value) (js.Value, error) {
	el := arg(args, 0)
	if el.Type() != js.TypeObject || !el.InstanceOf(jsGlobal.Get("Element")) {
		return js.Undefined(), errors.New("mount: element must be a DOM Element (for example document.querySelector('#panel'))")
	}
	panels, err := mountPanels(arg(args, 1))
	if err != nil {
		return js.Undefined(), err
	}
	root, err := dashboardRoot()
	if err != nil {
		return js.Undefined(), err
	}
	cl := el.Get("classList")
	for _, p := range Panels {
		cl.Call("remove", "rs-show-"+p)
	}
	cl.Call("add", "rs-mount")
	if panels == nil {
		el.Call("removeAttribute", "data-rs-panels")
	} else {
		el.Call("setAttribute", "data-rs-panels", strings.Join(panels, " "))
		for _, p := range panels {
			cl.Call("add", "rs-show-"+p)
		}
	}
	if !root.Get("parentNode").Equal(el) {
		el.Call("append", root)
	}
	// The panels draw on canvases sized from their boxes: tell them.
	a.ui(func(*ui.Dashboard) {})
	return el, nil
}

// dashboardRoot finds the element the wasm renders the dashboard into:
// Vugu's cached mount point once it rendered, #app before.
func dashboardRoot() (js.Value, error) {
	deadline := time.Now().Add(mountTimeout)
	for {
		if st := jsGlobal.Get("vuguState"); st.Truthy() {
			if el := st.Get("mountPointEl"); el.Truthy() {
				return el, nil
			}
		}
		if time.Now().After(deadline) {
			if el := jsGlobal.Get("document").Call("querySelector", "#app"); el.Truthy() {
				return el, nil
			}
			return js.Undefined(), errors.New("mount: the dashboard did not render (is there an element with id=\"app\"? ringscope.mjs adds one)")
		}
		time.Sleep(10 * time.Millisecond)
	}
}
