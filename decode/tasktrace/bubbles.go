package tasktrace

import "github.com/ringscope/ringscope/internal/heapsort"

// Bubble reasons: why a workgroup had no task running for a while.
const (
	// ReasonStart: the pass began, the workgroup had not started a task.
	ReasonStart = "not started"
	// ReasonBetween: every lane of the workgroup was between tasks (the
	// claim of the next ticket, a barrier of the workgroup's claim round).
	ReasonBetween = "no claim"
	// ReasonDrained: the workgroup found no work left and waited for the
	// pass to end (the rest of the grid, then the finalize).
	ReasonDrained = "waiting at the finalize"
	// ReasonBudget: as ReasonDrained, but work was left and the lanes had
	// spent their claim budget (BUDGET_EXHAUSTED grew in the pass).
	ReasonBudget = "budget spent"
)

// Gap is one bubble of a workgroup in a pass: tickets [From, To) during
// which none of its lanes ran a task.
type Gap struct {
	Workgroup uint32
	Pass      int
	From, To  uint32
	Reason    string
}

// Bubbles finds the gaps of each workgroup in each pass: the parts of the
// pass's tickets not covered by the union of the workgroup's tasks, up to
// its last task in a pass that dropped records (Pass.Overflowed).
// records must each lie in a pass (others are skipped); budget[i] reports
// that pass i ended with work left for spent budgets (nil: unknown). The
// gaps come grouped by pass, then workgroup, in ticket order; dst is
// reused.
func Bubbles(dst []Gap, records []Record, passes []Pass, budget []bool) []Gap {
	dst = dst[:0]
	type span struct {
		pass      int
		wg        uint32
		from, end uint32 // tickets relative to the pass's First
	}
	spans := make([]span, 0, len(records))
	for i := range records {
		r := &records[i]
		p := Find(passes, r.Start)
		if p < 0 || !passes[p].Holds(r.End) {
			continue
		}
		f := passes[p].First
		spans = append(spans, span{p, r.Workgroup, r.Start - f, r.End - f})
	}
	heapsort.Func(spans, func(a, b span) bool {
		if a.pass != b.pass {
			return a.pass < b.pass
		}
		if a.wg != b.wg {
			return a.wg < b.wg
		}
		return a.from < b.from
	})
	for i := 0; i < len(spans); {
		s := spans[i]
		p := &passes[s.pass]
		var covered uint32 // the union so far ends here (relative)
		first := true
		j := i
		for ; j < len(spans) && spans[j].pass == s.pass && spans[j].wg == s.wg; j++ {
			t := spans[j]
			if t.from > covered {
				reason := ReasonBetween
				if first {
					reason = ReasonStart
				}
				dst = append(dst, Gap{Workgroup: s.wg, Pass: s.pass, From: p.First + covered, To: p.First + t.from, Reason: reason})
			}
			first = false
			covered = max(covered, t.end+1)
		}
		// A pass that dropped records ran tasks after the last ones kept
		// (they are the first to end): its workgroups' time past their last
		// record is unknown, not idle.
		if n := p.Tickets(); covered < n && !p.Overflowed() {
			reason := ReasonDrained
			if s.pass < len(budget) && budget[s.pass] {
				reason = ReasonBudget
			}
			dst = append(dst, Gap{Workgroup: s.wg, Pass: s.pass, From: p.First + covered, To: p.End, Reason: reason})
		}
		i = j
	}
	return dst
}
