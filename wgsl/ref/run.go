package ref

import (
	"encoding/binary"
	"fmt"

	"github.com/ringscope/ringscope/wgsl/abi"
)

// Buffers are the bind group 0 buffers of one submission, as the GPU sees
// them: little-endian u32 words. Run changes Control, Ring and Log in
// place, never their lengths; Params and Data are read only.
type Buffers struct {
	Control []byte // binding 0: 160 + observable words
	Ring    []byte // binding 1: slots × 16 words, slots ≥ 1
	Log     []byte // binding 2: 4 + 4 × capacity words
	Params  []byte // binding 3: exactly 4 words: epoch, budget, observable, flags
	Data    []byte // binding 4: ≥ 1 word
}

// Grid is the drain dispatch's launch geometry: Workgroups workgroups of
// Width lanes. A zero Grid launches no lane (WebGPU allows an empty
// dispatch); only the finalize clamp then runs.
type Grid struct {
	Workgroups uint32
	Width      uint32
}

// Lanes is the number of lanes g launches.
func (g Grid) Lanes() uint64 { return uint64(g.Workgroups) * uint64(g.Width) }

// Result counts what one Run did. Every claimed slot ends in exactly one of
// Done, Faults, Yields (Denied included), Requeues and WaitIOs, so those
// sum to Claims, and DONE_COUNT grew by Done + Faults.
type Result struct {
	Lanes      uint64 // lanes launched
	Iterations uint64 // loop iterations begun, over all lanes; ≤ Lanes × budget
	Claims     uint64 // ring positions claimed, each one slot run
	Done       uint64 // slots that ended DONE
	Faults     uint64 // slots that ended FAULT
	Yields     uint64 // slots that ended YIELD, Denied included
	Requeues   uint64 // slots that ended REQUEUE
	WaitIOs    uint64 // slots that ended WAIT_IO
	Denied     uint64 // claims refused on a zero tenant mask
	Records    uint64 // log records appended (CURSOR growth), dropped ones included
	Exhausted  uint64 // lanes that stopped on their budget with work left
}

// Run executes one submission over b: the bounded drain dispatch of g's
// lanes (each at most params.budget iterations), then the finalize clamp
// HEAD[p] = min(HEAD[p], TAIL[p]). It returns an error, and changes
// nothing, only when a buffer has a malformed length; the buffers' contents
// may be anything. It never panics and never writes out of bounds.
func Run(b Buffers, g Grid) (Result, error) {
	if err := check(b); err != nil {
		return Result{}, err
	}
	m := newMachine(b)
	res := m.drain(g)
	m.clamp()
	return res, nil
}

func check(b Buffers) error {
	for _, c := range [...]struct {
		name string
		b    []byte
	}{{"control", b.Control}, {"ring", b.Ring}, {"log", b.Log}, {"params", b.Params}, {"data", b.Data}} {
		if len(c.b)%abi.WordBytes != 0 {
			return fmt.Errorf("ref: %s length %d bytes is not a whole number of %d-byte words", c.name, len(c.b), abi.WordBytes)
		}
	}
	switch {
	case len(b.Control) < abi.ControlMinWords*abi.WordBytes:
		return fmt.Errorf("ref: control length %d bytes is shorter than %d", len(b.Control), abi.ControlMinWords*abi.WordBytes)
	case len(b.Ring) == 0 || len(b.Ring)%abi.SlotBytes != 0:
		return fmt.Errorf("ref: ring length %d bytes is not a whole, non-zero number of %d-byte slots", len(b.Ring), abi.SlotBytes)
	case len(b.Log) < abi.LogHeaderWords*abi.WordBytes || (len(b.Log)/abi.WordBytes-abi.LogHeaderWords)%abi.LogRecordWords != 0:
		return fmt.Errorf("ref: log length %d bytes is not %d header words plus whole %d-word records", len(b.Log), abi.LogHeaderWords, abi.LogRecordWords)
	case len(b.Params) != abi.ParamsWords*abi.WordBytes:
		return fmt.Errorf("ref: params length %d bytes, want %d", len(b.Params), abi.ParamsWords*abi.WordBytes)
	case len(b.Data) == 0:
		return fmt.Errorf("ref: data buffer is empty; bind at least one word")
	}
	return nil
}

// cell is one word of a byte buffer.
type cell []byte

