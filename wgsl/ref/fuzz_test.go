package ref_test

import (
	"bytes"
	"encoding/binary"
	"testing"

	"github.com/ringscope/ringscope/wgsl/abi"
	"github.com/ringscope/ringscope/wgsl/host"
	"github.com/ringscope/ringscope/wgsl/ref"
)

// fuzzOps are the opcodes the fuzzer mostly draws from: every defined one
// plus unknown user and system opcodes.
var fuzzOps = []uint32{
	abi.OpNop, abi.OpStoreU32, abi.OpAtomicAdd, abi.OpLoadU32, abi.OpCompareSwap, abi.OpMemcpy,
	abi.OpDFAStep, abi.OpBatchFence, abi.OpHash, abi.OpSpin, abi.OpYield, abi.OpRequeue,
	abi.OpWaitIO, abi.OpRaise, abi.OpPrintf, abi.OpShutdown, 8, 0xFFF4, 0x80000001,
}

// byteSource hands out the fuzz input, then zeros.
type byteSource struct{ r *bytes.Reader }

func (s byteSource) u8() uint32 {
	b, err := s.r.ReadByte()
	if err != nil {
		return 0
	}
	return uint32(b)
}

func (s byteSource) u32() uint32 { return s.u8() | s.u8()<<8 | s.u8()<<16 | s.u8()<<24 }

// arg is a small argument that often lands near the OBSERVABLE region or
// the protected words, and sometimes is any 32-bit value.
func (s byteSource) arg() uint32 {
	switch b := s.u8(); {
	case b < 0x80:
		return b
	case b < 0xC0:
		return abi.CtrlObservable - 4 + b%24
	case b < 0xF0:
		return b % 16
	default:
		return s.u32()
	}
}

// fuzzCase builds well-formed buffers and a grid from data.
func fuzzCase(data []byte) (ref.Buffers, ref.Grid) {
	s := byteSource{bytes.NewReader(data)}
	slots := s.u8()%32 + 1
	observable := s.u8() % 16
	logCap := s.u8() % 5
	dataWords := s.u8()%64 + 1
	grid := ref.Grid{Workgroups: s.u8() % 4, Width: s.u8()%8 + 1}
	budget := s.u8() % 17
	flags := s.u8()
	cfg := host.ControlConfig{Slots: slots, Observable: observable, Masks: make([]uint32, abi.TenantCount)}
	mask := s.u32()
	for t := range cfg.Masks {
		cfg.Masks[t] = mask >> t & 1
	}
	control, err := host.EncodeControl(cfg)
	if err != nil {
		panic(err)
	}
	put := func(b []byte, i int, v uint32) { binary.LittleEndian.PutUint32(b[i*4:], v) }
	if flags&1 != 0 { // arbitrary partitions, maybe malformed
		for i := 0; i <= abi.PriorityLevels; i++ {
			put(control, abi.CtrlPriorityOffsets+i, s.u8()%(slots+3))
		}
	}
	off := abi.DefaultPartitions(slots)
	for p := 0; p < abi.PriorityLevels; p++ {
		c := off[p+1] - off[p]
		head, tail := s.u8(), s.u8()
		if flags&2 == 0 && c > 0 { // consistent: at most C pending
			head, tail = head%(2*c+1), head%(2*c+1)+tail%(c+1)
		}
		put(control, abi.CtrlHead+p, head)
		put(control, abi.CtrlTail+p, tail)
	}
	if flags&4 != 0 {
		put(control, abi.CtrlShutdown, 1)
	}
	for i := uint32(0); i < observable; i++ {
		put(control, abi.CtrlObservable+int(i), s.arg())
	}
	ring := make([]byte, slots*abi.SlotBytes)
	for slot := 0; slot < int(slots); slot++ {
		base := slot * abi.SlotWords
		st := uint32(abi.StatusPublished)
		if b := s.u8(); b >= 0xC0 {
			st = b % 10
		}
		put(ring, base+abi.SlotStatus, st)
		op := s.u8()
		if int(op) < len(fuzzOps) {
			put(ring, base+abi.SlotOpcode, fuzzOps[op])
		} else {
			put(ring, base+abi.SlotOpcode, fuzzOps[int(op)%len(fuzzOps)])
		}
		put(ring, base+abi.SlotTenant, s.u8()%31)
		for a := 0; a < 4; a++ {
			put(ring, base+abi.SlotArg0+a, s.arg())
		}
	}
	log := make([]byte, abi.LogWords(logCap)*abi.WordBytes)
	put(log, abi.LogCapacity, logCap)
	if flags&8 != 0 {
		put(log, abi.LogCapacity, s.u8())
	}
	params := host.Params{Epoch: s.u8(), Budget: budget, Observable: observable}
	if flags&16 != 0 {
		params.Observable = s.u8()
	}
	pb := params.Bytes()
	d := make([]byte, dataWords*4)
	for i := range d {
		d[i] = byte(s.u8())
	}
	return ref.Buffers{Control: control, Ring: ring, Log: log, Params: pb[:], Data: d}, grid
}

