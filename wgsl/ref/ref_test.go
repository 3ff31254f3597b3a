package ref_test

import (
	"hash/fnv"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/ringscope/ringscope/wgsl/abi"
	"github.com/ringscope/ringscope/wgsl/host"
	"github.com/ringscope/ringscope/wgsl/ref"
)

func args(a ...uint32) (out [abi.SlotArgs]uint32) {
	copy(out[:], a)
	return out
}

// TestOpcodes runs one NORMAL slot (slot 4 of 10; 4 OBSERVABLE words;
// params.epoch 3) per case.
func TestOpcodes(t *testing.T) {
	const obs0 = abi.CtrlObservable
	dfaData := make([]uint32, 2*256+2)
	// A two-state DFA over bytes: state' = byte == 'a' ? 1 : 0, at table 0.
	for s := 0; s < 2; s++ {
		dfaData[s*256+'a'] = 1
	}
	dfaData[512] = uint32('b') | uint32('a')<<8 | uint32('a')<<16 | uint32('x')<<24
	dfaData[513] = uint32('a')
	for _, tc := range []struct {
		name   string
		op     uint32
		args   [abi.SlotArgs]uint32
		obs    []uint32 // initial OBSERVABLE words
		data   []uint32
		status uint32
		fault  uint32         // fault code when status is FAULT
		want   map[int]uint32 // control words after the run
		check  func(*testing.T, *rig)
	}{
		{name: "NOP", op: abi.OpNop, status: abi.StatusDone},
		{name: "STORE_U32", op: abi.OpStoreU32, args: args(0xABCD, obs0+3), status: abi.StatusDone, want: map[int]uint32{obs0 + 3: 0xABCD}},
		{name: "STORE_U32 protected", op: abi.OpStoreU32, args: args(1, abi.CtrlTail), status: abi.StatusFault, fault: abi.FaultProtected},
		{name: "STORE_U32 protected word 159", op: abi.OpStoreU32, args: args(1, 159), status: abi.StatusFault, fault: abi.FaultProtected},
		{name: "STORE_U32 out of bounds", op: abi.OpStoreU32, args: args(1, obs0+4), status: abi.StatusFault, fault: abi.FaultOutOfBounds},
		{name: "STORE_U32 huge index", op: abi.OpStoreU32, args: args(1, ^uint32(0)), status: abi.StatusFault, fault: abi.FaultOutOfBounds},
		{name: "ATOMIC_ADD wraps", op: abi.OpAtomicAdd, args: args(3, obs0+1), obs: []uint32{0, 0xFFFFFFFF}, status: abi.StatusDone, want: map[int]uint32{obs0 + 1: 2}},
		{name: "ATOMIC_ADD protected", op: abi.OpAtomicAdd, args: args(1, abi.CtrlDoneCount), status: abi.StatusFault, fault: abi.FaultProtected},
		{name: "ATOMIC_ADD out of bounds", op: abi.OpAtomicAdd, args: args(1, 1000), status: abi.StatusFault, fault: abi.FaultOutOfBounds},
		{name: "LOAD_U32 reads protected words", op: abi.OpLoadU32, args: args(abi.CtrlMagic, 2), status: abi.StatusDone, want: map[int]uint32{obs0 + 2: abi.Magic}},
		{name: "LOAD_U32 reads last word", op: abi.OpLoadU32, args: args(obs0+3, 0), obs: []uint32{0, 0, 0, 77}, status: abi.StatusDone, want: map[int]uint32{obs0: 77}},
		{name: "LOAD_U32 read out of bounds", op: abi.OpLoadU32, args: args(obs0+4, 0), status: abi.StatusFault, fault: abi.FaultOutOfBounds},
		{name: "LOAD_U32 result out of bounds", op: abi.OpLoadU32, args: args(0, 4), status: abi.StatusFault, fault: abi.FaultOutOfBounds},
		{name: "COMPARE_SWAP swaps", op: abi.OpCompareSwap, args: args(obs0, 5, 9, 1), obs: []uint32{5}, status: abi.StatusDone, want: map[int]uint32{obs0: 9, obs0 + 1: 5}},
		{name: "COMPARE_SWAP keeps", op: abi.OpCompareSwap, args: args(obs0, 6, 9, 1), obs: []uint32{5}, status: abi.StatusDone, want: map[int]uint32{obs0: 5, obs0 + 1: 5}},
		{name: "COMPARE_SWAP protected", op: abi.OpCompareSwap, args: args(abi.CtrlShutdown, 0, 1, 1), status: abi.StatusFault, fault: abi.FaultProtected, want: map[int]uint32{abi.CtrlShutdown: 0}},
		{name: "COMPARE_SWAP result out of bounds", op: abi.OpCompareSwap, args: args(obs0, 5, 9, 4), obs: []uint32{5}, status: abi.StatusFault, fault: abi.FaultOutOfBounds, want: map[int]uint32{obs0: 5}},
		{name: "MEMCPY", op: abi.OpMemcpy, args: args(abi.CtrlMagic, obs0+1, 3), status: abi.StatusDone,
			want: map[int]uint32{obs0 + 1: abi.Magic, obs0 + 2: abi.Version, obs0 + 3: 0}},
		{name: "MEMCPY overlapping forward", op: abi.OpMemcpy, args: args(obs0, obs0+1, 3), obs: []uint32{7, 8, 9, 10}, status: abi.StatusDone,
			want: map[int]uint32{obs0: 7, obs0 + 1: 7, obs0 + 2: 7, obs0 + 3: 7}},
		{name: "MEMCPY zero count", op: abi.OpMemcpy, args: args(obs0+4, obs0+4, 0), status: abi.StatusDone},
		{name: "MEMCPY source out of bounds", op: abi.OpMemcpy, args: args(obs0+2, obs0, 3), status: abi.StatusFault, fault: abi.FaultOutOfBounds},
		{name: "MEMCPY destination protected", op: abi.OpMemcpy, args: args(obs0, 150, 2), status: abi.StatusFault, fault: abi.FaultProtected},
		{name: "MEMCPY destination protected, zero count", op: abi.OpMemcpy, args: args(0, 0, 0), status: abi.StatusFault, fault: abi.FaultProtected},
		{name: "MEMCPY destination out of bounds", op: abi.OpMemcpy, args: args(0, obs0+2, 3), status: abi.StatusFault, fault: abi.FaultOutOfBounds, want: map[int]uint32{obs0 + 2: 0}},
		{name: "MEMCPY count overflow", op: abi.OpMemcpy, args: args(1, obs0, 0xFFFFFFFF), status: abi.StatusFault, fault: abi.FaultOutOfBounds},
		{name: "DFA_STEP", op: abi.OpDFAStep, args: args(obs0+2, 0, 512*4, 5), data: dfaData, obs: []uint32{0, 0, 1}, status: abi.StatusDone,
			want: map[int]uint32{obs0 + 2: 1}}, // "baaxa": the last byte is a
		{name: "DFA_STEP zero length keeps the state", op: abi.OpDFAStep, args: args(obs0, 0, 0, 0), data: dfaData, obs: []uint32{1}, status: abi.StatusDone, want: map[int]uint32{obs0: 1}},
		{name: "DFA_STEP input out of bounds", op: abi.OpDFAStep, args: args(obs0, 0, 513*4+1, 4), data: dfaData, status: abi.StatusFault, fault: abi.FaultOutOfBounds},
		{name: "DFA_STEP table out of bounds", op: abi.OpDFAStep, args: args(obs0, 300, 512*4, 2), data: dfaData, obs: []uint32{1}, status: abi.StatusFault, fault: abi.FaultOutOfBounds, want: map[int]uint32{obs0: 1}},
		{name: "DFA_STEP state out of table", op: abi.OpDFAStep, args: args(obs0, 0, 512*4, 1), data: dfaData, obs: []uint32{0xFFFFFFFF}, status: abi.StatusFault, fault: abi.FaultOutOfBounds},
		{name: "DFA_STEP protected", op: abi.OpDFAStep, args: args(abi.CtrlEpoch, 0, 0, 0), data: dfaData, status: abi.StatusFault, fault: abi.FaultProtected},
		{name: "BATCH_FENCE", op: abi.OpBatchFence, args: args(10, 0x7A6, 3), status: abi.StatusDone, want: map[int]uint32{abi.CtrlEpoch: 1, obs0 + 3: 0x7A6}},
		{name: "BATCH_FENCE out of bounds", op: abi.OpBatchFence, args: args(10, 0x7A6, 4), status: abi.StatusFault, fault: abi.FaultOutOfBounds, want: map[int]uint32{abi.CtrlEpoch: 0}},
		{name: "HASH", op: abi.OpHash, args: args(1, 2, 0), data: []uint32{0xFFFFFFFF, 0x64636261, 0x00000065}, status: abi.StatusDone,
			want: map[int]uint32{obs0: fnv32a([]byte("abcde\x00\x00\x00"))}},
		{name: "HASH no words", op: abi.OpHash, args: args(3, 0, 1), data: []uint32{1, 2, 3}, status: abi.StatusDone, want: map[int]uint32{obs0 + 1: 0x811C9DC5}},
		{name: "HASH out of bounds", op: abi.OpHash, args: args(2, 2, 0), data: []uint32{1, 2, 3}, status: abi.StatusFault, fault: abi.FaultOutOfBounds},
		{name: "HASH result out of bounds", op: abi.OpHash, args: args(0, 1, 9), data: []uint32{1}, status: abi.StatusFault, fault: abi.FaultOutOfBounds},
		{name: "SPIN", op: abi.OpSpin, args: args(1000, 2, 42), status: abi.StatusDone, want: map[int]uint32{obs0 + 2: ref.Spin(42, 1000)}},
		{name: "SPIN max rounds", op: abi.OpSpin, args: args(abi.SpinMaxRounds, 0), status: abi.StatusDone, want: map[int]uint32{obs0: ref.Spin(0, abi.SpinMaxRounds)}},
		{name: "SPIN too many rounds", op: abi.OpSpin, args: args(abi.SpinMaxRounds+1, 0), status: abi.StatusFault, fault: abi.FaultOutOfBounds},
		{name: "SPIN result out of bounds", op: abi.OpSpin, args: args(1, 4), status: abi.StatusFault, fault: abi.FaultOutOfBounds},
		{name: "YIELD", op: abi.OpYield, status: abi.StatusYield},
		{name: "REQUEUE", op: abi.OpRequeue, status: abi.StatusRequeue},
		{name: "WAIT_IO", op: abi.OpWaitIO, args: args(5), status: abi.StatusWaitIO},
		{name: "RAISE", op: abi.OpRaise, args: args(99), status: abi.StatusFault, fault: abi.FaultUserFault},
		{name: "PRINTF", op: abi.OpPrintf, args: args(7, 8, 9), status: abi.StatusDone, check: func(t *testing.T, r *rig) {
			assert.Equal(t, [][4]uint32{{7, 4, 8, 9}}, r.records())
		}},
		{name: "SHUTDOWN", op: abi.OpShutdown, status: abi.StatusDone, want: map[int]uint32{abi.CtrlShutdown: 1}},
		{name: "unknown user opcode 8", op: 8, status: abi.StatusFault, fault: abi.FaultUnknownOpcode},
		{name: "unknown user opcode 0x102", op: 0x102, status: abi.StatusFault, fault: abi.FaultUnknownOpcode},
		{name: "unknown system opcode 0xFFF4", op: 0xFFF4, status: abi.StatusFault, fault: abi.FaultUnknownOpcode},
		{name: "unknown system opcode 0x80000000", op: 0x80000000, status: abi.StatusFault, fault: abi.FaultUnknownOpcode},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newRig(t, rigConfig{observable: 4, data: tc.data, epoch: 3})
			r.publish(host.Item{Opcode: abi.OpNop, Tenant: 5, Priority: abi.PriorityNormal, Args: tc.args})
			r.upload()
			setW(r.b.Ring, 4*abi.SlotWords+abi.SlotOpcode, tc.op) // reserved opcodes too
			for i, v := range tc.obs {
				setW(r.b.Control, abi.CtrlObservable+i, v)
			}
			res := r.runGPU(4, ref.Grid{Workgroups: 2, Width: 2})

			assert.Equal(t, tc.status, r.status(4))
			assert.Equal(t, uint64(1), res.Claims)
			assert.Equal(t, uint32(1), r.delta(abi.CtrlClaims), "claimed: the checks passed")
			assert.Equal(t, uint32(1), r.ctl(abi.CtrlTenantClaims+5))
			assert.Equal(t, uint32(1), r.ctl(abi.CtrlPriorityClaims+abi.PriorityNormal))
			metrics := uint32(0)
			if tc.op < abi.MetricOpcodes {
				metrics = 1
				assert.Equal(t, metrics, r.ctl(abi.CtrlOpcodeMetrics+int(tc.op)))
			}
			terminal := tc.status == abi.StatusDone || tc.status == abi.StatusFault
			assert.Equal(t, b2u(terminal), r.ctl(abi.CtrlDoneCount))
			assert.Equal(t, uint64(b2u(tc.status == abi.StatusDone)), res.Done)
			if tc.status == abi.StatusFault {
				assert.Equal(t, uint32(1), r.ctl(abi.CtrlFaults))
				assert.Equal(t, [][4]uint32{{abi.LogFaultTag | tc.fault, 4, tc.op, 3}}, r.records())
			} else {
				assert.Zero(t, r.ctl(abi.CtrlFaults))
				if tc.op != abi.OpPrintf {
					assert.Empty(t, r.records())
				}
			}
			for word, v := range tc.want {
				assert.Equal(t, v, r.ctl(word), "control word %d", word)
			}
			assert.Equal(t, uint32(1), r.ctl(abi.CtrlDispatches))
			assert.Equal(t, uint32(1), r.ctl(abi.CtrlHead+abi.PriorityNormal))
			assert.Zero(t, r.ctl(abi.CtrlBudgetExhausted))
			// 4 lanes: the first claims and runs, then every lane fails a claim.
			if tc.op != abi.OpShutdown {
				assert.Equal(t, uint64(5), res.Iterations)
			}
			if tc.check != nil {
				tc.check(t, r)
			}
		})
	}
}

