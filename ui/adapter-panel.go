package ui

import (
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/gowebapi/webapi/dom"
	js "github.com/vugu/vugu/js"

	"github.com/ringscope/ringscope/settings"
)

// AdapterPanel shows the adapter's identity, its limits and features, and
// a warning banner (data-testid adapter-cpu-warning) on a fallback or CPU
// adapter, whose timings say nothing about a GPU.
type AdapterPanel struct {
	Info *settings.AdapterInfo

	chips featureChips
}

// featureChips writes the feature list, one <span class="chip"> per
// feature, into its host element through gowebapi's DOM. The list is set
// once per device, so it is written when it changes, not diffed by every
// render. The zero value has written nothing.
type featureChips struct {
	host  *dom.Element
	shown []string
}

// Mount (the host's vg-js-create, on every render) writes features into
// host unless it already shows them.
func (f *featureChips) Mount(host js.Value, features []string) {
	h := dom.ElementFromJS(webValue(host))
	if h == nil || (f.host != nil && f.host.IsSameNode(&h.Node) && slices.Equal(f.shown, features)) {
		return
	}
	empty := ""
	h.SetTextContent(&empty)
	for _, name := range features {
		chip := newElement(&h.Node, "span")
		chip.SetClassName("chip")
		chip.SetTextContent(&name)
		h.AppendChild(&chip.Node)
	}
	f.host, f.shown = h, append(f.shown[:0], features...)
}

// Sub summarises the adapter.
func (c *AdapterPanel) Sub() string {
	if c.Info == nil {
		return "not requested yet"
	}
	return strings.TrimSpace(c.Info.Vendor + " " + c.Info.Architecture)
}

// Warning is the banner text, empty on a hardware adapter.
func (c *AdapterPanel) Warning() string {
	if !c.Info.Software() {
		return ""
	}
	kind := "a fallback adapter"
	if c.Info.IsCPU {
		kind = "a CPU (software) adapter"
	}
	return "WARNING: " + kind + " (" + c.Sub() + "): every timing on this page measures a CPU emulating WebGPU, not a GPU. Use a hardware adapter for benchmarks."
}

// Items lists the identity fields.
func (c *AdapterPanel) Items() []KV {
	if c.Info == nil {
		return []KV{{Label: "adapter", Value: dash, Title: "navigator.gpu.requestAdapter() has not answered yet"}}
	}
	or := func(s string) string {
		if s == "" {
			return dash
		}
		return s
	}
	return []KV{
		{Label: "vendor", Value: or(c.Info.Vendor), Title: "GPUAdapterInfo.vendor"},
		{Label: "architecture", Value: or(c.Info.Architecture), Title: "GPUAdapterInfo.architecture"},
		{Label: "device", Value: or(c.Info.Device), Title: "GPUAdapterInfo.device"},
		{Label: "description", Value: or(c.Info.Description), Title: "GPUAdapterInfo.description"},
		{Label: "fallback", Value: YesNo(c.Info.IsFallback), Class: warnIf(c.Info.IsFallback), Title: "isFallbackAdapter: the browser's last-resort adapter (often software)"},
		{Label: "software / CPU", Value: YesNo(c.Info.IsCPU), Class: warnIf(c.Info.IsCPU), Title: "a software rasteriser on the CPU (SwiftShader, lavapipe, WARP)"},
	}
}

func warnIf(b bool) string {
	if b {
		return "num-warn"
	}
	return ""
}

// LimitsSummary labels the collapsible limits table.
func (c *AdapterPanel) LimitsSummary() string {
	if c.Info == nil {
		return "limits"
	}
	return strconv.Itoa(len(c.Info.Limits)) + " limits"
}

// Limits lists the device limits by name; byte sizes also in binary units.
func (c *AdapterPanel) Limits() []KV {
	if c.Info == nil {
		return nil
	}
	ls := make([]settings.Limit, len(c.Info.Limits))
	copy(ls, c.Info.Limits)
	sort.Slice(ls, func(i, j int) bool { return ls[i].Name < ls[j].Name })
	out := make([]KV, len(ls))
	for i, l := range ls {
		v := Thousands(l.Value)
		if strings.HasSuffix(l.Name, "Size") && l.Value >= 1024 {
			v += " (" + Bytes(l.Value) + ")"
		}
		out[i] = KV{Label: l.Name, Value: v, Title: l.Name + " = " + strconv.FormatUint(l.Value, 10)}
	}
	return out
}

// Features lists the device features, sorted.
func (c *AdapterPanel) Features() []string {
	if c.Info == nil {
		return nil
	}
	fs := append([]string(nil), c.Info.Features...)
	sort.Slice(fs, func(i, j int) bool { return fs[i] < fs[j] })
	return fs
}
