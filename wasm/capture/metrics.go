package capture

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/ringscope/ringscope/decode"
)

// Format is a metrics text format.
type Format int

const (
	// FormatOpenMetrics is application/openmetrics-text; version=1.0.0:
	// families named without _total, # UNIT lines, ending "# EOF".
	FormatOpenMetrics Format = iota
	// FormatPrometheus is the classic text/plain; version=0.0.4, which
	// promtool check metrics and the Pushgateway read: HELP before TYPE,
	// counter families named with their _total suffix, no UNIT, no EOF.
	FormatPrometheus
)

// ContentType is the format's media type.
func (f Format) ContentType() string {
	if f == FormatPrometheus {
		return "text/plain; version=0.0.4; charset=utf-8"
	}
	return "application/openmetrics-text; version=1.0.0; charset=utf-8"
}

// OpenMetrics renders a snapshot of c's counters as OpenMetrics text, the
// run totals those of c's frames (Metrics).
func OpenMetrics(c *Capture) ([]byte, error) { return Metrics(c, nil, FormatOpenMetrics) }

// Metrics renders a snapshot of c's counters in format f: the control
// buffer and ring of the newest frame, the frames held (gauges, since they
// follow the recorder's window), and the run's dispatch totals (counters:
// run, or TotalsOf(c) when run is nil). Names follow the Prometheus
// conventions (ringscope_ prefix, _total on counters, units as suffixes);
// every family has HELP and TYPE lines.
func Metrics(c *Capture, run *Totals, f Format) ([]byte, error) {
	r, err := NewReplay(c)
	if err != nil {
		return nil, err
	}
	w := metricsWriter{prom: f == FormatPrometheus}
	w.gauge("ringscope_capture_frames", "", "Frames held by the capture.", float64(r.Len()))
	w.gauge("ringscope_capture_dropped_frames", "", "Older frames the recorder evicted or thinned to stay within its memory bound.", float64(c.Header.DroppedFrames))
	cov := CoverageOf(c.Frames)
	w.gauge("ringscope_capture_first_seq", "", "Seq of the oldest frame the capture holds (0: none).", float64(cov.FirstSeq))
	w.gauge("ringscope_capture_last_seq", "", "Seq of the newest frame the capture holds (0: none).", float64(cov.LastSeq))
	w.gauge("ringscope_capture_span_seconds", "seconds", "Page time from the oldest frame the capture holds to the newest.", cov.SpanMillis/1000)
	w.gauge("ringscope_capture_missing_frames", "", "Frames between the oldest and the newest that the capture does not hold (thinned, or not recorded).", float64(cov.Missing))
	w.gauge("ringscope_capture_compact_frames", "", "Frames the capture holds without their slots (the recorder's thinned history).", float64(cov.Compact()))
	w.verdict(c.Verdicts)
	if r.Len() == 0 {
		w.totals(c, run)
		return w.done(), nil
	}
	last := r.Len() - 1
	var d Decoded
	if err := r.Decode(last, &d); err != nil {
		return nil, err
	}
	ctl := &d.Ring.Control
	legacy := 0.0
	if ctl.Legacy {
		legacy = 1
	}
	w.gauge("ringscope_legacy_dump", "", "1 when the control buffer is a legacy vyre dump (MAGIC = 0).", legacy)
	w.gauge("ringscope_generation", "", "GENERATION: bumped whenever the host re-initialises the ring.", float64(ctl.Generation))
	w.gauge("ringscope_epoch", "", "EPOCH: BATCH_FENCE opcodes executed in this generation.", float64(ctl.Epoch))
	w.counter("ringscope_done", "", "Slots that reached a terminal status (DONE_COUNT) in this generation.", float64(ctl.DoneCount))
	w.counter("ringscope_claims", "", "Slots claimed by the megakernel (CLAIMS).", float64(ctl.Claims))
	w.counter("ringscope_faults", "", "Slots that ended in FAULT (FAULTS).", float64(ctl.Faults))
	w.counter("ringscope_denied", "", "Claims refused because the tenant's mask is 0 (DENIED).", float64(ctl.Denied))
	w.counter("ringscope_dispatches", "", "Drain dispatches (DISPATCHES).", float64(ctl.Dispatches))
	w.counter("ringscope_budget_exhausted", "", "Lanes that stopped on their claim budget while work remained (BUDGET_EXHAUSTED).", float64(ctl.BudgetExhausted))

	o := d.Ring.Occupancy
	w.family("ringscope_slots", "gauge", "", "Ring slots by STATUS word.")
	for s, v := range o {
		w.sample("ringscope_slots", `status="`+decode.Status(s).Label(decode.StatusSnake)+`"`, float64(v))
	}
	w.gauge("ringscope_queue_depth", "", "Slots that are neither EMPTY nor DONE.", float64(d.Counters.QueueDepth))
	w.gauge("ringscope_frontier_density_ratio", "ratio", "Queue depth over total slots.", float64(d.Counters.FrontierDensityBps)/10000)
	w.gauge("ringscope_gpu_idle_ratio", "ratio", "EMPTY slots over total slots.", float64(d.Counters.GPUIdlePPM)/1e6)

	w.family("ringscope_tenant_claims", "counter", "", "Claims per tenant (TENANT_CLAIMS, tenant id mod 32).")
	for t, v := range ctl.TenantFairness {
		if v != 0 {
			w.sample("ringscope_tenant_claims_total", `tenant="`+strconv.Itoa(t)+`"`, float64(v))
		}
	}
	w.family("ringscope_priority_claims", "counter", "", "Claims per priority level (PRIORITY_CLAIMS).")
	for p, v := range ctl.PriorityFairness {
		w.sample("ringscope_priority_claims_total", `priority="`+priorityNames[p]+`"`, float64(v))
	}
	w.family("ringscope_opcode_executions", "counter", "", "Executions per opcode below 32 (OPCODE_METRICS); user opcodes carry their name.")
	for _, m := range ctl.Metrics {
		labels := `opcode="` + strconv.FormatUint(uint64(m.Opcode), 10) + `"`
		if name := c.Header.UserOpcodeName(m.Opcode); name != "" {
			labels += `,name="` + name + `"` // a WGSL identifier: nothing to escape
		}
		w.sample("ringscope_opcode_executions_total", labels, float64(m.Count))
	}
	if !ctl.Legacy {
		w.family("ringscope_partition_pending", "gauge", "", "Items published and not yet claimed per priority partition (TAIL − HEAD).")
		for p := range ctl.Heads {
			w.sample("ringscope_partition_pending", `priority="`+priorityNames[p]+`"`, float64(ctl.Tails[p]-ctl.Heads[p]))
		}
	}
	if d.HasLog {
		w.gauge("ringscope_log_records", "", "Log records the newest frame holds.", float64(len(d.Log.Records)))
		w.gauge("ringscope_log_dropped_records", "", "Log records dropped because the log was full (CURSOR − CAPACITY).", float64(d.Log.Dropped))
	}

	w.totals(c, run)
	return w.done(), nil
}

