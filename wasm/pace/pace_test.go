package pace

import (
	"math"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var t0 = time.Date(2026, 12, 3, 12, 0, 0, 0, time.UTC)

func ms(n float64) time.Duration { return time.Duration(n * float64(time.Millisecond)) }

func TestCheck(t *testing.T) {
	for _, ok := range []float64{DefaultBudget, 1, 0.001, 0.5} {
		assert.NoError(t, Check(ok), "%v", ok)
	}
	for bad, says := range map[float64]string{
		math.NaN():   "finite fraction",
		math.Inf(1):  "finite fraction",
		math.Inf(-1): "finite fraction",
		0:            "budget 0: want a fraction of the main thread in (0, 1]",
		-0.1:         "budget -0.1: want",
		1.5:          "budget 1.5: want a fraction of the main thread in (0, 1]; 1 already",
		1.0000001:    "in (0, 1]",
	} {
		err := Check(bad)
		if assert.Error(t, err, "%v", bad) {
			assert.Contains(t, err.Error(), says)
		}
		b, err := New(bad)
		assert.Nil(t, b)
		assert.Error(t, err)
	}
}

func TestWaitSpacesFramesByCost(t *testing.T) {
	b, err := New(0.1)
	require.NoError(t, err)
	assert.Equal(t, 0.1, b.Share())
	assert.Zero(t, b.Wait(t0), "no frame yet: no wait")
	b.Begin(t0)
	assert.Zero(t, b.Wait(t0), "nothing spent: no wait")
	b.Spend(ms(10))
	b.Spend(0)
	b.Spend(-ms(5)) // ignored
	// 10 ms at 10%: the next frame 100 ms after this one began.
	assert.Equal(t, ms(90), b.Wait(t0.Add(ms(10))))
	assert.Equal(t, ms(1), b.Wait(t0.Add(ms(99))))
	assert.Zero(t, b.Wait(t0.Add(ms(100))))
	assert.Zero(t, b.Wait(t0.Add(ms(150))), "late: no wait, never negative")
	// A render spent while waiting lengthens the wait.
	b.Spend(ms(3))
	assert.Equal(t, ms(30), b.Wait(t0.Add(ms(100))))
	// Begin starts afresh.
	b.Begin(t0.Add(ms(200)))
	assert.Zero(t, b.Wait(t0.Add(ms(200))))
	b.Spend(ms(1))
	assert.Equal(t, ms(10), b.Wait(t0.Add(ms(200))))
}

func TestCostsAfterTheLastWaitAreCarried(t *testing.T) {
	b, err := New(0.1)
	require.NoError(t, err)
	b.Begin(t0)
	b.Spend(ms(2))
	assert.Zero(t, b.Wait(t0.Add(ms(20))))
	// A 10 ms render lands while the loop waits for the display frame.
	b.Spend(ms(10))
	b.Begin(t0.Add(ms(30)))
	// 12 ms spent in 30 ms: 9 ms of it not waited for at 10%.
	assert.Equal(t, ms(90), b.Wait(t0.Add(ms(30))), "the next frame waits for what the last one left")
	b.Spend(ms(1))
	assert.Equal(t, ms(100), b.Wait(t0.Add(ms(30))))
	// Paid off: a frame that waited long enough carries nothing.
	b.Begin(t0.Add(ms(130)))
	assert.Zero(t, b.Wait(t0.Add(ms(130))))
	// A huge cost carries no more than the floor's one wait.
	b.Spend(10 * time.Second)
	b.Begin(t0.Add(ms(140)))
	assert.InDelta(t, float64(floorGap), float64(b.Wait(t0.Add(ms(140)))), 100)
	b.Begin(t0.Add(ms(1140)))
	assert.Zero(t, b.Wait(t0.Add(ms(1140))), "forgiven after one floor-long wait")
}

func TestWaitFloor(t *testing.T) {
	b, err := New(0.05)
	require.NoError(t, err)
	b.Begin(t0)
	b.Spend(ms(40)) // 0.8 s at 5%: under the floor's 1 s
	assert.Equal(t, ms(800), b.Wait(t0))
	b.Spend(ms(60)) // 2 s at 5%: the floor holds it to 1 s less a display frame
	assert.Equal(t, time.Second-time.Second/60, b.Wait(t0))
	assert.Equal(t, ms(500)-time.Second/60, b.Wait(t0.Add(ms(500))))
}

func TestBudgetOneLeavesPacingToTheDisplay(t *testing.T) {
	b, err := New(1)
	require.NoError(t, err)
	b.Begin(t0)
	b.Spend(ms(13))
	assert.Zero(t, b.Wait(t0.Add(ms(13))), "the frame's own time has passed")
	assert.Equal(t, ms(5), b.Wait(t0.Add(ms(8))))
}

// run drives a Budget as the page does: Wait (sleep, again), the next
// display frame, Begin, then the frame's cost and its render's, until
// the clock passes end; it returns the frames begun.
func run(b *Budget, now *time.Time, end time.Time, frameCost, renderCost time.Duration) int {
	const vsync = time.Second / 60
	n := 0
	for now.Before(end) {
		for w := b.Wait(*now); w > 0; w = b.Wait(*now) {
			*now = now.Add(w)
		}
		// The next animation frame: the last frame's render runs in it,
		// after the loop's Wait, before its Begin.
		*now = t0.Add((now.Sub(t0)/vsync + 1) * vsync)
		if n > 0 {
			b.Spend(RenderWeight * renderCost)
			*now = now.Add(renderCost)
		}
		b.Begin(*now)
		n++
		b.Spend(frameCost)
		*now = now.Add(frameCost)
	}
	return n
}

func TestPacedShareStaysUnderBudget(t *testing.T) {
	for _, c := range []struct {
		share             float64
		frame, render     time.Duration
		rate              float64 // frames/s, within 5%
		throttled, floor  bool
		shareMin, shareTo float64
	}{
		// The H200 at 65,536 slots: ~5 ms a frame, ~4 ms a render (counted twice).
		{share: 0.05, frame: ms(5), render: ms(4), rate: 0.05 / 0.013, throttled: true, shareMin: 0.045, shareTo: 0.051},
		{share: 0.1, frame: ms(5), render: ms(4), rate: 0.1 / 0.013, throttled: true, shareMin: 0.09, shareTo: 0.102},
		// Budget 1: the display's 60 frames/s.
		{share: 1, frame: ms(1), render: ms(1), rate: 60, shareMin: 0.17, shareTo: 0.19},
		// Too dear for the budget even at the floor: MinRate, over budget.
		{share: 0.05, frame: ms(60), render: ms(20), rate: MinRate, throttled: true, floor: true, shareMin: 0.09, shareTo: 0.11},
	} {
		b, err := New(c.share)
		require.NoError(t, err)
		now := t0
		frames := run(b, &now, t0.Add(10*time.Second), c.frame, c.render)
		r := b.Report(now)
		assert.InEpsilon(t, c.rate, r.Rate, 0.05, "%+v: rate", c)
		assert.InEpsilon(t, c.rate*10, float64(frames), 0.1, "%+v: frames in 10 s", c)
		assert.GreaterOrEqual(t, r.Share, c.shareMin, "%+v", c)
		assert.LessOrEqual(t, r.Share, c.shareTo, "%+v", c)
		assert.InDelta(t, float64(c.frame+RenderWeight*c.render)/1e6, r.CostMS, 1e-9, "%+v", c)
		assert.Equal(t, c.throttled, r.Throttled, "%+v: throttled", c)
		assert.Equal(t, c.floor, r.AtFloor, "%+v: at floor", c)
		assert.Equal(t, c.share, r.Budget)
		assert.Equal(t, MinRate, r.MinRate)
	}
}

func TestReportWindow(t *testing.T) {
	b, err := New(0.5)
	require.NoError(t, err)
	assert.Equal(t, Report{Budget: 0.5, MinRate: MinRate}, b.Report(t0), "no frame yet")
	assert.Contains(t, b.Report(t0).String(), "no frame yet")
	// 10 frames of 100 ms each, 5 ms spent in each: 10 ms apart at 50%,
	// less than a display frame, so not throttled.
	for i := range 10 {
		b.Begin(t0.Add(time.Duration(i) * ms(100)))
		b.Spend(ms(5))
	}
	b.Begin(t0.Add(time.Second))
	r := b.Report(t0.Add(time.Second))
	assert.InDelta(t, 10, r.Rate, 1e-9)
	assert.InDelta(t, 0.05, r.Share, 1e-9)
	assert.InDelta(t, 5, r.CostMS, 1e-9)
	assert.False(t, r.Throttled)
	assert.False(t, r.AtFloor)
	assert.Equal(t, "attached: 10.0 frames/s at 5.0 ms of main-thread time each, 5.0% of the main thread (budget 50%)", r.String())
	// Frames older than Window drop out: 3 s later only the new ones count.
	later := t0.Add(4 * time.Second)
	for i := range 4 {
		b.Begin(later.Add(time.Duration(i) * ms(250)))
		b.Spend(ms(50))
		assert.Positive(t, b.Wait(later.Add(time.Duration(i)*ms(250))))
	}
	assert.Len(t, b.done, 3, "the 3 s pause before them is no paced frame, and the frames before it fell out")
	b.Begin(later.Add(time.Second))
	r = b.Report(later.Add(time.Second))
	assert.InDelta(t, 4, r.Rate, 1e-9, "the old frames are outside the window, the pause is no frame")
	assert.InDelta(t, 0.2, r.Share, 1e-9)
	assert.True(t, r.Throttled)
	assert.Contains(t, r.String(), "throttled")
	assert.Len(t, b.done, 4, "old intervals are dropped, not kept")
	// Nothing for longer than Window: no rate.
	assert.Zero(t, b.Report(later.Add(10*time.Second)).Rate)
}

func TestReportStringFloor(t *testing.T) {
	r := Report{Budget: 0.05, Share: 0.1, Rate: 1, MinRate: 1, CostMS: 100, Throttled: true, AtFloor: true}
	assert.Equal(t, "attached: 1.0 frames/s at 100.0 ms of main-thread time each, 10.0% of the main thread (budget 5%; over it at the 1 frame/s floor)", r.String())
}
