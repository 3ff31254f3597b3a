package ui

import (
	"github.com/ringscope/ringscope/internal/nocompare"
	"strconv"
	"strings"

	"github.com/ringscope/ringscope/decode/diagnose"
)

// CauseRow is one cause as the watchdog panel lists it.
type CauseRow struct {
	_ nocompare.T

	Key, Kind, Title, Evidence, Fix, Class string
}

func causeRow(c *diagnose.Cause) CauseRow {
	class := "cause cause-warn"
	switch c.Kind {
	case diagnose.DeviceLost, diagnose.MaskedTenant, diagnose.NoProgress, diagnose.Shutdown:
		class = "cause cause-bad"
	}
	title := CauseTitle(c)
	return CauseRow{Key: title, Kind: c.Kind.String(), Title: title, Evidence: EvidenceText(&c.Evidence), Fix: c.Fix, Class: class}
}

// CauseTitle names a cause and its subject: "masked-tenant · tenant 0".
func CauseTitle(c *diagnose.Cause) string {
	s := c.Subject
	parts := []string{c.Kind.String()}
	if s.Tenant != diagnose.None {
		parts = append(parts, "tenant "+strconv.Itoa(s.Tenant))
	}
	if s.Priority != diagnose.None {
		parts = append(parts, "priority "+strconv.Itoa(s.Priority)+" "+PriorityName(uint32(s.Priority)))
	}
	if s.Opcode != diagnose.None {
		// The opcode's number once: a name without one ("STORE_U32") gets it
		// beside, a name of one ("USER(0x9)") is itself.
		hex := "(0x" + strconv.FormatInt(s.Opcode, 16) + ")"
		label := s.Name + " " + hex
		if strings.HasSuffix(s.Name, hex) {
			label = s.Name
		}
		parts = append(parts, label)
	} else if s.Name != "" {
		parts = append(parts, s.Name)
	}
	return strings.Join(parts, " · ")
}

// EvidenceText lists the facts: "slots 1,812 · share 100% · …".
func EvidenceText(e *diagnose.Evidence) string {
	var b strings.Builder
	for i, f := range e.Facts() {
		if i > 0 {
			b.WriteString(" · ")
		}
		key := f.Key
		if f.Text == "" && strings.HasSuffix(key, "Ms") {
			key = key[:len(key)-2] // its value says its unit: "age 11.8 s", not "ageMs 11.8 s"
		}
		b.WriteString(key)
		b.WriteByte(' ')
		b.WriteString(factValue(f))
	}
	return b.String()
}

func factValue(f diagnose.Fact) string {
	switch {
	case f.Text != "":
		return f.Text
	case strings.Contains(strings.ToLower(f.Key), "share"):
		return strconv.FormatFloat(100*f.Value, 'f', 1, 64) + "%"
	case strings.HasSuffix(f.Key, "Ms"):
		return MS(f.Value)
	case f.Value == float64(int64(f.Value)) && f.Value >= 0:
		return Thousands(uint64(f.Value))
	}
	return strconv.FormatFloat(f.Value, 'f', 1, 64)
}

// HealthWord is a health as the page shows it: alarms in capitals.
func HealthWord(h diagnose.Health) string {
	switch h {
	case diagnose.Stalled, diagnose.Lost:
		return strings.ToUpper(h.String())
	}
	return h.String()
}

// healthClass colours a health.
func healthClass(h diagnose.Health) string {
	switch h {
	case diagnose.Stalled, diagnose.Lost:
		return "num-bad"
	case diagnose.Degraded:
		return "num-warn"
	case diagnose.Progressing:
		return "num-ok"
	}
	return ""
}
