package api

import "github.com/ringscope/ringscope/decode/diagnose"

// Diagnosis is the JS shape of a frame's verdict (docs/DIAGNOSIS.md):
// {health, causes: [{kind, subject, evidence, fix, sinceMs}]}.
type Diagnosis struct {
	Health string
	Causes []Cause
}

// Cause is one cause of a Diagnosis. Subject holds only the fields that
// apply (tenant, priority, opcode, name); Evidence maps each fact's name to
// its number (or its word).
type Cause struct {
	Kind     string
	Subject  map[string]any
	Evidence map[string]any
	Fix      string
	SinceMs  float64
}

// DiagnosisOf converts d for JS; nil gives nil.
func DiagnosisOf(d *diagnose.Diagnosis) *Diagnosis {
	if d == nil {
		return nil
	}
	out := &Diagnosis{Health: d.Health.String(), Causes: make([]Cause, len(d.Causes))}
	for i := range d.Causes {
		c := &d.Causes[i]
		out.Causes[i] = Cause{Kind: c.Kind.String(), Subject: subjectOf(c.Subject), Evidence: evidenceOf(&c.Evidence),
			Fix: c.Fix, SinceMs: c.SinceMillis}
	}
	return out
}

func subjectOf(s diagnose.Subject) map[string]any {
	m := map[string]any{}
	if s.Tenant != diagnose.None {
		m["tenant"] = s.Tenant
	}
	if s.Priority != diagnose.None {
		m["priority"] = s.Priority
	}
	if s.Opcode != diagnose.None {
		m["opcode"] = s.Opcode
	}
	if s.Name != "" {
		m["name"] = s.Name
	}
	return m
}

// evidenceOf maps the facts by name; a name that repeats (a list, such as
// the opcodes in flight) becomes an array.
func evidenceOf(e *diagnose.Evidence) map[string]any {
	m := map[string]any{}
	for _, f := range e.Facts() {
		var v any = f.Value
		if f.Text != "" {
			v = f.Text
		}
		switch old, ok := m[f.Key]; {
		case !ok:
			m[f.Key] = v
		default:
			list, isList := old.([]any)
			if !isList {
				list = []any{old}
			}
			m[f.Key] = append(list, v)
		}
	}
	return m
}
