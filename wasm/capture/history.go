package capture

import (
	"encoding/binary"
	"unsafe"

	"github.com/ringscope/ringscope/decode"
	"github.com/ringscope/ringscope/wgsl/abi"
)

// history is a Recorder's compact tier: the frames its whole tier evicts,
// each kept as what the series, the exports and a diagnosis read (the
// control buffer, the log's fault records, the meta, and the ring's
// occupancy counted from the whole ring it had) without its slots, which
// at 64 bytes a slot are what made a recorder of a large ring hold a few
// seconds. A compact frame is a few kilobytes, so the tier holds minutes.
//
// It thins frames as they age rather than forgetting the oldest: a frame
// younger than band (page time, from the newest) stays; one of age
// [band·2^(k−1), band·2^k) stays when its seq is a multiple of 2^k. So the
// newest band is every frame, the band before it every 2nd, the two before
// that every 4th … and the history's span is the whole recording: its
// frames grow with the log of the span. A frame thinned would be thinned
// at any later age too, so what an export holds never contradicts an
// earlier one. Past either bound the band halves (denser thinning), and
// returns toward its own while the tier is well within them. The zero value holds nothing and refuses every frame;
// Recorder.KeepHistory sets its bounds.
type history struct {
	maxFrames, maxBytes int
	frames              []Frame // oldest first; Ring and Patch nil
	// disp[i] and occ[i] are what frames[i].Meta's pointers point at:
	// kept beside the frames so that thinning moves no allocation.
	disp  []Dispatch
	occ   []Occupancy
	bytes int
	gone  uint64 // frames thinned or forgotten
	// band is the band within the bounds (DefaultHistoryBandMillis when
	// 0); bandMS the band now, narrower after a bound was reached.
	band, bandMS float64
	// added counts frames since the last thinning pass, which runs every
	// so often (a pass is O(frames)) and whenever a bound is reached.
	added int
	// spares is the storage of thinned frames for the next ones (control
	// buffers, logs), spareBytes its capacity: counted in the bound,
	// released when the history needs the room.
	spares     [2][][]byte
	spareBytes int
}

// DefaultHistoryBandMillis is the history's band while within its bounds:
// every frame of the last minute is kept.
const DefaultHistoryBandMillis = 60_000

// minBandMS is the narrowest band: below it the history forgets its
// oldest frames instead.
const minBandMS = 1

// compactOverhead is what a compact frame costs besides its buffers: its
// Frame, Dispatch and Occupancy, counted so that the byte bound is the
// memory the tier holds.
const compactOverhead = int(unsafe.Sizeof(Frame{}) + unsafe.Sizeof(Dispatch{}) + unsafe.Sizeof(Occupancy{}))

func (h *history) len() int { return len(h.frames) }

// add keeps a compact copy of f, the oldest frame of the whole tier (its
// ring, when it has one, is whole; occ its occupancy when known, else it
// is counted), thinning first as the bounds require.
// It reports false when the tier keeps nothing (no bounds) or f alone
// exceeds its bytes.
func (h *history) add(f *Frame, occ *Occupancy) bool {
	logBytes := compactLogBytes(f.Log)
	need := len(f.Control) + logBytes + compactOverhead
	if h.maxFrames < 1 || need > h.maxBytes {
		return false // the recorder counts it dropped
	}
	if h.band <= 0 {
		h.band = DefaultHistoryBandMillis
	}
	if h.bandMS <= 0 {
		h.bandMS = h.band
	}
	h.added++
	full := func() bool { return len(h.frames) >= h.maxFrames || h.bytes+h.spareBytes+need > h.maxBytes }
	if full() || h.added >= max(len(h.frames)/8, 64) {
		h.thin(f.AtMillis)
	}
	for full() {
		if h.spareBytes > 0 {
			h.spares, h.spareBytes = [2][][]byte{}, 0
			continue
		}
		if h.bandMS /= 2; h.bandMS < minBandMS {
			h.bandMS = minBandMS
			h.forgetOldest()
			continue
		}
		h.thin(f.AtMillis)
	}
	if h.bandMS < h.band && 4*len(h.frames) < h.maxFrames && 4*(h.bytes+need) < h.maxBytes {
		h.bandMS = min(2*h.bandMS, h.band)
	}
	dc, oc := cap(h.disp), cap(h.occ)
	h.frames = append(h.frames, Frame{Seq: f.Seq, AtMillis: f.AtMillis, Generation: f.Generation, Meta: f.Meta})
	h.disp = append(h.disp, Dispatch{})
	h.occ = append(h.occ, Occupancy{})
	i := len(h.frames) - 1
	c := &h.frames[i]
	if c.Meta.Spawn != nil {
		c.Meta.Spawn.History = nil // the frame's own copy (Record): counters only
	}
	c.Control = copyOrNil(h.spare(0, len(f.Control)), f.Control)
	if logBytes > 0 {
		c.Log = appendCompactLog(h.spare(1, logBytes)[:0], f.Log)
	}
	c.Meta.Dispatch, c.Meta.Occupancy = nil, nil
	if f.Meta.Dispatch != nil {
		h.disp[i] = *f.Meta.Dispatch
		c.Meta.Dispatch = &h.disp[i]
	}
	switch {
	case f.Meta.Occupancy != nil:
		h.occ[i] = *f.Meta.Occupancy
		c.Meta.Occupancy = &h.occ[i]
	case occ != nil:
		h.occ[i] = *occ
		c.Meta.Occupancy = &h.occ[i]
	case f.Ring != nil:
		if o, err := decode.CountOccupancy(f.Ring); err == nil {
			h.occ[i] = OccupancyOf(o)
			c.Meta.Occupancy = &h.occ[i]
		}
	}
	h.bytes += compactBytes(c)
	if cap(h.disp) != dc || cap(h.occ) != oc {
		h.repoint() // append moved the dispatches or occupancies
	}
	return true
}

