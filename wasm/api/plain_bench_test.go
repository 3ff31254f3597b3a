package api

import (
	"testing"

	"github.com/ringscope/ringscope/decode"
)

// BenchmarkPlainTelemetry converts a 65,536-slot telemetry, as the API's
// snapshot does, to Plain's values and to Encode's JSON (GOOS=js
// GOARCH=wasm for the page's cost; the JS side's js.ValueOf or JSON.parse
// comes on top).
func BenchmarkPlainTelemetry(b *testing.B) {
	tel := &decode.RingTelemetry{Slots: make([]decode.RingSlotSnapshot, 65536)}
	for i := range tel.Slots {
		tel.Slots[i] = decode.RingSlotSnapshot{Index: uint32(i), Status: decode.Status(i % 6), Opcode: 3, Tenant: uint32(i % 8)}
	}
	b.Run("plain", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_ = Plain(tel)
		}
	})
	b.Run("encode", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_ = Encode(tel)
		}
	})
}
