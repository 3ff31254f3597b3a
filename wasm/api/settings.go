package api

import (
	"fmt"
	"net/url"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/ringscope/ringscope/ui"
	"github.com/ringscope/ringscope/webgpu"
)

// URL parameters of the page, so a link reproduces a view. Unknown
// parameters are ignored (other tools may add their own); a known one with a
// bad value is an error naming it.
const (
	ParamPreset    = "preset"    // a workload preset name (ui.PresetNames)
	ParamSlots     = "slots"     // ring size in slots
	ParamTenants   = "tenants"   // tenant ids used by the workload
	ParamBudget    = "budget"    // claim iterations per lane per dispatch
	ParamWorkgroup = "wg"        // workgroup width: 64, 128 or 256
	ParamWorkers   = "workers"   // worker-group cap, 0 = derive
	ParamWindows   = "windows"   // window opcodes, comma separated
	ParamSketch    = "sketch"    // sketch shape, DEPTHxWIDTH
	ParamAutostart = "autostart" // 0: load without running the default workload
	ParamSeed      = "seed"      // workload seed
	ParamReadback  = "readback"  // auto, summary or full (ui.ReadbackModes)
)

// PageConfig is what the URL asks of the page.
type PageConfig struct {
	Settings  ui.Settings
	Autostart bool
	Seed      uint64
}

// ParseQuery reads the page's URL parameters over the defaults: a preset
// first, then every explicit parameter on top of it.
func ParseQuery(q url.Values) (PageConfig, error) {
	cfg := PageConfig{Settings: ui.DefaultSettings(), Autostart: true, Seed: 1}
	if name := q.Get(ParamPreset); name != "" {
		p, ok := ui.PresetByName(name)
		if !ok {
			return cfg, fmt.Errorf("URL parameter %s=%q: unknown preset (want one of %s)", ParamPreset, name, strings.Join(ui.PresetNames(), ", "))
		}
		cfg.Settings = p.Settings
	}
	s := &cfg.Settings
	ints := []struct {
		name string
		dst  *int
	}{{ParamSlots, &s.RingSlots}, {ParamTenants, &s.Tenants}, {ParamBudget, &s.Budget}, {ParamWorkgroup, &s.WorkgroupSizeX}, {ParamWorkers, &s.WorkerCap}}
	for _, p := range ints {
		if v := q.Get(p.name); v != "" {
			n, err := strconv.Atoi(v)
			if err != nil {
				return cfg, fmt.Errorf("URL parameter %s=%q: not an integer", p.name, v)
			}
			*p.dst = n
		}
	}
	if v, ok := q[ParamWindows]; ok {
		s.WindowOpcodes = strings.Join(v, ",")
	}
	if v := q.Get(ParamSketch); v != "" {
		d, w, ok := strings.Cut(strings.ToLower(v), "x")
		depth, err1 := strconv.Atoi(d)
		width, err2 := strconv.Atoi(w)
		if !ok || err1 != nil || err2 != nil {
			return cfg, fmt.Errorf("URL parameter %s=%q: want DEPTHxWIDTH, for example 4x128", ParamSketch, v)
		}
		s.SketchDepth, s.SketchWidth = depth, width
	}
	if v, ok := q[ParamReadback]; ok {
		s.Readback = strings.ToLower(strings.TrimSpace(strings.Join(v, ",")))
		if !slices.Contains(ui.ReadbackModes, s.Readback) {
			return cfg, fmt.Errorf("URL parameter %s=%q: want one of %s", ParamReadback, strings.Join(v, ","), strings.Join(ui.ReadbackModes, ", "))
		}
	}
	if v := q.Get(ParamSeed); v != "" {
		n, err := strconv.ParseUint(v, 0, 64)
		if err != nil {
			return cfg, fmt.Errorf("URL parameter %s=%q: not an unsigned integer", ParamSeed, v)
		}
		cfg.Seed = n
	}
	switch q.Get(ParamAutostart) {
	case "", "1", "true":
	case "0", "false":
		cfg.Autostart = false
	default:
		return cfg, fmt.Errorf("URL parameter %s=%q: want 0 or 1", ParamAutostart, q.Get(ParamAutostart))
	}
	if errs := s.Validate(); len(errs) > 0 {
		return cfg, paramError(q, settingParams[errs[0].Field], errs[0].Message)
	}
	return cfg, nil
}

