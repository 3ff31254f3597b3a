package host

import (
	"fmt"

	"github.com/ringscope/ringscope/wgsl/abi"
)

// Item is one unit of work as the host publishes it into a ring slot.
// Unused Args are zero; the zero Item is a NOP of tenant 0 at CRITICAL.
type Item struct {
	Opcode   uint32
	Tenant   uint32 // < abi.TenantCount
	Priority uint32 // abi.PriorityCritical (0) … abi.PriorityIdle (4)
	Args     [abi.SlotArgs]uint32
}

// Queue owns the host copies of the control, ring and log buffers of one
// generation and tracks which of their words changed since the last upload.
// The zero value is not usable; create one with NewQueue.
type Queue struct {
	cfg     ControlConfig
	off     [abi.PriorityLevels + 1]uint32
	logCap  uint32
	control []byte
	ring    []byte // ringWords' bytes (wordBytes): one storage, two views
	// ringWords is the ring as words, so Publish writes a slot through
	// a [16]uint32 view instead of 16 sliced, bounds-checked byte writes.
	ringWords []uint32
	log       []byte
	dirty     [bufferCount]dirtySet
	// changed is the ring's slots (whole slots) changed since the last
	// ClearRingChanges, by the host or by an absorb: a recorder's patch.
	changed dirtySet

	pending      pendingOps // the opcodes of the pending items (PendingOpcodes)
	pendingSaved pendingOps // publishFirstLap's copy, to undo with
	// firstLap is set while no whole ring was absorbed since init: then a
	// slot past every position published so far is still init's zeros
	// (publishFirstLap). hasQuotas is set when some tenant has a quota.
	firstLap, hasQuotas bool

	epoch     uint32                  // host epoch, bumped by NewEpoch
	published [abi.TenantCount]uint32 // items published per tenant this epoch
	age       []uint32                // per slot: requeues of the item it holds
	exhausted uint32                  // BUDGET_EXHAUSTED growth at the last Absorb
	prevBE    uint32                  // BUDGET_EXHAUSTED at the last Absorb

	// ringHead is each partition's HEAD (at most TAIL) at the last Absorb
	// of the ring or AbsorbStatusMap: below it the host copy's statuses
	// are the GPU's.
	// reclaimFrom and requeueFrom are where ReclaimFaults and Requeue
	// resume their scans.
	ringHead, reclaimFrom, requeueFrom [abi.PriorityLevels]uint32

	// waits measures queue waits once TrackWaits gave it a clock (nil:
	// not measured).
	waits *Waits
	// ends counts the items that ended per opcode (OpcodeEnds).
	ends opcodeEnds
}

// NewQueue returns a Queue with a fresh control buffer for cfg, an all-EMPTY
// ring of cfg.Slots slots and an empty log of logCapacity records. All three
// buffers start dirty (wholly).
func NewQueue(cfg ControlConfig, logCapacity uint32) (*Queue, error) {
	if logCapacity > MaxLogCapacity {
		return nil, fmt.Errorf("host: log capacity %d records, want at most %d", logCapacity, MaxLogCapacity)
	}
	q := &Queue{logCap: logCapacity}
	if err := q.init(cfg); err != nil {
		return nil, err
	}
	return q, nil
}

func (q *Queue) init(cfg ControlConfig) error {
	if err := cfg.Validate(); err != nil {
		return err
	}
	if cfg.Masks != nil {
		cfg.Masks = append([]uint32(nil), cfg.Masks...) // the caller keeps its slice
	}
	q.cfg, q.off = cfg, cfg.partitions()
	q.control = resize(q.control, cfg.ControlBytes())
	encodeControlInto(q.control, &cfg)
	q.ringWords = resize(q.ringWords, int(cfg.Slots)*abi.SlotWords)
	q.ring = wordBytes(q.ringWords)
	q.log = resize(q.log, int(abi.LogWords(q.logCap))*abi.WordBytes)
	abi.PutWord(q.log, abi.LogCapacity, q.logCap)
	q.age = resize(q.age, int(cfg.Slots))
	q.epoch, q.published = 0, [abi.TenantCount]uint32{}
	q.pending.reset()
	q.firstLap, q.hasQuotas = true, cfg.Quotas != [abi.TenantCount]uint32{}
	q.exhausted, q.prevBE = 0, 0
	q.ringHead, q.reclaimFrom, q.requeueFrom = [abi.PriorityLevels]uint32{}, [abi.PriorityLevels]uint32{}, [abi.PriorityLevels]uint32{}
	for b := range q.dirty {
		q.dirty[b].clear()
	}
	q.dirty[ControlBuffer].markWords(0, len(q.control)/abi.WordBytes)
	q.dirty[RingBuffer].markWords(0, len(q.ring)/abi.WordBytes)
	q.dirty[LogBuffer].markWords(0, len(q.log)/abi.WordBytes)
	q.changed.clear()
	q.changed.markWords(0, len(q.ring)/abi.WordBytes)
	if q.waits != nil {
		q.waits.reset(cfg.Slots)
	}
	q.ends.reset()
	return nil
}

