package workload

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/ringscope/ringscope/wgsl/abi"
	"github.com/ringscope/ringscope/wgsl/host"
)

// Preset names, in menu order. They match the page's settings form.
const (
	DefaultMix        = "default-mix"
	NOPFlood          = "nop-flood"
	SkewedTenants     = "skewed-tenants"
	PriorityInversion = "priority-inversion"
	Stall             = "stall"
	FaultStorm        = "fault-storm"
)

// Layout of what a Generator's items touch.
const (
	// ObservableWords is the OBSERVABLE region the items write into.
	ObservableWords = 256
	// DataWords is the size of the data buffer (binding 4) the items read:
	// a DFA table of dfaStates × 256 words, then pseudo-random words.
	DataWords = 4096
	// dfaStates is the number of states of the DFA that DFA_STEP items run;
	// their state words are the last dfaStates OBSERVABLE words, which no
	// other item writes, so a state is always a valid table row.
	dfaStates   = 4
	dfaRowWords = 256
	dfaTableEnd = dfaStates * dfaRowWords
	sharedWords = ObservableWords - dfaStates
	// unknownOpcode is a user opcode no kernel implements.
	unknownOpcode = 0x1234
)

// PRINTF format ids and their text; a and b are the record's two arguments.
var Formats = map[uint32]string{
	1: "tenant %d reached checkpoint %d",
	2: "window %d flushed, %d words",
	3: "spin of %d rounds returned 0x%x",
}

// Spec is what a Generator needs. The zero value is invalid.
type Spec struct {
	// Preset is one of Presets.
	Preset string
	// Slots is the ring size; bounds per-generation caps and frame sizes.
	Slots uint32
	// Tenants is the number of tenant ids used, 1 … abi.TenantCount.
	Tenants uint32
	// WindowOpcodes are the opcodes decoded as ticketed windows; the
	// generator publishes windows only for HASH when it is listed.
	WindowOpcodes []uint32
	// Seed makes the stream reproducible.
	Seed uint64
}

// Generator produces the items of one preset. It is not safe for concurrent
// use. Create one per ring generation with New.
type Generator struct {
	spec       Spec
	rng        *rand.Rand
	tenantCDF  []float64
	masked     int // tenant id that is masked, or -1
	faulty     int // tenant id that faults now and then, or -1
	maskedSent uint32
	maskedCap  uint32
	ticket     uint32
	windows    bool

	// The backlog presets' state (backlog.go, inversion.go): the queued
	// items the caller reported, the frame's plan per priority, the cold
	// tenants' distribution and the inversion cycle.
	queued  [abi.PriorityLevels]uint32
	plan    [abi.PriorityLevels]uint32
	coldCDF []float64
	inv     inversion
}

// New returns a generator for spec, or an error naming the bad field.
func New(spec Spec) (*Generator, error) {
	known := false
	for _, p := range Presets {
		known = known || p == spec.Preset
	}
	switch {
	case !known:
		return nil, fmt.Errorf("workload: unknown preset %q (want one of %v)", spec.Preset, Presets)
	case spec.Slots < abi.PriorityLevels:
		return nil, fmt.Errorf("workload: ring of %d slots is too small: every priority needs a slot", spec.Slots)
	case spec.Tenants < 1 || spec.Tenants > abi.TenantCount:
		return nil, fmt.Errorf("workload: %d tenants: want 1…%d", spec.Tenants, abi.TenantCount)
	}
	g := &Generator{spec: spec, rng: rand.New(rand.NewPCG(spec.Seed, 0x72696e6773636f70)), masked: -1, faulty: -1}
	for _, op := range spec.WindowOpcodes {
		g.windows = g.windows || op == abi.OpHash
	}
	skew := 0.0 // uniform
	switch spec.Preset {
	case DefaultMix:
		// No masked tenant: a masked tenant's slots park where they are,
		// and once its partition wraps onto them every publish there is
		// refused (back-pressure the diagnosis rightly reports). A healthy
		// mix is the baseline; the stall preset shows masking.
		skew = 1
		if spec.Tenants >= 3 {
			g.faulty = 1
		}
	case SkewedTenants:
		skew = 1.5
		g.coldCDF = zipfCDF(int(max(spec.Tenants, 2)-1), skew)
	case Stall:
		g.masked = 0
		g.maskedCap = spec.Slots / 2
	}
	g.tenantCDF = zipfCDF(int(spec.Tenants), skew)
	return g, nil
}

