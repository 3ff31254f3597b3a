package api

import (
	"errors"
	"fmt"
	"reflect"
	"strconv"
	"strings"

	"github.com/ringscope/ringscope/decode"
	"github.com/ringscope/ringscope/internal/pushlabel"
	"github.com/ringscope/ringscope/settings"
	"github.com/ringscope/ringscope/webgpu"
)

// URL parameters of the page, so a link reproduces a view. Unknown
// parameters are ignored (other tools may add their own); a known one with a
// bad value is an error naming it.
const (
	ParamPreset    = "preset"    // a workload preset name (settings.PresetNames)
	ParamSlots     = "slots"     // ring size in slots
	ParamTenants   = "tenants"   // tenant ids used by the workload
	ParamBudget    = "budget"    // claim iterations per lane per dispatch
	ParamWorkgroup = "wg"        // workgroup width: 64, 128 or 256
	ParamWorkers   = "workers"   // worker-group cap, 0 = derive
	ParamWindows   = "windows"   // window opcodes, comma separated
	ParamSketch    = "sketch"    // sketch shape, DEPTHxWIDTH
	ParamAutostart = "autostart" // 0: load without running the default workload
	ParamSeed      = "seed"      // workload seed
	ParamReadback  = "readback"  // auto, summary or full (decode.PageReadbacks)
	ParamLog       = "log"       // log capacity: records a generation keeps
	ParamTrace     = "trace"     // trace capacity, records per submission, 0: off
	ParamJob       = "job"       // ?push's Pushgateway job label
	ParamInstance  = "instance"  // ?push's Pushgateway instance label
)

// PageConfig is what the URL asks of the page.
type PageConfig struct {
	Settings  settings.Settings
	Autostart bool
	Seed      uint64
}

// ParseQuery reads the page's URL parameters q (ParseQueryString's result,
// or a url.Values) over the defaults: a preset first, then every explicit
// parameter on top of it.
func ParseQuery(q map[string][]string) (PageConfig, error) {
	cfg := PageConfig{Settings: settings.DefaultSettings(), Autostart: true, Seed: 1}
	if name := first(q, ParamPreset); name != "" {
		p, ok := settings.PresetByName(name)
		if !ok {
			return cfg, fmt.Errorf("URL parameter %s=%q: unknown preset (want one of %s)", ParamPreset, name, strings.Join(settings.PresetNames(), ", "))
		}
		cfg.Settings = p.Settings
	}
	s := &cfg.Settings
	ints := []struct {
		name string
		dst  *int
	}{{ParamSlots, &s.RingSlots}, {ParamTenants, &s.Tenants}, {ParamBudget, &s.Budget}, {ParamWorkgroup, &s.WorkgroupSizeX}, {ParamWorkers, &s.WorkerCap}, {ParamLog, &s.LogCapacity}, {ParamTrace, &s.TraceCapacity}}
	for _, p := range ints {
		if v := first(q, p.name); v != "" {
			n, err := strconv.Atoi(v)
			if err != nil {
				return cfg, numberError(p.name, v, err, "not an integer")
			}
			*p.dst = n
		}
	}
	if _, ok := q[ParamBudget]; !ok && s.RingSlots > 0 && s.WorkgroupSizeX > 0 {
		s.FitBudget() // the preset's budget, fitted to the ring the URL asked for
	}
	if v, ok := q[ParamWindows]; ok {
		s.WindowOpcodes = strings.Join(v, ",")
	}
	if v := first(q, ParamSketch); v != "" {
		d, w, ok := strings.Cut(strings.ToLower(v), "x")
		depth, err1 := strconv.Atoi(d)
		width, err2 := strconv.Atoi(w)
		if !ok || err1 != nil || err2 != nil {
			return cfg, fmt.Errorf("URL parameter %s=%q: want DEPTHxWIDTH, for example 4x128", ParamSketch, v)
		}
		s.SketchDepth, s.SketchWidth = depth, width
	}
	if v, ok := q[ParamReadback]; ok {
		r, ok := decode.ParseReadback(strings.ToLower(strings.TrimSpace(strings.Join(v, ","))))
		if !ok {
			return cfg, fmt.Errorf("URL parameter %s=%q: want one of %s", ParamReadback, strings.Join(v, ","), decode.ReadbackNames())
		}
		s.Readback = r
	}
	if v := first(q, ParamSeed); v != "" {
		n, err := strconv.ParseUint(v, 0, 64)
		if err != nil {
			return cfg, numberError(ParamSeed, v, err, "not an unsigned integer")
		}
		cfg.Seed = n
	}
	// ?push's labels: refused here, as every bad parameter, rather than
	// only on the console once the page pushes.
	for _, name := range []string{ParamJob, ParamInstance} {
		if v := first(q, name); v != "" && !pushlabel.Valid(v) { // "": the default
			return cfg, fmt.Errorf("URL parameter %s=%q: want 1…128 of A-Z a-z 0-9 _ . : -, not . or ..", name, v)
		}
	}
	switch first(q, ParamAutostart) {
	case "", "1", "true":
	case "0", "false":
		cfg.Autostart = false
	default:
		return cfg, fmt.Errorf("URL parameter %s=%q: want 0 or 1", ParamAutostart, first(q, ParamAutostart))
	}
	if errs := s.Validate(); len(errs) > 0 {
		return cfg, paramError(q, settingParams[errs[0].Field], errs[0].Message)
	}
	return cfg, nil
}

