package capture

import (
	"github.com/ringscope/ringscope/decode/diagnose"
)

// Verdict is the diagnosis at one frame where it changed: the health or
// the set of active causes. A capture's Verdicts are the live page's, in
// frame order; the trace marks each with an instant event and the
// metrics report the newest; a replay of the recording shows the one in
// force at each frame (Replay.Frame). They are not written to .rscap
// files (a replayed capture has no host facts to be diagnosed with), but
// a hang capture's task section keeps the hang's health and cause kinds.
type Verdict struct {
	Seq      uint64
	AtMillis float64
	Health   diagnose.Health
	Causes   []diagnose.Cause
}

// MaxVerdicts bounds the verdicts a Studio keeps; the oldest go first.
const MaxVerdicts = 4096

// verdictLog keeps the verdicts of the live frames where the diagnosis
// changed. It allocates only at a change.
type verdictLog struct {
	list []Verdict
}

// observe records d at seq when it differs from the last verdict.
func (l *verdictLog) observe(seq uint64, at float64, d *diagnose.Diagnosis) {
	if d == nil {
		return
	}
	if n := len(l.list); n > 0 && sameVerdict(&l.list[n-1], d) {
		return
	}
	if len(l.list) == MaxVerdicts {
		l.list = append(l.list[:0], l.list[1:]...)
	}
	c := d.Clone()
	l.list = append(l.list, Verdict{Seq: seq, AtMillis: at, Health: c.Health, Causes: c.Causes})
}

// since returns the verdicts from the one in force at seq on (nil when
// none).
func (l *verdictLog) since(seq uint64) []Verdict {
	i := len(l.list)
	for i > 0 && l.list[i-1].Seq > seq {
		i--
	}
	return append([]Verdict(nil), l.list[max(i-1, 0):]...)
}

func sameVerdict(v *Verdict, d *diagnose.Diagnosis) bool {
	if v.Health != d.Health || len(v.Causes) != len(d.Causes) {
		return false
	}
	for i := range v.Causes {
		if v.Causes[i].Kind != d.Causes[i].Kind || v.Causes[i].Subject.Tenant != d.Causes[i].Subject.Tenant ||
			v.Causes[i].Subject.Priority != d.Causes[i].Subject.Priority || v.Causes[i].Subject.Opcode != d.Causes[i].Subject.Opcode {
			return false
		}
	}
	return true
}

// verdict writes the newest verdict: the health as a StateSet
// (a gauge per state in the classic format) and every cause kind as a
// gauge, 1 while a cause of that kind is active.
func (w *metricsWriter) verdict(vs []Verdict) {
	if len(vs) == 0 {
		return
	}
	v := &vs[len(vs)-1]
	typ := "stateset"
	if w.prom {
		typ = "gauge"
	}
	w.family("ringscope_health", typ, "", "The diagnosis's health (docs/DIAGNOSIS.md): 1 for the state the ring is in.")
	for _, h := range diagnose.Healths() {
		w.sample("ringscope_health", `ringscope_health="`+h.String()+`"`, b2f(h == v.Health))
	}
	w.family("ringscope_cause", "gauge", "", "Active causes of the diagnosis by kind (docs/DIAGNOSIS.md).")
	for _, k := range diagnose.Vocabulary() {
		n := 0
		for i := range v.Causes {
			if v.Causes[i].Kind == k {
				n++
			}
		}
		w.sample("ringscope_cause", `kind="`+k.String()+`"`, float64(n))
	}
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// appendVerdicts adds an instant event (global scope) at every verdict:
// named by the health, carrying its first cause (kind, subject, fix) and
// every cause's kind.
func appendVerdicts(ev []TraceEvent, vs []Verdict, us func(ms float64) float64) []TraceEvent {
	for _, v := range vs {
		kinds := ""
		for i := range v.Causes {
			if i > 0 {
				kinds += ","
			}
			kinds += v.Causes[i].Kind.String()
		}
		a := args("seq", v.Seq, "health", v.Health.String(), "causes", kinds)
		if len(v.Causes) > 0 {
			c := &v.Causes[0]
			a["cause"], a["fix"] = c.Kind.String(), c.Fix
			a["tenant"], a["priority"], a["opcode"] = c.Subject.Tenant, c.Subject.Priority, int(c.Subject.Opcode)
			if c.Subject.Name != "" {
				a["name"] = c.Subject.Name
			}
		}
		ev = append(ev, TraceEvent{Name: "health " + v.Health.String(), Cat: "diagnosis", Ph: "i", Ts: us(v.AtMillis),
			Pid: TracePID, Tid: TraceTIDEpochs, S: "g", Args: a})
	}
	return ev
}
