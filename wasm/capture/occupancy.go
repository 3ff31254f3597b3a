package capture

import (
	"encoding/binary"

	"github.com/ringscope/ringscope/decode"
	"github.com/ringscope/ringscope/wgsl/abi"
)

// occupancies is what a Recorder knows of its whole frames' occupancy, by
// storage slot: a frame's history entry needs it when the frame is
// evicted, and counting a 65,536-slot ring then costs a pass over 4 MiB
// long out of cache. Under summary readback the recorder's frames are
// patches; evicting the oldest (whole) frame patches its ring into the
// next, and the patch's slots, old and new, give the next one's occupancy
// for the cost of those slots: in a steady recording only the first
// whole ring is ever counted.
type occupancies struct {
	occ   []Occupancy
	known []bool
}

// grow makes room for n storage slots.
func (o *occupancies) grow(n int) {
	for len(o.occ) < n {
		o.occ, o.known = append(o.occ, Occupancy{}), append(o.known, false)
	}
}

// of is the occupancy of f, the frame in storage slot i: known, or
// counted from its whole ring (nil for a frame without one).
func (o *occupancies) of(i int, f *Frame) *Occupancy {
	switch {
	case o.known[i]:
		return &o.occ[i]
	case f.Ring == nil:
		return nil
	}
	if !o.count(i, f.Ring) {
		return nil
	}
	return &o.occ[i]
}

// count sets slot i's occupancy to ring's; false, knowing nothing, for a
// ring that is not whole slots.
func (o *occupancies) count(i int, ring []byte) bool {
	c, err := decode.CountOccupancy(ring)
	o.occ[i], o.known[i] = OccupancyOf(c), err == nil
	return err == nil
}

// patched sets slot i's occupancy to base's with the slots of patch, as
// they read in ring before it, replaced by the patch's (a patch that
// checkPatch accepted against ring).
func (o *occupancies) patched(i int, base *Occupancy, ring, patch []byte) {
	occ := *base
	le := binary.LittleEndian
	n := int(le.Uint32(patch))
	src := patch[4+8*n:]
	for k := range n {
		first, count := int(le.Uint32(patch[4+8*k:])), int(le.Uint32(patch[8+8*k:]))
		for s := first; s < first+count; s++ {
			occ[statusIndex(le.Uint32(ring[s*SlotBytes+abi.SlotStatus*abi.WordBytes:]))]--
			occ[statusIndex(le.Uint32(src[abi.SlotStatus*abi.WordBytes:]))]++
			src = src[SlotBytes:]
		}
	}
	o.occ[i], o.known[i] = occ, true
}

// forget marks slot i's occupancy unknown (a new frame there).
func (o *occupancies) forget(i int) { o.known[i] = false }

func (o *occupancies) reset() { clear(o.known) }

// statusIndex is a status's index in Occupancy: unknown values last.
func statusIndex(st uint32) int { return int(min(st, abi.StatusCount)) }
