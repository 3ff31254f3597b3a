package pace

import (
	"fmt"
	"github.com/ringscope/ringscope/internal/nocompare"
	"math"
	"sync"
	"time"
)

// DefaultBudget is the share of the main thread an attachment takes when
// the embedder names none: half of the 10% of its frame rate issue 18
// allows a host to lose, since part of ringscope's main-thread time is
// not measured (the garbage collector, the Go scheduler's wake-ups, the
// timers and animation-frame callbacks themselves; the browser's style,
// layout and paint only estimated, RenderWeight).
const DefaultBudget = 0.05

// MinRate is the slowest an attachment is paced, in frames per second,
// whatever its cost: at one frame a second the dashboard still moves, and
// the watchdog (3 stalled intervals, decode.DefaultStallIntervals) calls
// a stall within 3 s. A frame that costs more than budget / MinRate
// (50 ms at the default budget) takes more than its budget.
const MinRate = 1.0

// RenderWeight is how many times its measured cost a render counts: the
// browser's style, layout and paint of the DOM a render changed, which Go
// cannot time, cost about as much again as the render itself (the CPU
// profile under row 4 of bench/results-h200.md).
const RenderWeight = 2

// Window is how far back Report looks.
const Window = 2 * time.Second

// DisplayRate is the display's frame rate Report compares the budget's
// spacing with (Throttled): 60 Hz, most displays' and headless Chromium's.
const DisplayRate = 60.0

// Check says whether share is a budget: a fraction of the main thread in
// (0, 1]. 1 leaves the pacing to the display (one frame per animation
// frame); 0 would leave only the MinRate floor, so it is refused too.
func Check(share float64) error {
	switch {
	case math.IsNaN(share) || math.IsInf(share, 0):
		return fmt.Errorf("budget must be a finite fraction of the main thread in (0, 1], got %v", share)
	case share <= 0:
		return fmt.Errorf("budget %v: want a fraction of the main thread in (0, 1] (%v is the default; the dashboard never goes below %v frame/s)", share, DefaultBudget, MinRate)
	case share > 1:
		return fmt.Errorf("budget %v: want a fraction of the main thread in (0, 1]; 1 already paces on display frames alone", share)
	}
	return nil
}

// Budget spaces frames so that their main-thread cost stays under a share
// of the wall clock. The frame loop calls Wait (and sleeps) then Begin
// before each frame; whoever spends main-thread time for the attachment
// (the frame, each render) calls Spend. Safe for concurrent use.
type Budget struct {
	mu     sync.Mutex
	share  float64
	maxGap time.Duration
	// start is the current frame's Begin (zero before the first); spent
	// the cost spent since; debt the cost spent before it that the frames
	// before did not wait for (a render that landed while the frame loop
	// waited for the display frame), which it waits for instead.
	start time.Time
	spent time.Duration
	debt  time.Duration
	// done are the frames completed within Window, oldest first.
	done []interval
}

// interval is one completed frame: from its Begin to the next one's.
type interval struct {
	start, end time.Time
	cost       time.Duration
}

// New returns a Budget of share (Check).
func New(share float64) (*Budget, error) {
	if err := Check(share); err != nil {
		return nil, err
	}
	return &Budget{share: share, maxGap: floorGap}, nil
}

// floorGap is the longest Wait lets a frame wait from its Begin: one
// display frame short of 1/MinRate, so that the display frame the loop
// waits for next still comes within it.
const floorGap = time.Second/time.Duration(MinRate) - time.Second/time.Duration(DisplayRate)

// Share returns the budget.
func (b *Budget) Share() float64 { return b.share }

// Spend adds d of main-thread time to the current frame.
func (b *Budget) Spend(d time.Duration) {
	if d <= 0 {
		return
	}
	b.mu.Lock()
	b.spent += d
	b.mu.Unlock()
}