func cloneBuffers(b ref.Buffers) ref.Buffers {
	return ref.Buffers{Control: clone(b.Control), Ring: clone(b.Ring), Log: clone(b.Log), Params: clone(b.Params), Data: clone(b.Data)}
}

// gpuWords are the control words below OBSERVABLE the kernel may change.
func gpuWord(i int) bool {
	switch {
	case i == abi.CtrlShutdown, i == abi.CtrlDoneCount, i == abi.CtrlEpoch,
		i >= abi.CtrlTenantClaims && i < abi.CtrlOpcodeMetrics+abi.MetricOpcodes,
		i >= abi.CtrlPriorityClaims && i < abi.CtrlPriorityClaims+abi.PriorityLevels,
		i >= abi.CtrlDispatches && i < abi.CtrlHead+abi.PriorityLevels:
		return true
	}
	return false
}

func FuzzInterpreter(f *testing.F) {
	f.Add([]byte{})
	f.Add([]byte{9, 4, 2, 8, 1, 3, 5, 0, 0xFF, 0xFF, 0xFF, 0x1F, 1, 2, 0, 1, 1, 1, 0, 1, 0, 1})
	f.Add([]byte{31, 15, 1, 63, 3, 7, 16, 0, 0xFF, 0xFF, 0xFF, 0xFF, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 0, 14, 1, 1, 2, 3, 4, 0, 15, 0})
	f.Add([]byte{4, 2, 0, 4, 1, 1, 3, 1 | 2 | 8 | 16, 0xFF, 0, 0, 0, 0, 3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 7, 9})
	f.Fuzz(func(t *testing.T, data []byte) {
		b, grid := fuzzCase(data)
		before := cloneBuffers(b)
		res, err := ref.Run(b, grid)
		if err != nil {
			t.Fatalf("well-formed buffers refused: %v", err)
		}
		again := cloneBuffers(before)
		if res2, _ := ref.Run(again, grid); res2 != res || !bytes.Equal(again.Control, b.Control) ||
			!bytes.Equal(again.Ring, b.Ring) || !bytes.Equal(again.Log, b.Log) {
			t.Fatal("not deterministic")
		}
		for _, c := range []struct {
			name          string
			before, after []byte
		}{{"control", before.Control, b.Control}, {"ring", before.Ring, b.Ring}, {"log", before.Log, b.Log},
			{"params", before.Params, b.Params}, {"data", before.Data, b.Data}} {
			if len(c.before) != len(c.after) {
				t.Fatalf("%s length changed", c.name)
			}
		}
		if !bytes.Equal(before.Params, b.Params) || !bytes.Equal(before.Data, b.Data) {
			t.Fatal("params or data written")
		}
		budget := w(b.Params, abi.ParamBudget)
		if res.Lanes != grid.Lanes() || res.Iterations > res.Lanes*uint64(budget) {
			t.Fatalf("%d iterations over %d lanes × budget %d", res.Iterations, res.Lanes, budget)
		}
		if res.Claims != res.Done+res.Faults+res.Yields+res.Requeues+res.WaitIOs {
			t.Fatalf("claims %d ≠ sum of outcomes %+v", res.Claims, res)
		}
		delta := func(i int) uint32 { return w(b.Control, i) - w(before.Control, i) }
		if uint64(delta(abi.CtrlDoneCount)) != res.Done+res.Faults || uint64(delta(abi.CtrlFaults)) != res.Faults ||
			uint64(delta(abi.CtrlDenied)) != res.Denied || uint64(delta(abi.CtrlBudgetExhausted)) != res.Exhausted ||
			uint64(w(b.Log, abi.LogCursor)-w(before.Log, abi.LogCursor)) != res.Records {
			t.Fatalf("counters disagree with the result %+v", res)
		}
		// No protected word the kernel does not own changes, nor any
		// OBSERVABLE word past N.
		words := len(b.Control) / 4
		n := min(int(w(b.Params, abi.ParamObservable)), words-abi.ControlMinWords)
		for i := 0; i < words; i++ {
			if (i < abi.CtrlObservable && !gpuWord(i) || i >= abi.CtrlObservable+n) && w(b.Control, i) != w(before.Control, i) {
				t.Fatalf("control word %d changed", i)
			}
		}
		// Finalize: HEAD ≤ TAIL everywhere.
		for p := 0; p < abi.PriorityLevels; p++ {
			if w(b.Control, abi.CtrlHead+p) > w(b.Control, abi.CtrlTail+p) {
				t.Fatalf("HEAD[%d] > TAIL after finalize", p)
			}
		}
		// Log: nothing past the written records changes.
		capRecs := min(int(w(b.Log, abi.LogCapacity)), (len(b.Log)/4-abi.LogHeaderWords)/abi.LogRecordWords)
		written := min(int(w(b.Log, abi.LogCursor)), capRecs)
		if w(before.Log, abi.LogCursor) == 0 && !bytes.Equal(b.Log[(abi.LogHeaderWords+abi.LogRecordWords*written)*4:], before.Log[(abi.LogHeaderWords+abi.LogRecordWords*written)*4:]) {
			t.Fatal("log written past its records")
		}
		// Occupancy: only claimed slots change status, none is left CLAIMED
		// or PUBLISHED among them, and when every claimed position is a
		// distinct slot the terminal ones are exactly DONE_COUNT's growth.
		slots := len(b.Ring) / abi.SlotBytes
		claimed := make([]int, slots)
		var claims uint64
		offs := make([]uint32, abi.PriorityLevels+1)
		for i := range offs {
			offs[i] = w(b.Control, abi.CtrlPriorityOffsets+i)
		}
		for p := 0; p < abi.PriorityLevels; p++ {
			lo, hi := offs[p], offs[p+1]
			h0, h1 := w(before.Control, abi.CtrlHead+p), w(b.Control, abi.CtrlHead+p)
			if !(lo < hi && int(hi) <= slots) || h1 <= h0 {
				continue
			}
			c := hi - lo
			claims += uint64(h1 - h0)
			for k := h0; k < h1; k++ {
				claimed[lo+k%c]++
			}
		}
		if claims != res.Claims {
			t.Fatalf("HEAD moved by %d, %d claims", claims, res.Claims)
		}
		var terminal uint32
		distinct := true
		for s := 0; s < slots; s++ {
			distinct = distinct && claimed[s] <= 1
			st0, st1 := w(before.Ring, s*abi.SlotWords), w(b.Ring, s*abi.SlotWords)
			if !bytes.Equal(before.Ring[s*abi.SlotBytes+4:(s+1)*abi.SlotBytes], b.Ring[s*abi.SlotBytes+4:(s+1)*abi.SlotBytes]) {
				t.Fatalf("slot %d payload written", s)
			}
			if claimed[s] == 0 {
				if st0 != st1 {
					t.Fatalf("unclaimed slot %d changed status %d → %d", s, st0, st1)
				}
				continue
			}
			if st1 == abi.StatusPublished || st1 == abi.StatusClaimed || st1 >= abi.StatusCount || st1 == abi.StatusEmpty {
				t.Fatalf("claimed slot %d left in status %d", s, st1)
			}
			if st1 == abi.StatusDone || st1 == abi.StatusFault {
				terminal++
			}
		}
		if distinct && terminal != delta(abi.CtrlDoneCount) {
			t.Fatalf("%d terminal slots, DONE_COUNT grew by %d", terminal, delta(abi.CtrlDoneCount))
		}
	})
}