// zipfCDF is the cumulative distribution of weights 1/(t+1)^s.
func zipfCDF(n int, s float64) []float64 {
	cdf := make([]float64, n)
	sum := 0.0
	for t := range n {
		sum += 1 / math.Pow(float64(t+1), s)
		cdf[t] = sum
	}
	for t := range cdf {
		cdf[t] /= sum
	}
	return cdf
}

// Masks returns TENANT_MASK for the ring: the preset's tenants enabled but
// its masked tenant, if any.
func (g *Generator) Masks() []uint32 {
	m := make([]uint32, g.spec.Tenants)
	for t := range m {
		if t != g.masked {
			m[t] = host.MaskOn
		}
	}
	return m
}

// MaskedTenant is the tenant the preset keeps masked, or -1.
func (g *Generator) MaskedTenant() int { return g.masked }

// Data returns the data buffer (binding 4) HASH and DFA_STEP items read:
// the DFA table (next state = (31·state + byte) mod dfaStates), then
// pseudo-random words from the seed.
func (g *Generator) Data() []byte {
	r := rand.New(rand.NewPCG(g.spec.Seed, 1))
	b := make([]byte, DataWords*abi.WordBytes)
	for w := range DataWords {
		v := r.Uint32()
		if w < dfaTableEnd {
			state, in := w/dfaRowWords, w%dfaRowWords
			v = uint32((31*state + in) % dfaStates)
		}
		binary.LittleEndian.PutUint32(b[w*abi.WordBytes:], v)
	}
	return b
}

// PerFrame is how many items the preset publishes per frame: enough to keep
// the ring busy without outrunning a drain. For the backlog presets it is a
// bound: each frame publishes its top-ups (SetQueued), at most the ring.
func (g *Generator) PerFrame() int {
	switch g.spec.Preset {
	case NOPFlood:
		return int(g.spec.Slots / 2)
	case Stall:
		return int(max(g.spec.Slots/64, 1))
	case SkewedTenants, PriorityInversion:
		return int(g.spec.Slots)
	}
	return int(max(g.spec.Slots/16, 1))
}

// Next appends n items to dst and returns it; it allocates only when dst
// lacks capacity. A preset whose per-generation caps are spent may return
// fewer than n items (Stall, once its masked work is out). A backlog
// preset's call is one frame: it publishes that frame's plan, at most n.
func (g *Generator) Next(dst []host.Item, n int) []host.Item {
	switch g.spec.Preset {
	case SkewedTenants:
		g.planSkewed()
	case PriorityInversion:
		g.planInversion()
	}
	for range n {
		it, ok := g.item()
		if !ok {
			break
		}
		dst = append(dst, it)
	}
	return dst
}

func (g *Generator) item() (host.Item, bool) {
	switch g.spec.Preset {
	case NOPFlood:
		return host.Item{Opcode: abi.OpNop, Tenant: g.uniform(g.spec.Tenants), Priority: g.uniform(abi.PriorityLevels)}, true
	case SkewedTenants:
		t, p, ok := g.skewedItem()
		return g.spin(t, p, 256), ok
	case PriorityInversion:
		return g.inversionItem()
	case Stall:
		if g.maskedSent >= g.maskedCap {
			return host.Item{}, false
		}
		g.maskedSent++
		return g.spin(uint32(g.masked), g.priority(), 64), true
	case FaultStorm:
		if g.rng.Float64() < 0.4 {
			return g.fault(g.tenant(), g.priority()), true
		}
		return g.mixed(g.tenant(), g.priority()), true
	}
	return g.defaultMix(), true
}

func (g *Generator) defaultMix() host.Item {
	t := g.tenant()
	if int(t) == g.masked {
		if g.maskedSent >= g.maskedCap {
			t = 0
		} else {
			g.maskedSent++
		}
	}
	p := g.priority()
	if int(t) == g.masked {
		// Denied work stays parked in its slot, and a partition cannot
		// publish past a parked slot once it wraps: keep the masked
		// tenant's few items at IDLE, where blocking is what IDLE expects.
		p = abi.PriorityIdle
	}
	if int(t) == g.faulty && g.rng.Float64() < 0.05 {
		return g.fault(t, p)
	}
	return g.mixed(t, p)
}

