package capture

// Default bounds of the page's recorder: DefaultMaxBytes in all, of which
// DefaultHistoryBytes hold its history of compact frames (history.go) and
// the rest its newest frames whole.
const (
	DefaultMaxFrames     = 600
	DefaultMaxBytes      = 96 << 20
	DefaultHistoryFrames = 16384
	DefaultHistoryBytes  = 24 << 20
)

// Recorder is a bounded flight recorder: the last frames recorded, at most
// maxFrames of them and at most maxBytes of buffer storage (control, ring,
// patch and log capacity). Recording past either bound evicts the oldest
// frames, into its history when it keeps one (KeepHistory): there they
// stay as compact frames, without their slots, thinned as they age, so
// the recorder covers minutes where its whole frames cover seconds. The
// history's frames come first (At, Frames). A frame may hold its ring as a patch of the frame recorded before
// it (Frame.Patch); evicting that frame patches its ring into the next one,
// so the oldest frame held never needs one that is gone.
// Record copies the frame's bytes, reusing the storage of the frame it
// evicts, so a steady recorder of same-shaped frames stops allocating once
// full. A Recorder is not safe for concurrent use. The zero value is not
// usable: create one with NewRecorder.
type Recorder struct {
	maxFrames, maxBytes int
	frames              []Frame // a ring: frames[start] is the oldest
	start, n            int
	bytes               int
	dropped             uint64
	skipped             uint64
	// slots is the ring size of the newest frame, when it shows one
	// (a whole ring or a patch), else 0: what a patch may apply to.
	slots int
	hist  history
	occ   occupancies
}

// KeepHistory makes the recorder keep the frames it evicts as compact
// frames, at most frames of them in at most bytes (on top of its own
// bounds); 0 frames keeps none. It forgets the history held.
func (r *Recorder) KeepHistory(frames, bytes int) {
	r.hist = history{maxFrames: max(frames, 0), maxBytes: max(bytes, 0)}
}

// NewPageRecorder returns a recorder of the page's default bounds:
// DefaultMaxBytes in all, DefaultHistoryBytes of it history.
func NewPageRecorder() *Recorder {
	r := NewRecorder(DefaultMaxFrames, DefaultMaxBytes-DefaultHistoryBytes)
	r.KeepHistory(DefaultHistoryFrames, DefaultHistoryBytes)
	return r
}

// NewRecorder returns an empty recorder of maxFrames frames and maxBytes
// bytes; values below 1 mean the defaults.
func NewRecorder(maxFrames, maxBytes int) *Recorder {
	if maxFrames < 1 {
		maxFrames = DefaultMaxFrames
	}
	if maxBytes < 1 {
		maxBytes = DefaultMaxBytes
	}
	return &Recorder{maxFrames: maxFrames, maxBytes: maxBytes}
}

// MaxFrames and MaxBytes are the recorder's bounds, its history's
// included.
func (r *Recorder) MaxFrames() int { return r.maxFrames + r.hist.maxFrames }

// MaxBytes is the byte bound.
func (r *Recorder) MaxBytes() int { return r.maxBytes + r.hist.maxBytes }

// Len is the number of frames held.
func (r *Recorder) Len() int { return r.hist.len() + r.n }

// Compact is the number of frames held compact, in the history: frames
// 0 … Compact()-1.
func (r *Recorder) Compact() int { return r.hist.len() }

// Bytes is the storage held, in bytes: the buffers' capacity, and for a
// compact frame what holds it.
func (r *Recorder) Bytes() int { return r.bytes + r.hist.held() }

// Dropped counts frames no longer held: evicted, or thinned from the
// history.
func (r *Recorder) Dropped() uint64 { return r.dropped + r.hist.gone }

// Skipped counts frames not recorded because one alone exceeds maxBytes.
func (r *Recorder) Skipped() uint64 { return r.skipped }

// At returns frame i, 0 being the oldest held. It aliases the recorder's
// storage, which a later Record may reuse.
func (r *Recorder) At(i int) *Frame {
	h := r.hist.len()
	switch {
	case i < 0:
		return nil
	case i < h:
		return &r.hist.frames[i]
	}
	if i -= h; i >= r.n {
		return nil
	}
	return &r.frames[(r.start+i)%len(r.frames)]
}

// Frames returns the frames held, oldest first; their bytes alias the
// recorder's storage (valid until the next Record or Reset).
func (r *Recorder) Frames() []Frame {
	out := make([]Frame, r.Len())
	for i := range out {
		out[i] = *r.At(i)
	}
	return out
}

// Reset forgets every frame (and the counters) but keeps the bounds.
func (r *Recorder) Reset() {
	h, o := r.hist, r.occ
	h.reset()
	o.reset()
	*r = Recorder{maxFrames: r.maxFrames, maxBytes: r.maxBytes, hist: h, occ: o}
}

func frameBytes(f *Frame) int { return cap(f.Control) + cap(f.Ring) + cap(f.Patch) + cap(f.Log) }

