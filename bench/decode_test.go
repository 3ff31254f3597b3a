package bench

import (
	"testing"
	"time"

	"github.com/ringscope/ringscope/decode"
	"github.com/ringscope/ringscope/wgsl"
	"github.com/ringscope/ringscope/wgsl/ref"
)

// TestDecodeRow measures decode.DecodeInto (the full ring) and
// decode.DecodeSummaryInto (the GPU summary of the same ring, made by
// ref.Reduce) on the bytes of busyRing(65,536): ns per slot over repeated
// runs, and allocations per call (testing.AllocsPerRun, after a first call
// sized the reused telemetry). The same test runs natively and in wasm;
// bench/run.mjs pairs the two.
func TestDecodeRow(t *testing.T) {
	needRows(t)
	control, ring, _ := busyRing(t, decodeSlots)
	params := wgsl.SummaryParams{Depth: 4, Width: 128, WindowCapacity: 256, WindowOpcodes: pageWindowOpcodes}
	summary, statusMap, err := ref.Reduce(control, ring, params)
	if err != nil {
		t.Fatal(err)
	}
	var dst decode.RingTelemetry
	var scratch decode.DecodeScratch
	cases := []struct {
		name  string
		bytes int
		f     func() error
	}{
		{"DecodeInto", len(control) + len(ring), func() error {
			return decode.DecodeInto(&dst, &scratch, control, ring, pageWindowOpcodes)
		}},
		{"DecodeSummaryInto", len(control) + len(summary) + len(statusMap), func() error {
			return decode.DecodeSummaryInto(&dst, &scratch, control, summary, statusMap, pageWindowOpcodes)
		}},
	}
	for _, c := range cases {
		if err := c.f(); err != nil { // sizes dst and scratch
			t.Fatal(err)
		}
		// Each run decodes until ≥ 20 ms passed (timer resolution in a
		// browser is 5 µs at best); its ns/slot is one sample.
		var perSlot []float64
		for range reps(15) {
			n, t0 := 0, time.Now()
			for n == 0 || time.Since(t0) < 20*time.Millisecond {
				if err := c.f(); err != nil {
					t.Fatal(err)
				}
				n++
			}
			perSlot = append(perSlot, float64(time.Since(t0).Nanoseconds())/float64(n)/decodeSlots)
		}
		allocs := testing.AllocsPerRun(20, func() {
			if err := c.f(); err != nil {
				t.Fatal(err)
			}
		})
		emit("decode", c.name, map[string]any{
			"slots": decodeSlots, "bytes": c.bytes, "nsPerSlot": dist(perSlot), "allocsPerCall": allocs,
		})
	}
}