// mixed draws from every opcode class, weighted like a busy scheduler:
// mostly compute of varying cost, some memory traffic, a few windows, logs,
// fences and WAIT_IO slots. No YIELD or REQUEUE: such an item parks
// every time it runs and the host republishes it forever, an item that
// never ends (the diagnosis's requeue-loop; queue waits that only grow).
func (g *Generator) mixed(t, p uint32) host.Item {
	r := g.rng.Float64()
	obs := g.uniform(sharedWords)
	switch {
	case r < 0.40:
		return g.spin(t, p, 512)
	case r < 0.60:
		return host.Item{Opcode: abi.OpNop, Tenant: t, Priority: p}
	case r < 0.70:
		return item(abi.OpAtomicAdd, t, p, 1, abi.CtrlObservable+t)
	case r < 0.75:
		return item(abi.OpStoreU32, t, p, g.rng.Uint32(), abi.CtrlObservable+obs)
	case r < 0.80:
		return item(abi.OpLoadU32, t, p, abi.CtrlDoneCount, obs)
	case r < 0.83:
		w := abi.CtrlObservable + obs
		return item(abi.OpCompareSwap, t, p, w, 0, g.rng.Uint32(), g.uniform(sharedWords))
	case r < 0.85:
		return item(abi.OpBatchFence, t, p, 1, g.rng.Uint32()&0xFFFF, obs)
	case r < 0.95 && g.windows:
		return g.window(t, p, obs)
	case r < 0.975:
		return item(abi.OpPrintf, t, p, 1+g.uniform(uint32(len(Formats))), t, g.rng.Uint32()&0xFFFF)
	case r < 0.98:
		return item(abi.OpWaitIO, t, p, g.rng.Uint32())
	case r < 0.99:
		return g.dfa(t, p)
	}
	return item(abi.OpHash, t, p, g.uniform(DataWords-8), 8, obs)
}

// window publishes a HASH slot of a ticketed window: ARG0 the ticket (also
// the data word it hashes), ARG1 0 for a required slot, 1 for lookahead.
func (g *Generator) window(t, p, obs uint32) host.Item {
	if g.rng.Float64() < 0.25 {
		g.ticket = (g.ticket + 1) % (DataWords - 1)
	}
	role := uint32(0)
	if g.rng.Float64() < 0.3 {
		role = 1
	}
	return item(abi.OpHash, t, p, g.ticket, role, obs)
}

// dfa runs the DFA over up to 64 random input bytes after the table; the
// state lives in one of the reserved OBSERVABLE words (an absolute word).
func (g *Generator) dfa(t, p uint32) host.Item {
	state := abi.CtrlObservable + sharedWords + g.uniform(dfaStates)
	const inputStart = dfaTableEnd * abi.WordBytes
	const inputBytes = (DataWords-dfaTableEnd)*abi.WordBytes - 64
	return item(abi.OpDFAStep, t, p, state, 0, inputStart+g.uniform(inputBytes), 1+g.uniform(64))
}

func (g *Generator) spin(t, p, maxRounds uint32) host.Item {
	// Log-uniform rounds: most slots are cheap, a few are expensive.
	rounds := uint32(math.Exp(g.rng.Float64() * math.Log(float64(maxRounds))))
	return item(abi.OpSpin, t, p, rounds, g.uniform(sharedWords), g.rng.Uint32())
}

// fault publishes an item that faults for a reason the kernel checks.
func (g *Generator) fault(t, p uint32) host.Item {
	switch g.uniform(4) {
	case 0:
		return item(unknownOpcode, t, p)
	case 1:
		return item(abi.OpStoreU32, t, p, 1, abi.CtrlDoneCount) // PROTECTED
	case 2:
		return item(abi.OpLoadU32, t, p, abi.CtrlObservable+ObservableWords+7, 0) // OUT_OF_BOUNDS
	}
	return item(abi.OpRaise, t, p, 0xBAD)
}

func item(op, t, p uint32, args ...uint32) host.Item {
	it := host.Item{Opcode: op, Tenant: t, Priority: p}
	copy(it.Args[:], args)
	return it
}

func (g *Generator) uniform(n uint32) uint32 { return uint32(g.rng.Uint64N(uint64(n))) }

func (g *Generator) tenant() uint32 {
	u := g.rng.Float64()
	for t, c := range g.tenantCDF {
		if u <= c {
			return uint32(t)
		}
	}
	return uint32(len(g.tenantCDF) - 1)
}

// priority follows a scheduler's usual shape: mostly NORMAL, little CRITICAL.
func (g *Generator) priority() uint32 {
	u := g.rng.Float64()
	for p, c := range [abi.PriorityLevels]float64{0.05, 0.20, 0.70, 0.90, 1} {
		if u < c {
			return uint32(p)
		}
	}
	return abi.PriorityIdle
}