func (r cell) get() uint32  { return binary.LittleEndian.Uint32(r) }
func (r cell) set(v uint32) { binary.LittleEndian.PutUint32(r, v) }
func (r cell) add(v uint32) { r.set(r.get() + v) }

// machine is the state of one submission.
type machine struct {
	b        Buffers
	words    uint64 // W: control words
	obs      uint64 // N: writable OBSERVABLE words
	data     uint64 // D: data words
	slots    uint64
	logRoom  uint64 // records the log buffer can hold
	epoch    uint32
	budget   uint32
	usable   [abi.PriorityLevels]bool
	off, cap [abi.PriorityLevels]uint32
	res      Result
	k        Kernel // user opcodes and spawn state; zero for Run
}

func newMachine(b Buffers) *machine {
	m := &machine{
		b:       b,
		words:   uint64(len(b.Control) / abi.WordBytes),
		data:    uint64(len(b.Data) / abi.WordBytes),
		slots:   uint64(len(b.Ring) / abi.SlotBytes),
		logRoom: uint64((len(b.Log)/abi.WordBytes - abi.LogHeaderWords) / abi.LogRecordWords),
	}
	param := func(i int) uint32 { return binary.LittleEndian.Uint32(b.Params[i*abi.WordBytes:]) }
	m.epoch, m.budget = param(abi.ParamEpoch), param(abi.ParamBudget)
	m.obs = min(uint64(param(abi.ParamObservable)), m.words-abi.ControlMinWords)
	for p := 0; p < abi.PriorityLevels; p++ {
		lo, hi := m.ctl(abi.CtrlPriorityOffsets+p).get(), m.ctl(abi.CtrlPriorityOffsets+p+1).get()
		m.usable[p] = lo < hi && uint64(hi) <= m.slots
		m.off[p], m.cap[p] = lo, hi-lo
	}
	return m
}

func (m *machine) ctl(w int) cell      { return cell(m.b.Control[w*abi.WordBytes:][:abi.WordBytes]) }
func (m *machine) ctl64(w uint64) cell { return cell(m.b.Control[w*abi.WordBytes:][:abi.WordBytes]) }
func (m *machine) slotWord(slot uint32, w int) cell {
	return cell(m.b.Ring[(int(slot)*abi.SlotWords+w)*abi.WordBytes:][:abi.WordBytes])
}
func (m *machine) dataWord(i uint64) uint32 {
	return binary.LittleEndian.Uint32(m.b.Data[i*abi.WordBytes:])
}

// workLeft reports whether some usable partition has HEAD < TAIL.
func (m *machine) workLeft() bool {
	for p := 0; p < abi.PriorityLevels; p++ {
		if m.usable[p] && m.ctl(abi.CtrlHead+p).get() < m.ctl(abi.CtrlTail+p).get() {
			return true
		}
	}
	return false
}

// drain runs the lanes in rounds (see the package doc). Active lanes are
// always a prefix [0, n) of the lanes: a lane stops only when it finds
// SHUTDOWN set or no work, and then every later lane of the round does too.
func (m *machine) drain(g Grid) Result {
	n := g.Lanes()
	m.res.Lanes = n
	if n == 0 {
		return m.res
	}
	m.ctl(abi.CtrlDispatches).add(1)
	for r := uint32(0); r < m.budget && n > 0; r++ {
		for i := uint64(0); i < n; i++ {
			m.res.Iterations++
			if !m.iterate() {
				// Lanes i … n−1 each begin this iteration and stop.
				m.res.Iterations += n - i - 1
				n = i
				break
			}
		}
	}
	if n > 0 && m.ctl(abi.CtrlShutdown).get() == 0 && m.workLeft() {
		m.ctl(abi.CtrlBudgetExhausted).add(uint32(n))
		m.res.Exhausted = n
	}
	return m.res
}

// iterate is one loop iteration of one lane; false means the lane stops.
func (m *machine) iterate() bool {
	if m.ctl(abi.CtrlShutdown).get() != 0 {
		return false
	}
	for p := 0; p < abi.PriorityLevels; p++ {
		if !m.usable[p] {
			continue
		}
		head, tail := m.ctl(abi.CtrlHead+p), m.ctl(abi.CtrlTail+p).get()
		c := head.get()
		if c >= tail {
			continue
		}
		head.set(c + 1)
		m.res.Claims++
		m.runSlot(m.off[p]+c%m.cap[p], p)
		return true
	}
	return false
}
