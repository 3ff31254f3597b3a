package api

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ringscope/ringscope/decode/diagnose"
)

func TestDiagnosisHasItsJSShape(t *testing.T) {
	c := diagnose.Cause{Kind: diagnose.MaskedTenant, Subject: diagnose.TenantSubject(0), Fix: "setTenantMask(0, true)", SinceMillis: 12}
	c.Evidence.Add("slots", 1812)
	c.Evidence.AddText("opcode", "A")
	c.Evidence.AddText("opcode", "B")
	d := &diagnose.Diagnosis{Health: diagnose.Stalled, Causes: []diagnose.Cause{c}}
	raw, ok := Encode(DiagnosisOf(d)).(RawJSON)
	require.True(t, ok)
	var got map[string]any
	require.NoError(t, json.Unmarshal(raw, &got))
	assert.Equal(t, "stalled", got["health"])
	cause := got["causes"].([]any)[0].(map[string]any)
	assert.Equal(t, "masked-tenant", cause["kind"])
	assert.Equal(t, map[string]any{"tenant": 0.0}, cause["subject"], "only the fields that apply")
	assert.Equal(t, map[string]any{"slots": 1812.0, "opcode": []any{"A", "B"}}, cause["evidence"])
	assert.Equal(t, "setTenantMask(0, true)", cause["fix"])
	assert.Equal(t, 12.0, cause["sinceMs"])
	assert.Nil(t, DiagnosisOf(nil))
}
