package ref

import (
	"fmt"
	"slices"

	"github.com/ringscope/ringscope/wgsl/abi"
	"github.com/ringscope/ringscope/wgsl/abi/spawn"
)

// The spawn extension (docs/PROTOCOL-SPAWN.md) and user opcodes: the Go
// twin of spawn_prelude.wgsl, spawn_scan.wgsl and spawn_finalize.wgsl,
// for differential tests.

// UserFunc is a user opcode in Go, the twin of its WGSL function: it runs
// for a claimed slot of its opcode and returns the slot's end status
// (abi.StatusDone …), or a fault code (user_fault(c) is
// abi.FaultUserFirst + c) with status 0. Its own buffers are the
// closure's.
type UserFunc func(c *Call) (status uint32, fault uint32)

// Call is one run of a user opcode.
type Call struct {
	Slot uint32
	Args [abi.SlotArgs]uint32
	m    *machine
}

// Spawn is spawn() of the user prelude: it publishes an item into
// partition priority for the next pass and reports whether it did.
func (c *Call) Spawn(op, tenant, priority uint32, args [abi.SlotArgs]uint32) bool {
	return c.m.spawn(c.Slot, op, tenant, priority, &args)
}

// Kernel is what a submission runs besides the built-in opcodes: user
// opcodes, and whether it binds the spawn state (a spawning kernel).
type Kernel struct {
	User map[uint32]UserFunc
	// Spawn is the spawn state buffer (spawn.SpawnWords words), nil for
	// a v1 kernel.
	Spawn []byte
}

// NewSpawnState is a spawn state buffer as the host initialises it.
func NewSpawnState() []byte {
	b := make([]byte, spawn.SpawnWords*abi.WordBytes)
	abi.PutWord(b, spawn.SpawnWordMagic, spawn.SpawnMagic)
	abi.PutWord(b, spawn.SpawnWordVersion, spawn.SpawnVersion)
	for p := range abi.PriorityLevels {
		abi.PutWord(b, spawn.SpawnFree+p, spawn.SpawnFreeUnset)
	}
	return b
}

// RunGenerations executes one submission of a kernel: passes generations,
// each spawn scan (when k spawns), drain over g, then the spawn finalize
// (or v1's finalize clamp). Every pass runs, as every dispatch the host
// encoded does, whether or not work is left. It returns one Result per
// pass.
func RunGenerations(b Buffers, g Grid, k Kernel, passes int) ([]Result, error) {
	if err := check(b); err != nil {
		return nil, err
	}
	if k.Spawn != nil && len(k.Spawn) < spawn.SpawnWords*abi.WordBytes {
		return nil, fmt.Errorf("ref: spawn state is %d bytes, want %d", len(k.Spawn), spawn.SpawnWords*abi.WordBytes)
	}
	out := make([]Result, 0, passes)
	for range passes {
		m := newMachine(b)
		m.k = k
		if k.Spawn != nil {
			m.spawnScan()
		}
		res := m.drain(g)
		if k.Spawn != nil {
			m.spawnFinalize()
		} else {
			m.clamp()
		}
		out = append(out, res)
	}
	return out, nil
}

func (m *machine) clamp() {
	for p := 0; p < abi.PriorityLevels; p++ {
		m.ctl(abi.CtrlHead + p).set(min(m.ctl(abi.CtrlHead+p).get(), m.ctl(abi.CtrlTail+p).get()))
	}
}

func (m *machine) sp(w int) cell { return cell(m.k.Spawn[w*abi.WordBytes:][:abi.WordBytes]) }

// spawnScan is spawn_scan.wgsl's spawn_scan.
func (m *machine) spawnScan() {
	for p := 0; p < abi.PriorityLevels; p++ {
		tail := m.ctl(abi.CtrlTail + p).get()
		m.sp(spawn.SpawnReserve + p).set(tail)
		m.sp(spawn.SpawnHeadStart + p).set(min(m.ctl(abi.CtrlHead+p).get(), tail))
		if !m.usable[p] {
			continue
		}
		size, t := m.cap[p], tail%m.cap[p]
		free := m.sp(spawn.SpawnFree + p)
		for pos := uint32(0); pos < size; pos++ {
			st := m.slotWord(m.off[p]+pos, abi.SlotStatus).get()
			if st == abi.StatusEmpty || st == abi.StatusDone {
				continue
			}
			d := (pos + size - t) % size
			free.set(min(free.get(), d))
		}
	}
}

