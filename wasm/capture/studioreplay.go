package capture

import (
	"errors"
	"fmt"
	"github.com/ringscope/ringscope/internal/nocompare"
	"time"

	"github.com/ringscope/ringscope/decode/frame"
)

// Info is the recorder's and the replay's state (the page's captureInfo).
type Info struct {
	_ nocompare.T

	Recording bool
	// Frames, Bytes, Dropped: the recorder's; MaxFrames, MaxBytes its bounds.
	Frames, MaxFrames int
	Bytes, MaxBytes   int
	Dropped           uint64
	// Compact frames are held without their slots (the recorder's
	// history: frames 0 … Compact-1); FirstSeq … LastSeq and SpanMillis
	// the seqs and page time the frames held cover. While an import
	// replays, Frames, Compact, FirstSeq, LastSeq and SpanMillis describe
	// the import, the frames replay(i) and captureFrame(i) index; the
	// recorder's budget (Bytes, MaxBytes, MaxFrames, Dropped) stays its.
	Compact           int
	FirstSeq, LastSeq uint64
	SpanMillis        float64
	// Replaying, Source ("recording" or the import's name), Count frames
	// in it and Index the frame shown.
	Replaying bool
	Source    string
	Count     int
	Index     int
}

// Info is the studio's state now.
func (s *Studio) Info() Info {
	s.mu.Lock()
	defer s.mu.Unlock()
	info := Info{Recording: s.recording, Frames: s.rec.Len(), MaxFrames: s.rec.MaxFrames(),
		Bytes: s.rec.Bytes(), MaxBytes: s.rec.MaxBytes(), Dropped: s.rec.Dropped(),
		Replaying: s.replay != nil, Source: s.source, Index: s.index, Compact: s.rec.Compact()}
	if n := s.rec.Len(); n > 0 {
		first, last := s.rec.At(0), s.rec.At(n-1)
		info.FirstSeq, info.LastSeq, info.SpanMillis = first.Seq, last.Seq, last.AtMillis-first.AtMillis
	}
	if s.replay != nil {
		info.Count = s.replay.Len()
	}
	if r := s.replay; r != nil && s.imported {
		info.Frames, info.Compact = r.Len(), 0
		for i := range r.Len() {
			if r.Summary(i).Compact {
				info.Compact++
			}
		}
		if n := r.Len(); n > 0 {
			first, last := r.Summary(0), r.Summary(n-1)
			info.FirstSeq, info.LastSeq, info.SpanMillis = first.Seq, last.Seq, last.AtMillis-first.AtMillis
		}
	}
	return info
}

// Bar is what the capture bar shows.
type Bar struct {
	_ nocompare.T

	Info
	// Seq is the shown frame's; RingFrom the frame whose ring it shows and
	// RingSeq that frame's seq (Decoded.RingFrom).
	Seq, RingSeq uint64
	RingFrom     int
	// ShownCompact is set when the shown frame is compact (Summary.Compact).
	ShownCompact bool
	Error        string
	Notice       string
}

// Bar is the capture bar's state now.
func (s *Studio) Bar() Bar {
	info := s.Info()
	s.mu.Lock()
	defer s.mu.Unlock()
	b := Bar{Info: info, RingFrom: s.index, Error: s.lastErr, Notice: s.lastNote}
	if r := s.replay; r != nil && s.index < r.Len() {
		sum := r.Summary(s.index)
		b.Seq, b.RingFrom, b.ShownCompact = sum.Seq, sum.RingFrom, sum.Compact
		if b.RingFrom >= 0 {
			b.RingSeq = r.Summary(b.RingFrom).Seq
		}
	}
	return b
}

// recordingReplay is a replay of the recording, kept until the next
// recorded frame (one pass over every frame per call would make a loop
// over the frames quadratic). Called with mu held.
func (s *Studio) recordingReplay() (*Replay, error) {
	n := s.rec.Len()
	var last uint64
	if n > 0 {
		last = s.rec.At(n - 1).Seq
	}
	if s.recReplay != nil && s.recReplayLen == n && s.recReplaySeq == last {
		return s.recReplay, nil
	}
	r, err := NewReplay(s.current(time.Now()))
	if err != nil {
		return nil, err
	}
	s.recReplay, s.recReplayLen, s.recReplaySeq = r, n, last
	return r, nil
}

// Decode decodes frame i of what is replayed, or of the recording, into
// dst, with its summary (seq and time).
func (s *Studio) Decode(i int, dst *Decoded) (*Summary, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	r := s.replay
	if r == nil {
		var err error
		if r, err = s.recordingReplay(); err != nil {
			return nil, err
		}
	}
	if err := r.Decode(i, dst); err != nil {
		return nil, fmt.Errorf("captureFrame: %w", err)
	}
	return r.Summary(i), nil
}

// Import starts replaying c, an import named name, from frame 0; running
// is whether the live loop ran (BackToLive says so again).
func (s *Studio) Import(c *Capture, name string, running bool) error {
	r, err := NewReplay(c)
	if err != nil {
		return err
	}
	if r.Len() == 0 {
		return errors.New("capture: the file holds no frames")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.replay == nil {
		s.wasRunning = running
	}
	s.replay, s.imported, s.source, s.index = r, true, name, 0
	s.lastErr = ""
	s.lastNote = fmt.Sprintf("imported %s: %d frames (%s)", name, r.Len(), c.Header.Source)
	if r.Summary(0).Legacy {
		s.lastNote += ", legacy vyre layout"
	}
	return nil
}

// Replaying reports whether a replay is on screen.
func (s *Studio) Replaying() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.replay != nil
}

// ReplayRecording enters a replay of the recording, unless one is on
// already; running is whether the live loop ran.
func (s *Studio) ReplayRecording(running bool) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.replay != nil {
		return nil
	}
	r, err := s.recordingReplay()
	if err == nil && r.Len() == 0 {
		err = errNothingRecorded
	}
	if err != nil {
		return err
	}
	s.replay, s.imported, s.source, s.wasRunning = r, false, "recording", running
	return nil
}

// Show assembles frame i of the replay for the panels, with the light
// frames of the up to history frames before it (their time series). The
// frame stays valid until the second Show after it.
func (s *Studio) Show(i, history int) (*frame.Frame, []frame.Frame, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	r := s.replay
	if r == nil {
		return nil, nil, errors.New("replay: not replaying")
	}
	f, err := r.Frame(i, &s.decoded, &s.frames, s.sketchD, s.sketchW)
	if err != nil {
		return nil, nil, err
	}
	s.index = i
	return f, r.History(i, history), nil
}

// Showing reports whether frame i of a replay is on screen.
func (s *Studio) Showing(i int) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.replay != nil && s.index == i
}

// BackToLive leaves the replay. It returns the last live frame (nil when
// none came) and whether the live loop ran before the replay; left is
// false when nothing was replayed.
func (s *Studio) BackToLive() (last *frame.Frame, wasRunning, left bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.replay == nil {
		return nil, false, false
	}
	was := s.wasRunning
	s.replay, s.imported, s.source, s.index, s.wasRunning = nil, false, "", 0, false
	s.lastErr, s.lastNote = "", ""
	return s.lastLive, was, true
}