// Wait returns how long from now the next frame should wait: until the
// current frame's costs (and its debt) are share of the time since its
// Begin, but no later than 1/MinRate after it. Costs spent while waiting
// lengthen the wait: call it again after sleeping, until it returns 0.
func (b *Budget) Wait(now time.Time) time.Duration {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.start.IsZero() {
		return 0
	}
	gap := min(time.Duration(float64(b.debt+b.spent)/b.share), b.maxGap)
	return max(b.start.Add(gap).Sub(now), 0)
}

// Begin starts the next frame at now, ending the current one. What the
// current one spent beyond share of its length (costs that came after its
// last Wait) is the next one's debt, up to what the floor lets one frame
// wait for. A frame longer than twice the floor's spacing was not paced
// (the live loop was stopped, or the tab hidden): Report leaves it out.
func (b *Budget) Begin(now time.Time) {
	b.mu.Lock()
	defer b.mu.Unlock()
	debt := time.Duration(0)
	if !b.start.IsZero() {
		left := b.debt + b.spent - time.Duration(b.share*float64(now.Sub(b.start)))
		debt = min(max(left, 0), time.Duration(b.share*float64(b.maxGap)))
	}
	if !b.start.IsZero() && now.Sub(b.start) <= 2*b.maxGap {
		b.done = append(b.done, interval{start: b.start, end: now, cost: b.spent})
		cut := 0
		for cut < len(b.done) && b.done[cut].end.Before(now.Add(-Window)) {
			cut++
		}
		b.done = append(b.done[:0], b.done[cut:]...)
	}
	b.start, b.spent, b.debt = now, 0, debt
}

// Report is what a Budget says of the frames of the last Window.
type Report struct {
	_ nocompare.T

	// Budget is the share asked for; Share the share of the wall clock the
	// frames' measured costs took.
	Budget, Share float64
	// Rate is frames per second; MinRate the floor.
	Rate, MinRate float64
	// CostMS is the mean main-thread cost of a frame, in milliseconds.
	CostMS float64
	// Throttled: the budget, not the display's frame rate, sets the rate
	// (it spaces the frames further apart than DisplayRate would).
	Throttled bool
	// AtFloor: the frames cost more than the budget allows even at MinRate,
	// so they take more than their share.
	AtFloor bool
}

// Report summarises the frames completed within Window of now.
func (b *Budget) Report(now time.Time) Report {
	b.mu.Lock()
	defer b.mu.Unlock()
	r := Report{Budget: b.share, MinRate: MinRate}
	var wall, cost time.Duration
	n := 0
	for _, iv := range b.done {
		if iv.end.Before(now.Add(-Window)) {
			continue
		}
		n++
		wall += iv.end.Sub(iv.start)
		cost += iv.cost
	}
	if n == 0 || wall <= 0 {
		return r
	}
	r.Rate = float64(n) / wall.Seconds()
	r.Share = cost.Seconds() / wall.Seconds()
	r.CostMS = cost.Seconds() * 1000 / float64(n)
	r.Throttled = r.CostMS/1000/b.share > 1/DisplayRate
	r.AtFloor = r.CostMS/1000 > b.share*b.maxGap.Seconds()
	return r
}

// String says the report in words, for a person: the dashboard's
// tooltip.
func (r Report) String() string {
	if r.Rate == 0 {
		return fmt.Sprintf("attached, budget %.0f%% of the main thread: no frame yet", r.Budget*100)
	}
	s := fmt.Sprintf("attached: %.1f frames/s at %.1f ms of main-thread time each, %.1f%% of the main thread (budget %.0f%%",
		r.Rate, r.CostMS, r.Share*100, r.Budget*100)
	switch {
	case r.AtFloor:
		s += fmt.Sprintf("; over it at the %v frame/s floor)", r.MinRate)
	case r.Throttled:
		s += ": throttled to keep the host's main thread free; attach({budget}) raises it)"
	default:
		s += ")"
	}
	return s
}
