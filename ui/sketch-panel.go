package ui

import (
	"github.com/ringscope/ringscope/internal/nocompare"
	"math"
	"sort"
	"strconv"

	"github.com/ringscope/ringscope/decode"
	"github.com/ringscope/ringscope/decode/frame"
	"github.com/ringscope/ringscope/wgsl/abi"
)

// SketchPanel shows the heavy hitters of the five Count-Min sketches with
// their error bound: with probability at least 1 − δ (δ = e^−depth), an
// estimate exceeds the true count by at most ε·N (ε = e/width, N the
// sketch's total count).
type SketchPanel struct {
	// Names name the kernel's user opcodes.
	Names Names
	Frame *frame.Frame
}

// SketchBlock is one sketch with its top keys.
type SketchBlock struct {
	Name, Title string
	Hitters     []HeavyHitter
}

// HeavyHitter is one key's estimate.
type HeavyHitter struct {
	_ nocompare.T

	Key, Estimate, Share, Title string
}

// TopHitters is how many keys each sketch lists.
const TopHitters = 5

func (c *SketchPanel) sketch() *decode.SketchTelemetry {
	if c.Frame == nil {
		return nil
	}
	return c.Frame.Sketch
}

// Sub gives the shape.
func (c *SketchPanel) Sub() string {
	s := c.sketch()
	if s == nil {
		return "no sketch yet"
	}
	return strconv.Itoa(s.RingOpcode.Depth()) + " × " + Thousands(uint64(s.RingOpcode.Width())) + " counters · " +
		Thousands(uint64(s.SketchedSlots)) + " non-empty slots"
}

// Bound states ε and δ in words.
func (c *SketchPanel) Bound() string {
	s := c.sketch()
	if s == nil {
		return ""
	}
	return SketchBound(&s.RingOpcode)
}

// BoundTitle explains the bound.
func (c *SketchPanel) BoundTitle() string {
	return "Count-Min: estimate = min over depth rows of the key's counter. It never under-counts; " +
		"it over-counts by more than ε·N with probability at most δ. ε = e / width, δ = e^−depth, N = total count added to the sketch."
}

// SketchBound is the one-line error bound of a sketch shape.
func SketchBound(s *decode.CountMinSketch) string {
	return "ε = e/" + Thousands(uint64(s.Width())) + " = " + strconv.FormatFloat(s.Epsilon()*100, 'f', 2, 64) +
		" % of N · δ = e^−" + strconv.Itoa(s.Depth()) + " = " + strconv.FormatFloat(s.Delta()*100, 'f', 2, 64) +
		" % · estimates ≤ true + ε·N with probability ≥ " + strconv.FormatFloat((1-s.Delta())*100, 'f', 1, 64) + " %"
}

// SketchTotal is N, the total count added to s (the sum of any row).
func SketchTotal(s *decode.CountMinSketch) uint64 {
	cs := s.Counters()
	var n uint64
	for _, v := range cs[:min(len(cs), s.Width())] {
		n += v
	}
	return n
}

// Blocks returns the five sketches with their heavy hitters.
func (c *SketchPanel) Blocks() []SketchBlock {
	s := c.sketch()
	if s == nil {
		return nil
	}
	ops := opcodeCandidates(c.Frame)
	return []SketchBlock{
		block("ring opcodes", "every non-EMPTY slot, keyed by opcode", &s.RingOpcode, ops, c.Names.Opcode),
		block("active opcodes", "slots in an active status (PUBLISHED, CLAIMED, WAIT_IO, YIELD, REQUEUE), keyed by opcode", &s.ActiveOpcode, ops, c.Names.Opcode),
		block("tenants", "every non-EMPTY slot, keyed by tenant id", &s.Tenant, seq(64), func(k uint32) string { return "tenant " + strconv.Itoa(int(k)) }),
		block("statuses", "every non-EMPTY slot, keyed by raw STATUS", &s.Status, seq(16), func(k uint32) string { return decode.Status(k).String() }),
		block("dispatch metrics", "OPCODE_METRICS counts added under their opcode", &s.DispatchMetrics, seq(abi.MetricOpcodes), c.Names.Opcode),
	}
}

func seq(n uint32) []uint32 {
	out := make([]uint32, n)
	for i := range out {
		out[i] = uint32(i)
	}
	return out
}

// opcodeCandidates are the keys probed for opcode heavy hitters: a
// Count-Min sketch cannot list its keys, so the panel estimates every
// protocol opcode, every metric opcode and the window opcodes seen.
func opcodeCandidates(f *frame.Frame) []uint32 {
	ops := seq(abi.MetricOpcodes)
	ops = append(ops, abi.OpHash, abi.OpSpin, abi.OpYield, abi.OpRequeue, abi.OpWaitIO, abi.OpRaise, abi.OpPrintf, abi.OpShutdown)
	if f != nil && f.Ring != nil {
		seen := map[uint32]bool{}
		for _, o := range ops {
			seen[o] = true
		}
		for _, w := range f.Ring.Windows {
			if !seen[w.Opcode] {
				seen[w.Opcode] = true
				ops = append(ops, w.Opcode)
			}
		}
	}
	return ops
}

func block(name, title string, s *decode.CountMinSketch, keys []uint32, label func(uint32) string) SketchBlock {
	n := SketchTotal(s)
	b := SketchBlock{Name: name, Title: title + " · N = " + Thousands(n) + " · error bound ε·N = " + Thousands(uint64(math.Ceil(s.Epsilon()*float64(n))))}
	if n == 0 || s.Width() == 0 {
		return b
	}
	type kv struct {
		k uint32
		e uint64
	}
	var est []kv
	for _, k := range keys {
		if e := s.Estimate(k); e > 0 {
			est = append(est, kv{k, e})
		}
	}
	sort.SliceStable(est, func(i, j int) bool { return est[i].e > est[j].e })
	bound := uint64(math.Ceil(s.Epsilon() * float64(n)))
	for _, x := range est[:min(len(est), TopHitters)] {
		lo := uint64(0)
		if x.e > bound {
			lo = x.e - bound
		}
		b.Hitters = append(b.Hitters, HeavyHitter{
			Key: label(x.k), Estimate: "≤ " + Thousands(x.e), Share: Percent(x.e, n),
			Title: "true count in [" + Thousands(lo) + ", " + Thousands(x.e) + "] with probability ≥ 1 − δ",
		})
	}
	return b
}
