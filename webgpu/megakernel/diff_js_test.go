//go:build js && wasm

package megakernel

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ringscope/ringscope/decode"
	"github.com/ringscope/ringscope/wgsl/abi"
	"github.com/ringscope/ringscope/wgsl/host"
	"github.com/ringscope/ringscope/wgsl/ref"
)

const (
	diffWorkloads   = 120
	diffSubmissions = 3
	diffObservable  = 64
	diffShared      = 16 // OBSERVABLE[0, 16) take only ATOMIC_ADDs
	dfaStates       = 4
	dfaInputByte    = dfaStates * 256 * abi.WordBytes // input bytes follow the table
	dfaInputBytes   = 256
)

// constWords are control words no slot writes during a dispatch: safe
// sources for LOAD_U32 and MEMCPY whatever the lane order.
var constWords = []uint32{abi.CtrlTenantBase, abi.CtrlTenantMask, abi.CtrlTenantMask + 2, abi.CtrlTenantQuota,
	abi.CtrlPriorityOffsets, abi.CtrlPriorityOffsets + 3, abi.CtrlMagic, abi.CtrlABIVersion, abi.CtrlGeneration,
	abi.CtrlTail, abi.CtrlTail + 4}

// workload generates random items whose results do not depend on the
// order lanes run in: ATOMIC_ADDs share words, every other writer owns its
// words, reads touch only words nothing writes.
type workload struct {
	rng    *rand.Rand
	next   uint32 // next unowned OBSERVABLE word
	pokes  []poked
	words  uint32 // control words
	dataW  uint32 // data words
	budget uint32
}

type poked struct {
	index     int // item index in the batch
	word, val uint32
}

func (w *workload) own(n uint32) (uint32, bool) {
	if w.next+n > diffObservable {
		return 0, false
	}
	at := w.next
	w.next += n
	return at, true
}

func (w *workload) item(index int) host.Item {
	r := w.rng
	it := host.Item{Priority: r.Uint32N(abi.PriorityLevels), Tenant: r.Uint32N(2)}
	a := &it.Args
	obs := func(i uint32) uint32 { return abi.CtrlObservable + i }
	add := func() host.Item {
		it.Opcode, a[0], a[1] = abi.OpAtomicAdd, r.Uint32(), obs(r.Uint32N(diffShared))
		return it
	}
	switch k := r.IntN(22); k {
	case 0:
		it.Opcode = abi.OpNop
	case 1:
		return add()
	case 2:
		o, ok := w.own(1)
		if !ok {
			return add()
		}
		it.Opcode, a[0], a[1] = abi.OpStoreU32, r.Uint32(), obs(o)
	case 3:
		o, ok := w.own(1)
		if !ok {
			return add()
		}
		it.Opcode, a[0], a[1] = abi.OpLoadU32, constWords[r.IntN(len(constWords))], o
	case 4:
		o, ok := w.own(2)
		if !ok {
			return add()
		}
		expected := uint32(0)
		if r.IntN(2) == 0 {
			expected = r.Uint32()
		}
		it.Opcode, a[0], a[1], a[2], a[3] = abi.OpCompareSwap, obs(o), expected, r.Uint32(), o+1
	case 5:
		n := r.Uint32N(4)
		o, ok := w.own(n)
		if !ok {
			return add()
		}
		it.Opcode, a[0], a[1], a[2] = abi.OpMemcpy, []uint32{abi.CtrlPriorityOffsets, abi.CtrlMagic, abi.CtrlTail}[r.IntN(3)], obs(o), n
	case 6:
		o, ok := w.own(1)
		if !ok {
			return add()
		}
		n := r.Uint32N(33)
		at := dfaInputByte + r.Uint32N(dfaInputBytes-32)
		if r.IntN(8) == 0 {
			at = w.dataW*abi.WordBytes - r.Uint32N(8) // runs past the data: OUT_OF_BOUNDS
			n += 9
		}
		it.Opcode, a[0], a[1], a[2], a[3] = abi.OpDFAStep, obs(o), 0, at, n
	case 7:
		o, ok := w.own(1)
		if !ok {
			return add()
		}
		it.Opcode, a[0], a[1], a[2] = abi.OpBatchFence, 1, r.Uint32(), o
	case 8:
		o, ok := w.own(1)
		if !ok {
			return add()
		}
		it.Opcode, a[0], a[1], a[2] = abi.OpHash, r.Uint32N(w.dataW-8), r.Uint32N(9), o
	case 9:
		o, ok := w.own(1)
		if !ok {
			return add()
		}
		rounds := r.Uint32N(200)
		if r.IntN(16) == 0 {
			rounds = abi.SpinMaxRounds + 1 + r.Uint32N(4)
		}
		it.Opcode, a[0], a[1], a[2] = abi.OpSpin, rounds, o, r.Uint32()
	case 10:
		it.Opcode = abi.OpYield
	case 11:
		it.Opcode = abi.OpRequeue
	case 12:
		it.Opcode, a[0] = abi.OpWaitIO, r.Uint32()
	case 13:
		it.Opcode, a[0] = abi.OpRaise, r.Uint32()
	case 14:
		it.Opcode, a[0], a[1], a[2] = abi.OpPrintf, r.Uint32N(0xFFFF), r.Uint32(), r.Uint32()
	case 15:
		it.Opcode = []uint32{8, 31, 32, 0xFF, 0x102, 0x7FFFFFFF}[r.IntN(6)]
	case 16:
		it.Opcode, a[0], a[1] = abi.OpStoreU32, 1, r.Uint32N(abi.CtrlObservable) // PROTECTED
	case 17:
		it.Opcode, a[0], a[1] = abi.OpAtomicAdd, 1, w.words+r.Uint32N(3) // OUT_OF_BOUNDS
	case 18:
		it.Opcode, a[0], a[1] = abi.OpLoadU32, w.words+r.Uint32N(1<<20), 0 // OUT_OF_BOUNDS read
	case 19:
		it = add()
		it.Tenant = 2 // masked: DENIED, parked
	case 20:
		it = add()
		w.pokes = append(w.pokes, poked{index, abi.SlotTenant, abi.TenantCount + r.Uint32N(100)}) // BAD_TENANT
	case 21:
		it = add()
		w.pokes = append(w.pokes, poked{index, abi.SlotStatus, []uint32{abi.StatusClaimed, abi.StatusFault, abi.StatusYield, 9}[r.IntN(4)]}) // BAD_STATE
		// (not EMPTY or DONE: the publisher would reuse the slot while its
		// ticket is pending, and two tickets would name one slot)
	}
	return it
}