// resize returns a zeroed slice of n elements, reusing s when it is large
// enough.
func resize[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	s = s[:n]
	clear(s)
	return s
}

// Reset re-initialises the queue for cfg as the next generation: GENERATION
// becomes the current one + 1 (cfg.Generation is ignored), every counter,
// HEAD and TAIL restart at 0, the ring is all EMPTY, the log empty, quotas
// and requeue ages forgotten. The buffer lengths follow cfg, so a runner
// must compare them with its GPU buffers. Everything is dirty. On error the
// queue is unchanged.
func (q *Queue) Reset(cfg ControlConfig) error {
	cfg.Generation = q.Generation() + 1
	if err := cfg.Validate(); err != nil {
		return err
	}
	return q.init(cfg)
}

// Control is the host copy of the control buffer (binding 0). It aliases the
// queue's storage: read it for uploads, never write it.
func (q *Queue) Control() []byte { return q.control }

// Ring is the host copy of the ring buffer (binding 1); see Control.
func (q *Queue) Ring() []byte { return q.ring }

// Log is the host copy of the log buffer (binding 2); see Control.
func (q *Queue) Log() []byte { return q.log }

// Slots is the number of ring slots.
func (q *Queue) Slots() uint32 { return q.cfg.Slots }

// Partitions is PRIORITY_OFFSETS.
func (q *Queue) Partitions() [abi.PriorityLevels + 1]uint32 { return q.off }

// Generation is the GENERATION word.
func (q *Queue) Generation() uint32 { return abi.Word(q.control, abi.CtrlGeneration) }

// Epoch is the host epoch: the number of NewEpoch calls since the generation
// began. Quotas count per host epoch; Params puts it in params.epoch.
func (q *Queue) Epoch() uint32 { return q.epoch }

// Params returns the params uniform of the next submission with the given
// per-lane budget: the host epoch, the OBSERVABLE word count, and
// abi.ParamFlagUnlapped when the control words show no partition more
// than a lap ahead (Unlapped).
func (q *Queue) Params(budget uint32) Params {
	p := Params{Epoch: q.epoch, Budget: budget, Observable: q.cfg.Observable}
	if q.Unlapped() {
		p.Flags |= abi.ParamFlagUnlapped
	}
	return p
}

// Unlapped reports whether, in the host's control words, every partition
// of a non-zero capacity C has TAIL − HEAD ≤ C (mod 2^32): no two tickets
// of the next submission name one slot. The GPU's HEAD is never below the
// host's copy (the host takes it from the last readback, and only the
// GPU's claims move it, upwards), so the GPU's pending count is at most
// the one checked here. A queue's own publisher keeps this true; a control
// buffer written by hand (a TAIL past a lap) does not.
func (q *Queue) Unlapped() bool {
	for p := range abi.PriorityLevels {
		lo := abi.Word(q.control, abi.CtrlPriorityOffsets+p)
		c := abi.Word(q.control, abi.CtrlPriorityOffsets+p+1) - lo
		if c != 0 && q.tail(uint32(p))-q.head(uint32(p)) > c {
			return false
		}
	}
	return true
}

// Dirty returns the sorted, coalesced byte ranges of b that changed since
// the last ClearDirty. The slice is the queue's own, valid until its next
// change; it never contains a word the host did not write, so uploading
// the ranges never overwrites a GPU-written counter with a stale value.
func (q *Queue) Dirty(b Buffer) []ByteRange {
	if b < 0 || b >= bufferCount {
		return nil
	}
	return q.dirty[b].ranges()
}