// spawnFinalize is spawn_finalize.wgsl's spawn_finalize.
func (m *machine) spawnFinalize() {
	gen := m.sp(spawn.SpawnGenerations).get()
	var claimed, spawned uint32
	for p := 0; p < abi.PriorityLevels; p++ {
		tail := m.ctl(abi.CtrlTail + p).get()
		head := min(m.ctl(abi.CtrlHead+p).get(), tail)
		m.ctl(abi.CtrlHead + p).set(head)
		claimed += head - m.sp(spawn.SpawnHeadStart+p).get()
		var n uint32
		if m.usable[p] {
			n = min(m.sp(spawn.SpawnReserve+p).get()-tail, m.sp(spawn.SpawnFree+p).get(), m.cap[p])
		}
		m.ctl(abi.CtrlTail + p).set(tail + n)
		m.sp(spawn.SpawnReserve + p).set(tail + n)
		m.sp(spawn.SpawnFree + p).set(spawn.SpawnFreeUnset)
		m.sp(spawn.SpawnHeadStart + p).set(head)
		spawned += n
	}
	refused := m.sp(spawn.SpawnRefusedFull).get() + m.sp(spawn.SpawnRefusedBad).get()
	e := spawn.SpawnHistoryFirst + int(gen%spawn.SpawnHistory)*spawn.SpawnEntryWords
	m.sp(e + spawn.SpawnEntryPass).set(gen + 1)
	m.sp(e + spawn.SpawnEntryClaimed).set(claimed)
	m.sp(e + spawn.SpawnEntrySpawned).set(spawned)
	m.sp(e + spawn.SpawnEntryRefused).set(refused - m.sp(spawn.SpawnRefusedSeen).get())
	m.sp(spawn.SpawnRefusedSeen).set(refused)
	m.sp(spawn.SpawnTotal).add(spawned)
	m.sp(spawn.SpawnGenerations).set(gen + 1)
}

// builtIns are the opcodes of PROTOCOL §4 that execute runs, ascending.
var builtIns = []uint32{abi.OpNop, abi.OpStoreU32, abi.OpAtomicAdd, abi.OpLoadU32, abi.OpCompareSwap,
	abi.OpMemcpy, abi.OpDFAStep, abi.OpBatchFence, abi.OpHash, abi.OpSpin, abi.OpYield, abi.OpRequeue,
	abi.OpWaitIO, abi.OpRaise, abi.OpPrintf, abi.OpShutdown}

func (m *machine) implements(op uint32) bool {
	if _, ok := m.k.User[op]; ok {
		return true
	}
	_, ok := slices.BinarySearch(builtIns, op)
	return ok
}

// spawn is spawn_prelude.wgsl's spawn, for the user opcode running slot.
func (m *machine) spawn(slot, op, tenant, p uint32, args *[abi.SlotArgs]uint32) bool {
	if m.k.Spawn == nil {
		return false // a v1 kernel has no spawn; the WGSL would not compile
	}
	refuse := func(code uint32) bool {
		m.sp(spawn.SpawnRefusedBad).add(1)
		m.record(abi.LogFaultTag|code, slot, op, m.epoch)
		return false
	}
	switch {
	case !m.implements(op):
		return refuse(spawn.FaultSpawnOpcode)
	case tenant >= abi.TenantCount || m.ctl(abi.CtrlTenantMask+int(tenant)).get() == 0:
		return refuse(spawn.FaultSpawnTenant)
	case p >= abi.PriorityLevels || !m.usable[p]:
		return refuse(spawn.FaultSpawnPriority)
	}
	tail := m.ctl(abi.CtrlTail + int(p)).get()
	room := min(m.sp(spawn.SpawnFree+int(p)).get(), m.cap[p])
	reserve := m.sp(spawn.SpawnReserve + int(p))
	if reserve.get()-tail >= room {
		m.sp(spawn.SpawnRefusedFull).add(1)
		return false
	}
	k := reserve.get()
	reserve.set(k + 1)
	to := m.off[p] + k%m.cap[p]
	m.slotWord(to, abi.SlotOpcode).set(op)
	m.slotWord(to, abi.SlotTenant).set(tenant)
	m.slotWord(to, abi.SlotPriority).set(p)
	for i, a := range args {
		m.slotWord(to, abi.SlotArg0+i).set(a)
	}
	m.slotWord(to, abi.SlotStatus).set(abi.StatusPublished)
	if op < spawn.SpawnMetricOpcodes {
		m.sp(spawn.SpawnOpcodeCounts + int(op)).add(1)
	}
	return true
}