func b2u(b bool) uint32 {
	if b {
		return 1
	}
	return 0
}

func fnv32a(b []byte) uint32 {
	h := fnv.New32a()
	h.Write(b)
	return h.Sum32()
}

func TestDFAStepRunsTheAutomaton(t *testing.T) {
	// Count-free check of the state sequence: a DFA whose state is the last
	// byte seen, over the table at word 2 (so the table offset matters).
	data := make([]uint32, 2+256*256+2)
	for s := 0; s < 256; s++ {
		for b := 0; b < 256; b++ {
			data[2+s*256+b] = uint32(b)
		}
	}
	in := 2 + 256*256
	data[in] = 0x44332211
	data[in+1] = 0x00000055
	r := newRig(t, rigConfig{observable: 1, data: data})
	r.publish(host.Item{Opcode: abi.OpDFAStep, Priority: 2, Args: args(abi.CtrlObservable, 2, uint32(in*4+1), 4)})
	r.run(1, one)
	assert.Equal(t, uint32(abi.StatusDone), r.status(4))
	assert.Equal(t, uint32(0x55), r.obs(0), "bytes 0x22 0x33 0x44 0x55: the last is the state")
}

func TestHashAndSpinDefinitions(t *testing.T) {
	for _, s := range []string{"", "a", "abcd", "ringscope!!!"} {
		assert.Equal(t, fnv32a([]byte(s)), ref.Hash([]byte(s)), "%q", s)
	}
	// Pinned values: the WGSL kernel must produce the same bits.
	for _, tc := range []struct{ seed, rounds, want uint32 }{
		{0, 0, 0},
		{7, 0, 7},
		{0, 1, spinRound(0)},
		{1, 2, spinRound(spinRound(1))},
	} {
		assert.Equal(t, tc.want, ref.Spin(tc.seed, tc.rounds))
	}
	assert.Equal(t, uint32(0x64625032), ref.Spin(0, 1))
	assert.Equal(t, uint32(0xf564c81e), ref.Spin(42, 1000))
}

// spinRound restates one SPIN round from the doc comment.
func spinRound(x uint32) uint32 {
	x += 0x9E3779B9
	x = (x ^ x>>16) * 0x21F0AAAD
	x = (x ^ x>>15) * 0x735A2D97
	return x ^ x>>15
}
