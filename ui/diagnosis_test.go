package ui

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/ringscope/ringscope/decode/diagnose"
	"github.com/ringscope/ringscope/decode/frame"
)

func TestTheHeaderAndPanelShowTheDiagnosis(t *testing.T) {
	c := diagnose.Cause{Kind: diagnose.MaskedTenant, Subject: diagnose.TenantSubject(0), Fix: "setTenantMask(0, true)"}
	c.Evidence.Add("slots", 1812)
	c.Evidence.Add("share", 1)
	c.Evidence.Add("ageMs", 1500)
	f := &frame.Frame{Seq: 3, Diagnosis: &diagnose.Diagnosis{Health: diagnose.Stalled, Causes: []diagnose.Cause{c}}}
	d := &Dashboard{}
	d.Apply(f)
	var health, cause KV
	for _, kv := range d.HeaderStats() {
		switch kv.Label {
		case "health":
			health = kv
		case "cause":
			cause = kv
		}
	}
	assert.Equal(t, "STALLED", health.Value)
	assert.Equal(t, "num-bad", health.Class)
	assert.Equal(t, "masked-tenant · tenant 0", cause.Value)
	assert.Equal(t, "setTenantMask(0, true)", cause.Title)

	rows := (&WatchdogPanel{Frame: f}).Causes()
	assert.Len(t, rows, 1)
	assert.Equal(t, "masked-tenant", rows[0].Kind)
	assert.Equal(t, "slots 1,812 · share 100.0% · age 1500 ms", rows[0].Evidence)

	op := diagnose.Cause{Kind: diagnose.FaultStorm, Subject: diagnose.OpcodeSubject(0x101, "SPIN")}
	assert.Equal(t, "fault-storm · SPIN (0x101)", CauseTitle(&op))
	user := diagnose.Cause{Kind: diagnose.FaultStorm, Subject: diagnose.OpcodeSubject(0x1234, "USER(0x1234)")}
	assert.Equal(t, "fault-storm · USER(0x1234)", CauseTitle(&user), "a name that is the number is not followed by it again")
	pr := diagnose.Cause{Kind: diagnose.PriorityInversion, Subject: diagnose.PrioritySubject(0)}
	assert.Equal(t, "priority-inversion · priority 0 CRITICAL", CauseTitle(&pr))

	f.Diagnosis = &diagnose.Diagnosis{Health: diagnose.Progressing}
	d.Apply(f)
	for _, kv := range d.HeaderStats() {
		if kv.Label == "cause" {
			assert.Equal(t, "none", kv.Value)
		}
		if kv.Label == "health" {
			assert.Equal(t, "progressing", kv.Value)
		}
	}
}