// stride is the every-how-many-th frame a history of band bandMS keeps at
// age ageMS: 1 in the newest band, then 2, 4 … doubling as the age does.
func stride(ageMS, bandMS float64) uint64 {
	if !(ageMS >= bandMS) || bandMS <= 0 {
		return 1
	}
	k := 1
	for a := ageMS / bandMS; a >= 2 && k < 62; a /= 2 {
		k++
	}
	return 1 << k
}

// thin drops the frames that are off their stride at page time now.
func (h *history) thin(now float64) {
	h.added = 0
	kept := 0
	for i := range h.frames {
		f := &h.frames[i]
		if f.Seq%stride(now-f.AtMillis, h.bandMS) != 0 {
			h.release(f)
			continue
		}
		h.frames[kept], h.disp[kept], h.occ[kept] = *f, h.disp[i], h.occ[i]
		kept++
	}
	h.truncate(kept)
}

// forgetOldest drops the oldest frame, what a history does when thinning
// at its narrowest band does not bring it within its bounds.
func (h *history) forgetOldest() {
	if len(h.frames) == 0 {
		return
	}
	h.release(&h.frames[0])
	copy(h.frames, h.frames[1:])
	copy(h.disp, h.disp[1:])
	copy(h.occ, h.occ[1:])
	h.truncate(len(h.frames) - 1)
}

// truncate keeps frames[:n] and points their meta at their own storage.
func (h *history) truncate(n int) {
	clear(h.frames[n:]) // no references to storage it released
	h.frames, h.disp, h.occ = h.frames[:n], h.disp[:n], h.occ[:n]
	h.repoint()
}

// release forgets f, keeping its storage for the next frames: as many
// control buffers as the frames a thinning pass may drop before the next
// (so that a steady history allocates none), a few logs.
func (h *history) release(f *Frame) {
	h.bytes -= compactBytes(f)
	h.gone++
	for k, b := range [...][]byte{f.Control, f.Log} {
		if b != nil && len(h.spares[k]) < max(64, len(h.frames)/4)>>k {
			h.spares[k] = append(h.spares[k], b)
			h.spareBytes += cap(b)
		}
	}
}

// spare returns storage of at least n bytes, of kind k (0 control, 1
// log), from a released frame, or nil. Control buffers are all the
// ring's size: the first fits.
func (h *history) spare(k, n int) []byte {
	s := h.spares[k]
	for i := len(s) - 1; i >= 0 && i >= len(s)-64; i-- {
		if b := s[i]; cap(b) >= n && cap(b) <= 2*n {
			last := len(s) - 1
			s[i], s[last] = s[last], nil
			h.spares[k] = s[:last]
			h.spareBytes -= cap(b)
			return b
		}
	}
	return nil
}

// repoint makes the frames' meta point at their own dispatch and
// occupancy again, after the slices moved.
func (h *history) repoint() {
	for i := range h.frames {
		m := &h.frames[i].Meta
		if m.Dispatch != nil {
			m.Dispatch = &h.disp[i]
		}
		if m.Occupancy != nil {
			m.Occupancy = &h.occ[i]
		}
	}
}

// held is the storage the history holds: its frames and its spares.
func (h *history) held() int { return h.bytes + h.spareBytes }

func (h *history) reset() {
	*h = history{maxFrames: h.maxFrames, maxBytes: h.maxBytes, band: h.band}
}

func compactBytes(f *Frame) int { return cap(f.Control) + cap(f.Log) + compactOverhead }

const (
	logHeaderBytes = abi.LogHeaderWords * abi.WordBytes
	logRecordBytes = abi.LogRecordWords * abi.WordBytes
)

// A compact frame's log is the log's header and its fault records, in
// order (what the trace, the exports and a diagnosis read; the PRINTF
// records are the whole frames' only), with CAPACITY rewritten to the
// records it holds: it decodes to those records, and to the log's CURSOR,
// so Dropped counts the records it does not hold. A log with CURSOR 0 is
// not kept: it says nothing a missing one does not.

// compactLogBytes is the size of log's compact form, 0 for none.
func compactLogBytes(log []byte) int {
	if len(log) < logHeaderBytes || binary.LittleEndian.Uint32(log[abi.LogCursor*abi.WordBytes:]) == 0 {
		return 0
	}
	n := logHeaderBytes
	forFaults(log, func(rec []byte) { n += len(rec) })
	return n
}

// appendCompactLog appends log's compact form to dst (compactLogBytes
// says its size).
func appendCompactLog(dst, log []byte) []byte {
	at := len(dst)
	dst = append(dst, log[:logHeaderBytes]...)
	forFaults(log, func(rec []byte) { dst = append(dst, rec...) })
	binary.LittleEndian.PutUint32(dst[at+abi.LogCapacity*abi.WordBytes:], uint32((len(dst)-at-logHeaderBytes)/logRecordBytes))
	return dst
}

// forFaults calls f with each fault record log holds (min(CURSOR,
// CAPACITY) records, at most those the buffer has).
func forFaults(log []byte, f func(rec []byte)) {
	le := binary.LittleEndian
	held := min(le.Uint32(log[abi.LogCursor*abi.WordBytes:]), le.Uint32(log[abi.LogCapacity*abi.WordBytes:]),
		uint32((len(log)-logHeaderBytes)/logRecordBytes))
	for i := range int(held) {
		rec := log[logHeaderBytes+i*logRecordBytes : logHeaderBytes+(i+1)*logRecordBytes]
		if le.Uint32(rec)&abi.LogFaultMask == abi.LogFaultTag {
			f(rec)
		}
	}
}
