package decode

import (
	"testing"

	"github.com/ringscope/ringscope/wgsl/abi"
)

// benchSlots is the ring size of the benchmarks: the largest ring vyre
// benchmarks (runtime.megakernel.condition.64k).
const benchSlots = 1 << 16

// benchDump is a busy 65,536-slot ring: every status, eight opcodes, 29
// tenants, and ticketed windows of routeOp on a quarter of the slots.
func benchDump() (control, ring []byte) {
	c := newControl(64, benchSlots)
	for op := range abi.MetricOpcodes {
		c[abi.CtrlOpcodeMetrics+op] = uint32(op * 3)
	}
	slots := make([]slot, benchSlots)
	for i := range slots {
		op := uint32(0x100 + i%8)
		if i%4 == 0 {
			op = routeOp
		}
		slots[i] = slot{
			status: uint32(i*7) % (abi.StatusCount + 1),
			op:     op,
			tenant: uint32(i % abi.TenantCount),
			prio:   uint32(i % abi.PriorityLevels),
			args:   []uint32{uint32(i / 64), uint32(i % 2), uint32(i)},
		}
	}
	return c.bytes(), ringBytes(slots...)
}

func reportPerSlot(b *testing.B) {
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/benchSlots, "ns/slot")
}

func BenchmarkDecodeInto(b *testing.B) {
	control, ring := benchDump()
	for _, bc := range []struct {
		name string
		ops  []uint32
	}{
		{"no-windows", nil},
		{"windows", []uint32{routeOp}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			var dst RingTelemetry
			var scratch DecodeScratch
			if err := DecodeInto(&dst, &scratch, control, ring, bc.ops); err != nil {
				b.Fatal(err)
			}
			b.SetBytes(int64(len(ring)))
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				if err := DecodeInto(&dst, &scratch, control, ring, bc.ops); err != nil {
					b.Fatal(err)
				}
			}
			reportPerSlot(b)
		})
	}
}

func BenchmarkRuntimeCounters(b *testing.B) {
	control, ring := benchDump()
	tel, err := tryDecode(control, ring)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := tel.RuntimeCounters(); err != nil {
			b.Fatal(err)
		}
	}
	reportPerSlot(b)
}

func BenchmarkSketch(b *testing.B) {
	control, ring := benchDump()
	tel, err := tryDecode(control, ring)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := tel.Sketch(4, 128); err != nil {
			b.Fatal(err)
		}
	}
	reportPerSlot(b)
}

func BenchmarkSketchInto(b *testing.B) {
	control, ring := benchDump()
	tel, err := tryDecode(control, ring)
	if err != nil {
		b.Fatal(err)
	}
	var st SketchTelemetry
	b.ReportAllocs()
	for b.Loop() {
		if err := tel.SketchInto(&st, 4, 128); err != nil {
			b.Fatal(err)
		}
	}
	reportPerSlot(b)
}

func BenchmarkDecodeLogInto(b *testing.B) {
	records := make([]LogRecord, 4096)
	for i := range records {
		records[i] = LogRecord{Format: uint32(i), Slot: uint32(i), A: 1, B: 2}
	}
	buf := logBytes(5000, 4096, records...)
	var l Log
	b.SetBytes(int64(len(buf)))
	b.ReportAllocs()
	for b.Loop() {
		if err := DecodeLogInto(&l, buf); err != nil {
			b.Fatal(err)
		}
	}
}