// numberError says why parameter name=v did not parse: out of range (an
// integer too large), else what (not an integer).
func numberError(name, v string, err error, what string) error {
	if errors.Is(err, strconv.ErrRange) {
		what = "out of range"
	}
	return fmt.Errorf("URL parameter %s=%q: %s", name, v, what)
}

// settingParams maps a settings.Settings field to its URL parameter.
var settingParams = map[string]string{
	"RingSlots": ParamSlots, "Tenants": ParamTenants, "Budget": ParamBudget, "WorkgroupSizeX": ParamWorkgroup,
	"WorkerCap": ParamWorkers, "WindowOpcodes": ParamWindows, "SketchDepth": ParamSketch, "SketchWidth": ParamSketch,
	"Readback": ParamReadback, "LogCapacity": ParamLog, "TraceCapacity": ParamTrace,
}

// optionParams maps a megakernel.Options field (OptionError.Field) to the
// URL parameter that sets it.
var optionParams = map[string]string{
	"Slots": ParamSlots, "Tenants": ParamTenants, "Masks": ParamTenants, "Budget": ParamBudget,
	"WorkgroupSize": ParamWorkgroup, "WorkerGroups": ParamWorkers, "WindowOpcodes": ParamWindows,
	"Summary.Depth": ParamSketch, "Summary.Width": ParamSketch, "Readback": ParamReadback, "LogCapacity": ParamLog, "TraceCapacity": ParamTrace,
}

// paramError names the URL parameter behind a refused setting, with the
// value the URL gave it; when the URL did not set it (a preset did), it
// says "URL parameters".
func paramError(q map[string][]string, param, msg string) error {
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
func OptionParamError(q map[string][]string, field string, err error) error {
	param := optionParams[field]
	if param != "" {
		if v, ok := q[param]; ok {
			return fmt.Errorf("URL parameter %s=%q: %w", param, strings.Join(v, ","), err)
		}
	}
	return fmt.Errorf("URL parameters: %w", err)
}

// Query encodes cfg as URL parameters, one value each (convertible to
// url.Values): ParseQuery(Query(cfg)) == cfg.
func Query(cfg PageConfig) map[string][]string {
	s := cfg.Settings
	q := map[string][]string{}
	q[ParamPreset] = []string{s.Preset}
	q[ParamSlots] = []string{strconv.Itoa(s.RingSlots)}
	q[ParamTenants] = []string{strconv.Itoa(s.Tenants)}
	q[ParamBudget] = []string{strconv.Itoa(s.Budget)}
	q[ParamWorkgroup] = []string{strconv.Itoa(s.WorkgroupSizeX)}
	q[ParamWorkers] = []string{strconv.Itoa(s.WorkerCap)}
	q[ParamWindows] = []string{s.WindowOpcodes}
	q[ParamSketch] = []string{fmt.Sprintf("%dx%d", s.SketchDepth, s.SketchWidth)}
	q[ParamLog] = []string{strconv.Itoa(s.LogCapacity)}
	q[ParamSeed] = []string{strconv.FormatUint(cfg.Seed, 10)}
	q[ParamReadback] = []string{s.Readback.String()}
	if !cfg.Autostart {
		q[ParamAutostart] = []string{"0"}
	}
	return q
}

// Adapter copies what the dashboard shows of an adapter and its device's
// limits (the components cannot import the binding).
func Adapter(info webgpu.AdapterInfo, isFallback, isCPU bool, limits webgpu.Limits, features []string) *settings.AdapterInfo {
	a := &settings.AdapterInfo{
		Vendor: info.Vendor, Architecture: info.Architecture, Device: info.Device, Description: info.Description,
		IsFallback: isFallback, IsCPU: isCPU, Features: append([]string(nil), features...),
	}
	v := reflect.ValueOf(limits)
	for i := range v.NumField() {
		if f := v.Field(i); f.CanUint() {
			a.Limits = append(a.Limits, settings.Limit{Name: LowerCamel(v.Type().Field(i).Name), Value: f.Uint()})
		}
	}
	return a
}