// markRing records a host write of n words at word w of slot: dirty for the
// upload, changed for RingChanges.
func (q *Queue) markRing(slot uint32, w, n int) {
	q.dirty[RingBuffer].markWords(w, n)
	q.changed.markWords(int(slot)*abi.SlotWords, abi.SlotWords)
}

// RingChanges returns the byte ranges of the ring, sorted, coalesced and
// in whole slots, that changed since the last ClearRingChanges (or the
// Queue's start or Reset): the host's writes (publishes, requeues, fault
// reclaims), the statuses AbsorbStatusMap took and, for an Absorb of the
// ring, all of it. A flight recorder's patch of the host copy. The slice
// is the Queue's, valid until its next change.
func (q *Queue) RingChanges() []ByteRange { return q.changed.ranges() }

// ClearRingChanges forgets the ring's changes (RingChanges).
func (q *Queue) ClearRingChanges() { q.changed.clear() }

// ClearDirty forgets every dirty range; call it after the upload.
func (q *Queue) ClearDirty() {
	for b := range q.dirty {
		q.dirty[b].clear()
	}
}

func (q *Queue) setControl(w int, v uint32) {
	abi.PutWord(q.control, w, v)
	q.dirty[ControlBuffer].markWords(w, 1)
}

// SetTenantMask enables (MaskOn) or disables (0) tenant.
func (q *Queue) SetTenantMask(tenant uint32, on bool) error {
	if tenant >= abi.TenantCount {
		return fmt.Errorf("host: tenant %d: %w (want < %d)", tenant, ErrTenant, abi.TenantCount)
	}
	v := uint32(0)
	if on {
		v = MaskOn
	}
	q.setControl(abi.CtrlTenantMask+int(tenant), v)
	return nil
}

// TenantEnabled reports whether tenant's mask is non-zero.
func (q *Queue) TenantEnabled(tenant uint32) bool {
	return tenant < abi.TenantCount && abi.Word(q.control, abi.CtrlTenantMask+int(tenant)) != 0
}

// SetShutdown sets (1) or clears (0) SHUTDOWN. Lanes stop claiming while it
// is set; the GPU's SHUTDOWN opcode sets it too.
func (q *Queue) SetShutdown(on bool) {
	v := uint32(0)
	if on {
		v = 1
	}
	q.setControl(abi.CtrlShutdown, v)
}

// Shutdown reports whether SHUTDOWN is non-zero.
func (q *Queue) Shutdown() bool { return abi.Word(q.control, abi.CtrlShutdown) != 0 }

// NewEpoch starts the next host epoch: every tenant's quota is available
// again.
func (q *Queue) NewEpoch() {
	q.epoch++
	q.published = [abi.TenantCount]uint32{}
}

// capacity is the number of slots of partition p.
func (q *Queue) capacity(p uint32) uint32 { return q.off[p+1] - q.off[p] }

// slotOf is the slot of the k-th item of partition p (capacity > 0).
func (q *Queue) slotOf(p, k uint32) uint32 { return q.off[p] + k%q.capacity(p) }

func (q *Queue) head(p uint32) uint32 { return abi.Word(q.control, abi.CtrlHead+int(p)) }
func (q *Queue) tail(p uint32) uint32 { return abi.Word(q.control, abi.CtrlTail+int(p)) }

func (q *Queue) status(slot uint32) uint32 {
	return abi.Word(q.ring, int(slot)*abi.SlotWords+abi.SlotStatus)
}

// reusable reports whether slot may receive a new item: EMPTY or DONE.
func (q *Queue) reusable(slot uint32) bool {
	s := q.status(slot)
	return s == abi.StatusEmpty || s == abi.StatusDone
}

// Item returns the item stored in slot and its STATUS.
func (q *Queue) Item(slot uint32) (it Item, status uint32, err error) {
	if slot >= q.cfg.Slots {
		return Item{}, 0, fmt.Errorf("host: slot %d out of range (%d slots)", slot, q.cfg.Slots)
	}
	base := int(slot) * abi.SlotWords
	it.Opcode = abi.Word(q.ring, base+abi.SlotOpcode)
	it.Tenant = abi.Word(q.ring, base+abi.SlotTenant)
	it.Priority = abi.Word(q.ring, base+abi.SlotPriority)
	for a := range it.Args {
		it.Args[a] = abi.Word(q.ring, base+abi.SlotArg0+a)
	}
	return it, abi.Word(q.ring, base+abi.SlotStatus), nil
}
