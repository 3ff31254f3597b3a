package capture

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ringscope/ringscope/decode/diagnose"
)

func stalledOn(tenant int) *diagnose.Diagnosis {
	c := diagnose.Cause{Kind: diagnose.MaskedTenant, Subject: diagnose.TenantSubject(tenant), Fix: "setTenantMask(0, true)"}
	return &diagnose.Diagnosis{Health: diagnose.Stalled, Causes: []diagnose.Cause{c}}
}

func TestVerdictLogKeepsOnlyChanges(t *testing.T) {
	var l verdictLog
	ok := &diagnose.Diagnosis{Health: diagnose.Progressing}
	l.observe(1, 10, ok)
	l.observe(2, 20, ok)
	l.observe(3, 30, stalledOn(0))
	l.observe(4, 40, stalledOn(0))
	l.observe(5, 50, stalledOn(1))
	l.observe(6, 60, ok)
	require.Len(t, l.list, 4)
	assert.Equal(t, []uint64{1, 3, 5, 6}, []uint64{l.list[0].Seq, l.list[1].Seq, l.list[2].Seq, l.list[3].Seq})
	got := l.since(4)
	require.Len(t, got, 3, "the verdict in force at seq 4 and those after")
	assert.Equal(t, uint64(3), got[0].Seq)
}

func TestMetricsAndTraceCarryTheVerdict(t *testing.T) {
	c := sample()
	c.Verdicts = []Verdict{{Seq: c.Frames[0].Seq, AtMillis: c.Frames[0].AtMillis, Health: diagnose.Progressing},
		{Seq: c.Frames[1].Seq, AtMillis: c.Frames[1].AtMillis, Health: diagnose.Stalled, Causes: stalledOn(0).Causes}}
	b, err := Metrics(c, nil, FormatOpenMetrics)
	require.NoError(t, err)
	text := string(b)
	assert.Contains(t, text, "# TYPE ringscope_health stateset\n")
	assert.Contains(t, text, `ringscope_health{ringscope_health="stalled"} 1`)
	assert.Contains(t, text, `ringscope_health{ringscope_health="progressing"} 0`)
	assert.Contains(t, text, `ringscope_cause{kind="masked-tenant"} 1`)
	assert.Contains(t, text, `ringscope_cause{kind="fault-storm"} 0`)
	checkOpenMetrics(t, text)
	p, err := Metrics(c, nil, FormatPrometheus)
	require.NoError(t, err)
	assert.Contains(t, string(p), "# TYPE ringscope_health gauge\n")

	tb, err := Trace(c)
	require.NoError(t, err)
	var tf struct {
		TraceEvents []struct {
			Name, Cat, Ph, S string
			Args             map[string]any
		}
	}
	require.NoError(t, json.Unmarshal(tb, &tf))
	var marks []string
	for _, e := range tf.TraceEvents {
		if e.Cat == "diagnosis" {
			assert.Equal(t, "i", e.Ph)
			marks = append(marks, e.Name+":"+strings.TrimSpace(toString(e.Args["cause"])))
			if e.Args["cause"] != nil {
				assert.Equal(t, 0.0, e.Args["tenant"])
				assert.Equal(t, "setTenantMask(0, true)", e.Args["fix"])
			}
		}
	}
	assert.Equal(t, []string{"health progressing:", "health stalled:masked-tenant"}, marks)
}

func toString(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	return ""
}
