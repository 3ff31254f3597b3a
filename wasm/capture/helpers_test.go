package capture

import (
	"encoding/binary"

	"github.com/ringscope/ringscope/decode"
	"github.com/ringscope/ringscope/decode/frame"
	"github.com/ringscope/ringscope/wgsl/abi"
)

func le32(ws ...uint32) []byte {
	b := make([]byte, 0, 4*len(ws))
	for _, w := range ws {
		b = binary.LittleEndian.AppendUint32(b, w)
	}
	return b
}

// control returns a v1 control buffer (legacy when gen < 0) of slots slots
// with a few counters set.
func control(gen int, slots uint32, done, epoch uint32) []byte {
	w := make([]uint32, abi.ControlWords(4))
	w[abi.CtrlTenantBase] = abi.TenantBaseValue
	w[abi.CtrlTenantMask] = 1
	w[abi.CtrlDoneCount] = done
	w[abi.CtrlEpoch] = epoch
	w[abi.CtrlTenantClaims+1] = done
	w[abi.CtrlPriorityClaims+2] = done
	w[abi.CtrlOpcodeMetrics+0] = done
	off := abi.DefaultPartitions(slots)
	copy(w[abi.CtrlPriorityOffsets:], off[:])
	if gen >= 0 {
		w[abi.CtrlMagic], w[abi.CtrlABIVersion], w[abi.CtrlGeneration] = abi.Magic, abi.Version, uint32(gen)
		w[abi.CtrlClaims], w[abi.CtrlFaults], w[abi.CtrlDispatches] = done, 1, epoch+1
	}
	return le32(w...)
}

// ring returns slots slots with the given statuses cycling.
func ring(slots int, statuses ...uint32) []byte {
	var w []uint32
	for i := range slots {
		s := make([]uint32, abi.SlotWords)
		if len(statuses) > 0 {
			s[abi.SlotStatus] = statuses[i%len(statuses)]
		}
		s[abi.SlotOpcode] = uint32(i % 3)
		s[abi.SlotTenant] = 1
		s[abi.SlotPriority] = 2
		w = append(w, s...)
	}
	return le32(w...)
}

// logBuf returns a log of capacity records holding recs.
func logBuf(capacity uint32, recs ...decode.LogRecord) []byte {
	w := make([]uint32, abi.LogWords(capacity))
	w[abi.LogCursor], w[abi.LogCapacity] = uint32(len(recs)), capacity
	for i, r := range recs {
		copy(w[abi.LogHeaderWords+abi.LogRecordWords*i:], []uint32{r.Format, r.Slot, r.A, r.B})
	}
	return le32(w...)
}

func faultRec(code, slot uint32) decode.LogRecord {
	return decode.LogRecord{Format: abi.LogFaultTag | code, Slot: slot, A: 0xdead, B: 1}
}

// sample is a three-frame live capture: frame 2 has no ring, frame 3 a fault.
func sample() *Capture {
	disp := &Dispatch{BytesUploaded: 640, BytesReadBack: 4096, BytesMoved: 4736, KernelLaunches: 2, SyncPoints: 1,
		OccupancyProxyBps: 5000, FrontierDensityBps: 2500, ReadbackBuffers: 1, Topology: decode.TopologyDenseFrontier,
		Pressure: decode.PressureBalanced, ExecutionMode: decode.ModeJIT, HitCapacity: 64}
	return &Capture{
		Header: Header{Ringscope: "test", Source: SourceLive, WindowOpcodes: []uint32{0x100},
			Adapter: &Adapter{Vendor: "google", Architecture: "swiftshader", IsFallback: true, IsCPU: true}},
		Frames: []Frame{
			{Seq: 1, AtMillis: 100, Generation: 2, Control: control(2, 8, 3, 0), Ring: ring(8, 1, 3),
				Log: logBuf(4), Meta: Meta{Dispatch: disp, Timings: frame.Timings{RoundTripMS: 2.5, ReadbackMS: 1}, Published: 8}},
			{Seq: 2, AtMillis: 116, Generation: 2, Control: control(2, 8, 5, 1), Log: logBuf(4),
				Meta: Meta{Dispatch: disp, Timings: frame.Timings{RoundTripMS: 3}, Published: 8}},
			{Seq: 3, AtMillis: 132, Generation: 2, Control: control(2, 8, 8, 1), Ring: ring(8, 3, 3, 7),
				Log:  logBuf(4, faultRec(abi.FaultBadTenant, 2), decode.LogRecord{Format: 9, Slot: 1}),
				Meta: Meta{Dispatch: disp, Timings: frame.Timings{RoundTripMS: 2}, Published: 9}},
		},
	}
}
