package capture

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ringscope/ringscope/decode"
)

// A recorder that evicts frames must not make a counter go down: the
// counters are run-wide Totals, the window's sums are gauges. With the
// window sums as counters (before issue 22), bytes uploaded went from
// 3×640 to 2×640 here once the recorder held its three frames and evicted.
func TestMetricsCountersNeverDecrease(t *testing.T) {
	rec := NewRecorder(3, 0)
	base := sample().Frames
	var run Totals
	last := map[string]float64{}
	for i := range 12 {
		f := base[i%len(base)]
		f.Seq, f.AtMillis = uint64(i+1), float64(100+16*i)
		f.Control = control(2, 8, uint32(3+i), uint32(i/4))
		f.Ring = ring(8, 1, 3)
		run.Add(&f.Meta)
		require.True(t, rec.Record(&f))
		c := &Capture{Header: Header{Source: SourceLive, DroppedFrames: rec.Dropped()}, Frames: rec.Frames()}
		b, err := Metrics(c, &run, FormatOpenMetrics)
		require.NoError(t, err)
		v := checkOpenMetrics(t, string(b))
		for name, x := range v {
			if !strings.Contains(name, "_total") {
				continue
			}
			assert.GreaterOrEqual(t, x, last[name], "frame %d: %s went down", i+1, name)
			last[name] = x
		}
		assert.EqualValues(t, 640*(i+1), v["ringscope_bytes_uploaded_total"], "frame %d", i+1)
		assert.EqualValues(t, min(i+1, 3), v["ringscope_capture_dispatches"], "frame %d: the window is a gauge", i+1)
	}
	assert.EqualValues(t, 9, rec.Dropped())
	assert.InDelta(t, 4*(2.5+3+2)/1000, last["ringscope_round_trip_seconds_total"], 1e-12)
}

// The Prometheus text form: HELP then TYPE for every family, counter
// families named with _total, no UNIT and no EOF; promtool (Debian's
// prometheus package, which make setup installs) lints it.
func TestMetricsPrometheusFormat(t *testing.T) {
	b, err := Metrics(sample(), nil, FormatPrometheus)
	require.NoError(t, err)
	text := string(b)
	assert.NotContains(t, text, "# EOF")
	assert.NotContains(t, text, "# UNIT")
	help := regexp.MustCompile(`^# HELP ([a-z_]+) .+$`)
	typ := regexp.MustCompile(`^# TYPE ([a-z_]+) (counter|gauge)$`)
	sc := bufio.NewScanner(strings.NewReader(text))
	families, prev := 0, ""
	for sc.Scan() {
		line := sc.Text()
		if m := typ.FindStringSubmatch(line); m != nil {
			require.Equal(t, prev, m[1], "TYPE %s follows its HELP", m[1])
			if m[2] == "counter" {
				assert.True(t, strings.HasSuffix(m[1], "_total"), "counter family %s", m[1])
			}
			families++
		}
		prev = ""
		if m := help.FindStringSubmatch(line); m != nil {
			prev = m[1]
		}
	}
	assert.Greater(t, families, 25)
	assert.Contains(t, text, "\n# HELP ringscope_done_total ")
	assert.Contains(t, text, "\nringscope_done_total 8\n")

	promtoolCheck(t, b)
}

// promtoolCheck lints b, the Prometheus text form, with promtool.
func promtoolCheck(t *testing.T, b []byte) {
	t.Helper()
	promtool, err := exec.LookPath("promtool")
	if err != nil {
		t.Skip("promtool is not installed (make setup installs Debian's prometheus package)")
	}
	path := filepath.Join(t.TempDir(), "metrics.prom")
	require.NoError(t, os.WriteFile(path, b, 0o644))
	in, err := os.Open(path)
	require.NoError(t, err)
	defer in.Close()
	cmd := exec.Command(promtool, "check", "metrics")
	cmd.Stdin = in
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "promtool check metrics: %s", out)
}

// The live run's queue waits: a summary and two gauges per tenant that
// published and per priority, in seconds, which promtool accepts.
func TestMetricsQueueWaits(t *testing.T) {
	var run Totals
	var wt decode.WaitTimes
	wt.Tenant[3] = decode.WaitStats{Count: 10, P50: 16, P99: 48, Max: 50, Sum: 200, Waiting: 2, OldestAge: 1500}
	wt.Priority[0] = decode.WaitStats{Waiting: 2, OldestAge: 1500}
	wt.Priority[2] = decode.WaitStats{Count: 10, P50: 16, P99: 48, Max: 50, Sum: 200}
	run.Waits = &wt
	b, err := Metrics(sample(), &run, FormatOpenMetrics)
	require.NoError(t, err)
	v := checkOpenMetrics(t, string(b))
	assert.InDelta(t, 0.048, v[`ringscope_tenant_queue_wait_seconds{tenant="3",quantile="0.99"}`], 1e-12)
	assert.InDelta(t, 0.05, v[`ringscope_tenant_queue_wait_seconds{tenant="3",quantile="1"}`], 1e-12)
	assert.InDelta(t, 0.2, v[`ringscope_tenant_queue_wait_seconds_sum{tenant="3"}`], 1e-12)
	assert.EqualValues(t, 10, v[`ringscope_tenant_queue_wait_seconds_count{tenant="3"}`])
	assert.EqualValues(t, 2, v[`ringscope_tenant_queue_waiting{tenant="3"}`])
	assert.InDelta(t, 1.5, v[`ringscope_priority_queue_oldest_age_seconds{priority="critical"}`], 1e-12)
	assert.Contains(t, v, `ringscope_priority_queue_waiting{priority="idle"}`, "every priority, waiting or not")
	assert.NotContains(t, v, `ringscope_tenant_queue_waiting{tenant="0"}`, "only the tenants that published")
	assert.Contains(t, string(b), "# UNIT ringscope_tenant_queue_wait_seconds seconds\n")

	prom, err := Metrics(sample(), &run, FormatPrometheus)
	require.NoError(t, err)
	assert.Contains(t, string(prom), "# TYPE ringscope_priority_queue_wait_seconds summary\n")
	promtoolCheck(t, prom)

	none, err := Metrics(sample(), nil, FormatOpenMetrics)
	require.NoError(t, err)
	assert.NotContains(t, string(none), "queue_wait", "a capture file has no waits")
}