func diffData(seed uint64) []byte {
	r := rand.New(rand.NewPCG(seed, 1))
	data := make([]byte, dfaInputByte+dfaInputBytes+64)
	for i := 0; i < dfaStates*256; i++ {
		binary.LittleEndian.PutUint32(data[4*i:], r.Uint32N(dfaStates))
	}
	for i := dfaInputByte; i < len(data); i++ {
		data[i] = byte(r.Uint32())
	}
	return data
}

// TestDifferential runs random seeded workloads on the GPU and in the
// reference interpreter (wgsl/ref), one submission at a time from the same
// input bytes, and compares every order-independent result: the ring's
// statuses and words, every control word (counters, metrics, HEAD/TAIL,
// OBSERVABLE), the log as a multiset of records.
func TestDifferential(t *testing.T) {
	data := diffData(1)
	o := Options{Slots: 16, Masks: []uint32{host.MaskOn, host.MaskOn, 0}, Observable: diffObservable, Budget: 1, Data: data}
	r := openT(t, shared(t), o)
	submissions := 0
	for seed := uint64(0); seed < diffWorkloads; seed++ {
		rng := rand.New(rand.NewPCG(seed, 0xD1FF))
		o.Slots = []uint32{5, 16, 40, 100, 256}[rng.IntN(5)]
		o.LogCapacity = []uint32{0, 3, 64}[rng.IntN(3)]
		o.Budget = []uint32{1, 2, 3, 8}[rng.IntN(4)]
		o.WorkgroupSize = []uint32{64, 128, 256}[rng.IntN(3)]
		o.Grid = []uint32{0, 1, 2, 3, 8}[rng.IntN(5)]
		o.Mode = ModeInterpreter
		if seed%10 == 9 {
			o.Mode = ModeJIT
		}
		require.NoError(t, r.Reset(o))
		w := &workload{rng: rng, next: diffShared, words: abi.ControlWords(diffObservable), dataW: uint32(len(data) / abi.WordBytes), budget: o.Budget}
		n := int(o.Slots) + rng.IntN(int(o.Slots))
		for i := 0; i < n; i++ {
			it := w.item(i)
			off := r.q.Partitions()
			slot := off[it.Priority] + abi.Word(r.q.Control(), abi.CtrlTail+int(it.Priority))%max(off[it.Priority+1]-off[it.Priority], 1)
			if _, err := r.Publish([]host.Item{it}); err != nil {
				continue // partition full: fine, the workload is what fits
			}
			// Poke what the publisher refuses to write: tenants ≥ 29,
			// claimed slots not PUBLISHED (the slot is dirty, so it uploads).
			if k := len(w.pokes); k > 0 && w.pokes[k-1].index == i {
				poke(r, slot, int(w.pokes[k-1].word), w.pokes[k-1].val)
			}
		}

		for s := 0; s < diffSubmissions && r.needsSubmit(); s++ {
			in := ref.Buffers{
				Control: bytes.Clone(r.q.Control()),
				Ring:    bytes.Clone(r.q.Ring()),
				Log:     bytes.Clone(r.q.Log()),
				Params:  paramsOf(r),
				Data:    data,
			}
			ep, err := r.Step(ctxT(t))
			require.NoError(t, err, "seed %d submission %d", seed, s)
			res, err := ref.Run(in, ref.Grid{Workgroups: ep.Grid, Width: ep.Width})
			require.NoError(t, err)
			submissions++
			if !compareSubmission(t, seed, s, r, in, res, ep) {
				return
			}
			_, err = r.q.Requeue(nil)
			require.NoError(t, err)
		}
	}
	t.Logf("%d workloads, %d submissions compared", diffWorkloads, submissions)
}

