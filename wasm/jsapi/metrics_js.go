//go:build js && wasm

package captureapi

import (
	"fmt"
	"syscall/js"
	"time"

	"github.com/ringscope/ringscope/wasm/api"
	"github.com/ringscope/ringscope/wasm/capture"
	"github.com/ringscope/ringscope/wasm/jsarg"
)

// The metrics export: exportMetrics({format}) in OpenMetrics text (the
// default) or the classic Prometheus text format, with run-wide counters
// (capture.Totals) that every live frame adds to.

// metricsFormats are exportMetrics' formats by name. "prometheus" is what
// promtool check metrics and a Pushgateway read; "openmetrics" what a
// scraper negotiating application/openmetrics-text reads.
var metricsFormats = map[string]string{"openmetrics": capture.ExportMetrics, "prometheus": capture.ExportPrometheus}

// apiExportMetrics: exportMetrics({format: "openmetrics" | "prometheus"})
// resolves to the metrics text.
func (a *Adapter) apiExportMetrics(args []js.Value) (any, error) {
	kind, err := metricsKind(jsarg.Arg(args, 0), "exportMetrics")
	if err != nil {
		return nil, err
	}
	b, _, err := a.studio.Export(kind, time.Now())
	return string(b), err
}

// metricsKind reads the format option into exportBytes' kind.
func metricsKind(o js.Value, what string) (string, error) {
	if err := jsarg.Known(o, &api.ExportMetricsOptions, what); err != nil {
		return "", err
	}
	v, err := jsarg.OptProp(o, what, "format")
	if err != nil || v.IsUndefined() || v.IsNull() {
		return capture.ExportMetrics, err
	}
	if jsarg.TypeName(v) != "string" {
		return "", fmt.Errorf("%s: format must be \"openmetrics\" or \"prometheus\", got %s", what, jsarg.TypeName(v))
	}
	f, err := jsarg.String(v, what+": format", jsarg.MaxName)
	if err != nil {
		return "", err
	}
	kind, ok := metricsFormats[f]
	if !ok {
		return "", fmt.Errorf("%s: format %q: want \"openmetrics\" or \"prometheus\"", what, f)
	}
	return kind, nil
}
