package capture

import (
	"fmt"
	"github.com/ringscope/ringscope/internal/nocompare"
	"strings"
)

// MaxCoverageRuns bounds Coverage.Runs: past it, the oldest runs are
// listed as one run of uneven stride (Every 0), so a header stays small
// whatever gaps the frames have.
const MaxCoverageRuns = 32

// Coverage says which frames of a run a capture holds, so that whoever
// reads an export knows what it covers: the first and last frame's seq and
// page time, and the frames between as runs, each of one stride (every
// frame, every 2nd … as the recorder thinned its history) and either with
// their slots or compact (control, log and occupancy only). The zero value
// covers no frames.
type Coverage struct {
	Frames      int     `json:"frames"`
	FirstSeq    uint64  `json:"firstSeq"`
	LastSeq     uint64  `json:"lastSeq"`
	FirstMillis float64 `json:"firstMillis"`
	LastMillis  float64 `json:"lastMillis"`
	// SpanMillis is LastMillis − FirstMillis.
	SpanMillis float64 `json:"spanMillis"`
	// Missing counts the frames between FirstSeq and LastSeq that the
	// capture does not hold (thinned, or not recorded).
	Missing uint64        `json:"missing"`
	Runs    []CoverageRun `json:"runs"`
}

// CoverageRun is consecutive frames of a capture that share a stride and
// whether they carry slots.
type CoverageRun struct {
	_ nocompare.T

	FirstSeq uint64 `json:"firstSeq"`
	LastSeq  uint64 `json:"lastSeq"`
	Frames   int    `json:"frames"`
	// Every is the seq step between the run's frames: 1 for every frame, 4
	// for every 4th; 0 for a run of one frame, or of uneven steps (the
	// oldest runs past MaxCoverageRuns).
	Every uint64 `json:"every"`
	// Slots says the frames carry their ring (whole or as a patch); false:
	// compact frames, whose occupancy the meta holds.
	Slots bool `json:"slots"`
}

// CoverageOf describes frames (oldest first, seqs ascending).
func CoverageOf(frames []Frame) Coverage {
	n := len(frames)
	c := Coverage{Frames: n, Runs: []CoverageRun{}}
	if n == 0 {
		return c
	}
	first, last := &frames[0], &frames[n-1]
	c.FirstSeq, c.LastSeq, c.FirstMillis, c.LastMillis = first.Seq, last.Seq, first.AtMillis, last.AtMillis
	c.SpanMillis = last.AtMillis - first.AtMillis
	if span := last.Seq - first.Seq + 1; last.Seq >= first.Seq && span > uint64(n) {
		c.Missing = span - uint64(n)
	}
	for i := 0; i < n; {
		slots := hasSlots(&frames[i])
		j, every := i, uint64(0)
		for j+1 < n && hasSlots(&frames[j+1]) == slots {
			step := frames[j+1].Seq - frames[j].Seq
			if every != 0 && step != every {
				break
			}
			every = step
			j++
		}
		c.Runs = append(c.Runs, CoverageRun{FirstSeq: frames[i].Seq, LastSeq: frames[j].Seq, Frames: j - i + 1,
			Every: every, Slots: slots})
		i = j + 1
	}
	if extra := len(c.Runs) - MaxCoverageRuns; extra > 0 {
		merged := CoverageRun{FirstSeq: c.Runs[0].FirstSeq, LastSeq: c.Runs[extra].LastSeq, Slots: c.Runs[0].Slots}
		for _, r := range c.Runs[:extra+1] {
			merged.Frames += r.Frames
			merged.Slots = merged.Slots && r.Slots
		}
		c.Runs = append([]CoverageRun{merged}, c.Runs[extra+1:]...)
	}
	return c
}

func hasSlots(f *Frame) bool { return f.Ring != nil || f.Patch != nil }

// Compact counts the frames held without their slots.
func (c *Coverage) Compact() int {
	n := 0
	for _, r := range c.Runs {
		if !r.Slots {
			n += r.Frames
		}
	}
	return n
}

// String says what c covers in a line a person reads (the trace's
// otherData.coverage): "seq 12…3012 over 300.0 s; 12…2400 every 4th
// compact; 2404…3012 every 1st with slots" (every 0th: uneven steps).
func (c *Coverage) String() string {
	if c.Frames == 0 {
		return "no frames"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "seq %d…%d over %.1f s", c.FirstSeq, c.LastSeq, c.SpanMillis/1000)
	for _, r := range c.Runs {
		kind := "compact"
		if r.Slots {
			kind = "with slots"
		}
		fmt.Fprintf(&b, "; %d…%d every %s %s", r.FirstSeq, r.LastSeq, ordinal(r.Every), kind)
	}
	return b.String()
}

// ordinal is "1st", "2nd", "4th" … ("frame" for 1).
func ordinal(n uint64) string {
	switch {
	case n == 1:
		return "frame"
	case n == 0:
		return "uneven step"
	case n%10 == 2 && n%100 != 12:
		return fmt.Sprint(n, "nd")
	case n%10 == 3 && n%100 != 13:
		return fmt.Sprint(n, "rd")
	}
	return fmt.Sprint(n, "th")
}
