package tasktrace

// Pass is one drain pass (one submission) of a trace: the tickets its
// lanes took, [First, End) (the clock word before and after it), and, when
// the device has timestamp queries, the beginning and end of its compute
// pass in nanoseconds (Timed). The zero value is an empty, untimed pass.
type Pass struct {
	First, End     uint32
	BeginNS, EndNS uint64
	Timed          bool
	// Dropped counts the records of the pass the device dropped because
	// they outgrew the trace buffer (0: none). The records that landed are
	// the first to end, so what the pass's workgroups did after their last
	// kept record is unknown: Bubbles finds no bubble there.
	Dropped uint32
}

// Overflowed reports whether the device dropped records of the pass.
func (p *Pass) Overflowed() bool { return p.Dropped > 0 }

// Tickets is the number of tickets the pass handed out.
func (p *Pass) Tickets() uint32 { return p.End - p.First }

// Holds reports whether ticket t was taken in p (clock arithmetic mod 2^32,
// so a clock that wraps within a window still maps).
func (p *Pass) Holds(t uint32) bool { return t-p.First < p.Tickets() }

// At maps ticket t of p onto the pass's timeline: nanoseconds when Timed,
// else tickets (the logical axis). Ticket k of the pass's n (k = t − First)
// sits at the middle of the k-th of n equal parts of [BeginNS, EndNS]:
//
//	at(t) = BeginNS + (k + ½) · (EndNS − BeginNS) / n
//
// Every ticket of the pass was taken inside that interval, and tickets are
// taken in clock order, so the map keeps the order of events exactly
// (a slot's start before its end, a parent before its child) and its
// error is bounded by how far the ticket rate strays from uniform: for
// ticket k taken at real time τ(k), |at − τ| ≤ D · (sup_τ |F(τ) − U(τ)| +
// ½ / n), where D is the pass's length, F the share of the pass's tickets
// taken by τ and U = (τ − BeginNS) / D. At worst (every ticket at one end)
// that is D; for a pass whose lanes claim at a steady rate it is about one
// ticket interval, D / n. docs/TRACE.md says how the host measures it.
func (p *Pass) At(t uint32) float64 {
	k := float64(t - p.First)
	if !p.Timed {
		return k + float64(p.First)
	}
	n := float64(p.Tickets())
	if n == 0 {
		return float64(p.BeginNS)
	}
	return float64(p.BeginNS) + (k+0.5)*float64(p.EndNS-p.BeginNS)/n
}

// Find returns the index of the pass of passes that holds ticket t, or −1.
func Find(passes []Pass, t uint32) int {
	for i := range passes {
		if passes[i].Holds(t) {
			return i
		}
	}
	return -1
}