// Record copies f into the recorder, evicting the oldest frames as the
// bounds require. It returns false, recording nothing, when f alone needs
// more than maxBytes, or f is a patch (Frame.Patch) that does not apply to
// the newest frame held (another generation, no ring, a malformed patch) or
// that does not fit beside the whole ring it needs.
func (r *Recorder) Record(f *Frame) bool {
	need := len(f.Control) + len(f.Ring) + len(f.Patch) + len(f.Log)
	if need > r.maxBytes || (f.Patch != nil && !r.patchable(f, need)) {
		r.skipped++
		return false
	}
	if len(r.frames) < r.maxFrames && r.n == len(r.frames) && r.start == 0 {
		r.frames = append(r.frames, Frame{}) // grow until full
		r.occ.grow(len(r.frames))
	}
	// Evict until the new frame fits. The slot the new frame lands in is
	// the oldest when the ring of slots is full: its storage is reused.
	// A frame evicted for bytes leaves its slot empty, and its storage
	// goes to the new frame instead of the garbage collector: a recorder
	// held at its byte bound (23 frames of a 65,536-slot ring) would
	// otherwise allocate a whole ring's copy every frame.
	var spare Frame
	for r.n > 0 && (r.n == len(r.frames) || r.bytes+need > r.maxBytes) {
		old := &r.frames[r.start]
		var occ *Occupancy
		if r.hist.maxFrames > 0 {
			occ = r.occ.of(r.start, old) // while its ring is whole
		}
		kept := r.hist.add(old, occ)
		r.bytes -= frameBytes(old)
		if r.n > 1 {
			next := (r.start + 1) % len(r.frames)
			if occ != nil && r.frames[next].Patch != nil {
				r.occ.patched(next, occ, old.Ring, r.frames[next].Patch)
			}
			r.rebase(old, &r.frames[next])
		}
		if r.n < len(r.frames) || r.bytes+need > r.maxBytes {
			spare = Frame{Control: old.Control, Ring: old.Ring, Patch: old.Patch, Log: old.Log}
			*old = Frame{}
		}
		r.start = (r.start + 1) % len(r.frames)
		r.n--
		if !kept {
			r.dropped++
		}
	}
	if f.Patch != nil && r.n == 0 {
		r.skipped++ // its base was evicted after all (patchable guards this)
		return false
	}
	at := (r.start + r.n) % len(r.frames)
	slot := &r.frames[at]
	r.occ.forget(at)
	if f.Ring != nil && r.hist.maxFrames > 0 {
		// Counted now, from the caller's bytes that the page has just
		// decoded (in cache), not at eviction from a copy long out of it.
		r.occ.count(at, f.Ring)
	}
	slot.Control = roomier(slot.Control, spare.Control)
	slot.Ring = roomier(slot.Ring, spare.Ring)
	slot.Patch = roomier(slot.Patch, spare.Patch)
	slot.Log = roomier(slot.Log, spare.Log)
	slot.Seq, slot.AtMillis, slot.Generation, slot.Meta = f.Seq, f.AtMillis, f.Generation, f.Meta
	if f.Meta.Dispatch != nil {
		d := *f.Meta.Dispatch
		slot.Meta.Dispatch = &d
	}
	slot.Meta.Spawn = cloneSpawn(f.Meta.Spawn)
	slot.Control = copyOrNil(slot.Control, f.Control)
	slot.Ring = copyOrNil(slot.Ring, f.Ring)
	slot.Patch = copyOrNil(slot.Patch, f.Patch)
	slot.Log = copyOrNil(slot.Log, f.Log)
	if b := frameBytes(slot); r.bytes+b > r.maxBytes {
		// Reused storage larger than needed: trim to the bytes held.
		slot.Control = copyOrNil(nil, slot.Control)
		slot.Ring = copyOrNil(nil, slot.Ring)
		slot.Patch = copyOrNil(nil, slot.Patch)
		slot.Log = copyOrNil(nil, slot.Log)
	}
	r.bytes += frameBytes(slot)
	r.n++
	switch {
	case f.Ring != nil:
		r.slots = len(f.Ring) / SlotBytes
	case f.Patch == nil:
		r.slots = 0
	}
	return true
}

// patchable reports whether patch frame f (need bytes) applies to the
// newest frame held and fits in maxBytes beside the whole ring it patches,
// which is what that frame becomes once the frames before it are evicted.
func (r *Recorder) patchable(f *Frame, need int) bool {
	newest := r.newest()
	if newest == nil || r.slots == 0 || newest.Generation != f.Generation || checkPatch(f.Patch, r.slots) != nil {
		return false
	}
	return need+r.slots*SlotBytes+cap(newest.Control)+cap(newest.Log) <= r.maxBytes
}

// rebase is evict's step for the oldest frame old, when next holds its
// ring as a patch of old's: next takes old's ring storage with its patch
// applied, and old keeps next's patch storage (for reuse). old's bytes are
// no longer counted; next's change by what it gained and gave.
func (r *Recorder) rebase(old, next *Frame) {
	if next.Patch == nil {
		return
	}
	r.bytes += cap(old.Ring) - cap(next.Patch)
	applyPatch(old.Ring, next.Patch) // Record checked it against old's ring
	old.Ring, old.Patch, next.Ring, next.Patch = nil, next.Patch, old.Ring, nil
}

// copyOrNil copies src into dst's storage; a nil src stays nil (no ring
// read back), keeping dst's storage out of the accounting.
// A new allocation is of exactly len(src) bytes, so that the accounting
// (capacities) matches the bytes held.
func copyOrNil(dst, src []byte) []byte {
	if len(src) == 0 {
		return nil
	}
	if cap(dst) < len(src) {
		dst = make([]byte, len(src))
	}
	dst = dst[:len(src)]
	copy(dst, src)
	return dst
}

// roomier is whichever of a and b has the larger capacity.
func roomier(a, b []byte) []byte {
	if cap(b) > cap(a) {
		return b
	}
	return a
}

// newest is the newest frame of the whole tier, nil when it holds none.
func (r *Recorder) newest() *Frame {
	if r.n == 0 {
		return nil
	}
	return &r.frames[(r.start+r.n-1)%len(r.frames)]
}
