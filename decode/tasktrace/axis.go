package tasktrace

// Axis places the tickets of a window of passes on one axis: nanoseconds
// from the first pass's beginning when every pass is Timed, else tickets
// since the window's first (the logical axis). The zero value is a
// logical axis from ticket 0.
type Axis struct {
	Timed  bool
	first  uint32
	origin float64
}

// NewAxis is the axis of passes (oldest first).
func NewAxis(passes []Pass) Axis {
	a := Axis{Timed: len(passes) > 0}
	for i := range passes {
		a.Timed = a.Timed && passes[i].Timed
	}
	if len(passes) > 0 {
		a.first, a.origin = passes[0].First, float64(passes[0].BeginNS)
	}
	return a
}

// Name is "ns" or "logical".
func (a Axis) Name() string {
	if a.Timed {
		return "ns"
	}
	return "logical"
}

// At is ticket t of pass p on the axis.
func (a Axis) At(p *Pass, t uint32) float64 {
	if a.Timed {
		return p.At(t) - a.origin
	}
	return float64(t - a.first)
}

// Begin and End are pass p's ends on the axis.
func (a Axis) Begin(p *Pass) float64 {
	if a.Timed {
		return float64(p.BeginNS) - a.origin
	}
	return float64(p.First - a.first)
}

func (a Axis) End(p *Pass) float64 {
	if a.Timed {
		return float64(p.EndNS) - a.origin
	}
	return float64(p.End - a.first)
}

// GapSpan is gap g of pass p on the axis: from its workgroup's last task's
// end ticket (or the pass's beginning) to its next task's start ticket (or
// the pass's end), where the tasks' bars end and begin. The timeline panel
// and the trace export both measure a bubble by it, so their sums agree;
// a gap of one ticket is as long as two tickets of the pass, never empty.
func (a Axis) GapSpan(p *Pass, g *Gap) (from, to float64) {
	from, to = a.Begin(p), a.End(p)
	if g.From != p.First {
		from = a.At(p, g.From-1)
	}
	if g.To != p.End {
		to = a.At(p, g.To)
	}
	return from, to
}
