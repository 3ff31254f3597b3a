//go:build js && wasm

package render

import (
	"syscall/js"

	"github.com/vugu/vugu"
	vjs "github.com/vugu/vugu/js"
)

// domEvent is the vugu.DOMEvent of one DOM event: the summary render.js
// made of it, and the event itself. live is true while the event is
// being dispatched (the handler runs inside the listener): only then do
// PreventDefault and StopPropagation act.
type domEvent struct {
	summary map[string]any
	env     vugu.EventEnv
	ev      js.Value
	live    bool
}

var _ vugu.DOMEvent = (*domEvent)(nil)

// Prop follows keys through the summary ("target", "value"); nil where a
// key is missing.
func (e *domEvent) Prop(keys ...string) any { return prop(e.summary, keys) }

func (e *domEvent) PropString(keys ...string) string   { s, _ := e.Prop(keys...).(string); return s }
func (e *domEvent) PropFloat64(keys ...string) float64 { f, _ := e.Prop(keys...).(float64); return f }
func (e *domEvent) PropBool(keys ...string) bool       { b, _ := e.Prop(keys...).(bool); return b }
func (e *domEvent) EventSummary() map[string]any       { return e.summary }
func (e *domEvent) EventEnv() vugu.EventEnv            { return e.env }
func (e *domEvent) JSEvent() vjs.Value                 { return vjs.Value(e.ev) }
func (e *domEvent) JSEventTarget() vjs.Value           { return vjs.Value(e.ev.Get("target")) }
func (e *domEvent) JSEventCurrentTarget() vjs.Value    { return vjs.Value(e.ev.Get("currentTarget")) }

func (e *domEvent) PreventDefault() {
	if e.live {
		e.ev.Call("preventDefault")
	}
}

func (e *domEvent) StopPropagation() {
	if e.live {
		e.ev.Call("stopPropagation")
	}
}