// settingParams maps a ui.Settings field to its URL parameter.
var settingParams = map[string]string{
	"RingSlots": ParamSlots, "Tenants": ParamTenants, "Budget": ParamBudget, "WorkgroupSizeX": ParamWorkgroup,
	"WorkerCap": ParamWorkers, "WindowOpcodes": ParamWindows, "SketchDepth": ParamSketch, "SketchWidth": ParamSketch,
	"Readback": ParamReadback,
}

// optionParams maps a megakernel.Options field (OptionError.Field) to the
// URL parameter that sets it.
var optionParams = map[string]string{
	"Slots": ParamSlots, "Tenants": ParamTenants, "Masks": ParamTenants, "Budget": ParamBudget,
	"WorkgroupSize": ParamWorkgroup, "WorkerGroups": ParamWorkers, "WindowOpcodes": ParamWindows,
	"Summary.Depth": ParamSketch, "Summary.Width": ParamSketch, "RingReadback": ParamReadback,
}

// paramError names the URL parameter behind a refused setting, with the
// value the URL gave it; when the URL did not set it (a preset did), it
// says "URL parameters".
func paramError(q url.Values, param, msg string) error {
	if param != "" {
		if v, ok := q[param]; ok {
			return fmt.Errorf("URL parameter %s=%q: %s", param, strings.Join(v, ","), msg)
		}
	}
	return fmt.Errorf("URL parameters: %s", msg)
}

// OptionParamError explains a runner's refusal (an *megakernel.OptionError
// with its field, or an out-of-memory plan: field "Slots") of settings
// that came from URL parameters q, naming the parameter.
func OptionParamError(q url.Values, field string, err error) error {
	param := optionParams[field]
	if param != "" {
		if v, ok := q[param]; ok {
			return fmt.Errorf("URL parameter %s=%q: %w", param, strings.Join(v, ","), err)
		}
	}
	return fmt.Errorf("URL parameters: %w", err)
}

// Query encodes cfg as URL parameters: ParseQuery(Query(cfg)) == cfg.
func Query(cfg PageConfig) url.Values {
	s := cfg.Settings
	q := url.Values{}
	q.Set(ParamPreset, s.Preset)
	q.Set(ParamSlots, strconv.Itoa(s.RingSlots))
	q.Set(ParamTenants, strconv.Itoa(s.Tenants))
	q.Set(ParamBudget, strconv.Itoa(s.Budget))
	q.Set(ParamWorkgroup, strconv.Itoa(s.WorkgroupSizeX))
	q.Set(ParamWorkers, strconv.Itoa(s.WorkerCap))
	q.Set(ParamWindows, s.WindowOpcodes)
	q.Set(ParamSketch, fmt.Sprintf("%dx%d", s.SketchDepth, s.SketchWidth))
	q.Set(ParamSeed, strconv.FormatUint(cfg.Seed, 10))
	if s.Readback != "" {
		q.Set(ParamReadback, s.Readback)
	}
	if !cfg.Autostart {
		q.Set(ParamAutostart, "0")
	}
	return q
}

// Adapter copies what the dashboard shows of an adapter and its device's
// limits (ui cannot import the binding).
func Adapter(info webgpu.AdapterInfo, isFallback, isCPU bool, limits webgpu.Limits, features []string) *ui.AdapterInfo {
	a := &ui.AdapterInfo{
		Vendor: info.Vendor, Architecture: info.Architecture, Device: info.Device, Description: info.Description,
		IsFallback: isFallback, IsCPU: isCPU, Features: append([]string(nil), features...),
	}
	v := reflect.ValueOf(limits)
	for i := range v.NumField() {
		if f := v.Field(i); f.CanUint() {
			a.Limits = append(a.Limits, ui.Limit{Name: LowerCamel(v.Type().Field(i).Name), Value: f.Uint()})
		}
	}
	return a
}
