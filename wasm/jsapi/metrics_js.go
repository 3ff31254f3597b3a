//go:build js && wasm

package jsapi

import (
	"fmt"
	"syscall/js"
	"time"

	"github.com/ringscope/ringscope/wasm/api"
	"github.com/ringscope/ringscope/wasm/capture"
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
func (a *Capture) apiExportMetrics(args []js.Value) (any, error) {
	kind, err := metricsKind(Arg(args, 0), "exportMetrics")
	if err != nil {
		return nil, err
	}
	b, _, err := a.studio.Export(kind, time.Now())
	return string(b), err
}

// metricsKind reads the format option into Studio.Export's kind.
func metricsKind(o js.Value, what string) (string, error) {
	if err := Known(o, &api.ExportMetricsOptions, what); err != nil {
		return "", err
	}
	v, err := OptProp(o, what, "format")
	if err != nil || v.IsUndefined() || v.IsNull() {
		return capture.ExportMetrics, err
	}
	if TypeName(v) != "string" {
		return "", fmt.Errorf("%s: format must be \"openmetrics\" or \"prometheus\", got %s", what, TypeName(v))
	}
	f, err := String(v, what+": format", MaxName)
	if err != nil {
		return "", err
	}
	kind, ok := metricsFormats[f]
	if !ok {
		return "", fmt.Errorf("%s: format %q: want \"openmetrics\" or \"prometheus\"", what, f)
	}
	return kind, nil
}