// totals writes the dispatch families: the capture's window as gauges,
// the run's totals as counters.
func (w *metricsWriter) totals(c *Capture, run *Totals) {
	window := captureTotals(c)
	w.gauge("ringscope_capture_dispatches", "", "Dispatches among the frames the capture holds (follows the recorder's window).", float64(window.DispatchCount))
	w.gauge("ringscope_peak_device_bytes", "bytes", "Largest estimated peak device memory of a dispatch the capture holds.", float64(window.PeakDeviceBytes))
	t := run
	if t == nil {
		all := TotalsOf(c)
		t = &all
	}
	w.counter("ringscope_run_dispatches", "", "Dispatches the page observed in this run (every live frame, recorded or not).", float64(t.Dispatches))
	w.counter("ringscope_bytes_uploaded", "", "Bytes written to the device by the run's dispatches.", float64(t.BytesUploaded))
	w.counter("ringscope_bytes_read_back", "", "Bytes read back from the device by the run's dispatches.", float64(t.BytesReadBack))
	w.counter("ringscope_kernel_launches", "", "Compute dispatches issued by the run's dispatches.", float64(t.KernelLaunches))
	w.counter("ringscope_sync_points", "", "Host-visible waits of the run's dispatches.", float64(t.SyncPoints))
	w.counter("ringscope_pipeline_cache_hits", "", "The run's dispatches that reused a compiled pipeline.", float64(t.PipelineCacheHits))
	w.counter("ringscope_round_trip_seconds", "seconds", "Submit-to-readback wall time of the run's dispatches.", t.RoundTripMS/1000)
	w.counter("ringscope_gpu_seconds", "seconds", "Device time of the run's dispatches from timestamp queries (0 without them).", t.GPUMS/1000)
	if t.Waits != nil {
		w.waits(t.Waits)
	}
}

// captureTotals sums the dispatches of every frame.
func captureTotals(c *Capture) decode.MegakernelReport {
	var rep decode.MegakernelReport
	for i := range c.Frames {
		if d := c.Frames[i].Meta.Dispatch; d != nil {
			rep.Add(d.Telemetry())
		}
	}
	return rep
}

// metricsWriter writes families in OpenMetrics text, or with prom set in
// the classic Prometheus text format.
type metricsWriter struct {
	b    strings.Builder
	prom bool
}

// family starts a family: name is its OpenMetrics name (a counter's
// without _total).
func (w *metricsWriter) family(name, typ, unit, help string) {
	if w.prom {
		if typ == "counter" {
			name += "_total"
		}
		fmt.Fprintf(&w.b, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, typ)
		return
	}
	fmt.Fprintf(&w.b, "# TYPE %s %s\n", name, typ)
	if unit != "" {
		fmt.Fprintf(&w.b, "# UNIT %s %s\n", name, unit)
	}
	fmt.Fprintf(&w.b, "# HELP %s %s\n", name, help)
}

func (w *metricsWriter) sample(name, labels string, v float64) {
	w.b.WriteString(name)
	if labels != "" {
		w.b.WriteString("{" + labels + "}")
	}
	w.b.WriteString(" " + formatValue(v) + "\n")
}

// formatValue writes integers in full ("1120832", not "1.120832e+06"),
// other values in the shortest exact form.
func formatValue(v float64) string {
	if v == math.Trunc(v) && math.Abs(v) < 1e18 {
		return strconv.FormatFloat(v, 'f', -1, 64)
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

func (w *metricsWriter) gauge(name, unit, help string, v float64) {
	w.family(name, "gauge", unit, help)
	w.sample(name, "", v)
}

func (w *metricsWriter) counter(name, unit, help string, v float64) {
	w.family(name, "counter", unit, help)
	w.sample(name+"_total", "", v)
}

func (w *metricsWriter) done() []byte {
	if !w.prom {
		w.b.WriteString("# EOF\n")
	}
	return []byte(w.b.String())
}