func paramsOf(r *Runner) []byte {
	p := r.q.Params(r.opts.Budget).Bytes()
	return p[:]
}

// compareSubmission compares the GPU's result of one submission (the host
// copy after Absorb) with the interpreter's.
func compareSubmission(t *testing.T, seed uint64, sub int, r *Runner, want ref.Buffers, res ref.Result, ep *Epoch) bool {
	t.Helper()
	ok := true
	fail := func(format string, args ...any) {
		t.Errorf("seed %d submission %d (slots %d, grid %d×%d, budget %d, %s): "+format,
			append([]any{seed, sub, r.q.Slots(), ep.Grid, ep.Width, r.opts.Budget, ep.Program}, args...)...)
		ok = false
	}
	if ep.Claimed != res.Claims {
		fail("claimed %d, reference %d", ep.Claimed, res.Claims)
	}
	gotRing := r.q.Ring()
	for s := 0; s < len(gotRing)/abi.SlotBytes; s++ {
		g, e := gotRing[s*abi.SlotBytes:(s+1)*abi.SlotBytes], want.Ring[s*abi.SlotBytes:(s+1)*abi.SlotBytes]
		if !bytes.Equal(g, e) {
			fail("slot %d: GPU status %d, reference %d (words %v vs %v)", s,
				abi.Word(g, abi.SlotStatus), abi.Word(e, abi.SlotStatus), words(g), words(e))
		}
	}
	gotCtl := r.q.Control()
	remaining := pendingItems(want.Control) > 0
	for w := 0; w < len(gotCtl)/abi.WordBytes; w++ {
		if w == abi.CtrlBudgetExhausted && !remaining {
			// A lane that spends its budget while others still claim the
			// last items counts itself on the GPU; the interpreter checks
			// after every lane finished. Only a ring with work left is
			// order-independent.
			continue
		}
		if g, e := abi.Word(gotCtl, w), abi.Word(want.Control, w); g != e {
			fail("control word %d: GPU %#x, reference %#x", w, g, e)
		}
	}
	var gl, wl decode.Log
	require.NoError(t, decode.DecodeLogInto(&gl, r.q.Log()))
	require.NoError(t, decode.DecodeLogInto(&wl, want.Log))
	if gl.Cursor != wl.Cursor || len(gl.Records) != len(wl.Records) {
		fail("log cursor %d (%d records), reference %d (%d):\nGPU %v\nref %v", gl.Cursor, len(gl.Records), wl.Cursor, len(wl.Records), gl.Records, wl.Records)
	} else if gl.Dropped == 0 {
		sortRecords(gl.Records)
		sortRecords(wl.Records)
		if !slices.Equal(gl.Records, wl.Records) {
			fail("log records differ:\nGPU %v\nref %v", gl.Records, wl.Records)
		}
	}
	return ok
}

func sortRecords(rs []decode.LogRecord) {
	slices.SortFunc(rs, func(a, b decode.LogRecord) int {
		return cmp.Or(cmp.Compare(a.Slot, b.Slot), cmp.Compare(a.Format, b.Format), cmp.Compare(a.A, b.A), cmp.Compare(a.B, b.B))
	})
}

func words(b []byte) []uint32 {
	w := make([]uint32, len(b)/abi.WordBytes)
	for i := range w {
		w[i] = abi.Word(b, i)
	}
	return w
}

// TestDifferentialWorkgroupClaims is TestDifferential with the drain
// claiming by workgroup (wgsl.WorkgroupClaims), which the runner chooses on
// GPUs only: this device may be a fallback adapter. TestDifferential opens
// its own runner, whose pipelines are compiled with the choice.
func TestDifferentialWorkgroupClaims(t *testing.T) {
	on := true
	testWorkgroupClaims = &on
	t.Cleanup(func() { testWorkgroupClaims = nil })
	TestDifferential(t)
}
