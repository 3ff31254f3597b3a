package capture

import (
	"encoding/binary"

	"github.com/ringscope/ringscope/decode/diagnose"
	"github.com/ringscope/ringscope/decode/tasktrace"
)

// The task section (docs/CAPTURE.md §1.5) follows the frames of a
// version-3 file: u32 length T, then T bytes of little-endian u32 words:
//
//	capacity, overflow (2 words, low first), evicted (2 words), passes P,
//	hang (0: none, else the health + 1), causes C, C cause kinds,
//	P passes of 7 words: first, end, beginNs (2), endNs (2),
//	flags (bit 0 timed, bit 1 budget spent, bit 2 records dropped),
//
// then the records as a trace buffer in docs/TRACE.md §1.1's record layout
// (tasktrace.AppendBuffer). A hang's report is not stored: the reader
// rebuilds it from the records and the file's first frame, its dump.
const taskFixedWords = 8

func appendTaskSection(out []byte, t *TaskTrace) []byte {
	le := binary.LittleEndian
	at := len(out)
	out = le.AppendUint32(out, 0) // T, below
	var hang uint32
	var causes []diagnose.Kind
	if h := t.Hang; h != nil {
		hang, causes = uint32(h.Health)+1, h.Causes
	}
	words := []uint32{t.Capacity, uint32(t.Overflow), uint32(t.Overflow >> 32), uint32(t.Evicted), uint32(t.Evicted >> 32),
		uint32(len(t.Passes)), hang, uint32(len(causes))}
	for _, k := range causes {
		words = append(words, uint32(k))
	}
	for i, p := range t.Passes {
		var flags uint32
		if p.Timed {
			flags |= 1
		}
		if i < len(t.Budget) && t.Budget[i] {
			flags |= 2
		}
		if p.Overflowed() {
			flags |= 4
		}
		words = append(words, p.First, p.End, uint32(p.BeginNS), uint32(p.BeginNS>>32), uint32(p.EndNS), uint32(p.EndNS>>32), flags)
	}
	for _, w := range words {
		out = le.AppendUint32(out, w)
	}
	var clock uint32
	if n := len(t.Passes); n > 0 {
		clock = t.Passes[n-1].End
	}
	out = tasktrace.AppendBuffer(out, clock, t.Records)
	le.PutUint32(out[at:], uint32(len(out)-at-4))
	return out
}

// decodeTaskSection reads the task section b, which starts at file offset
// off, into c.Tasks; a hang's dump is c's first frame.
func decodeTaskSection(c *Capture, b []byte, off int64) error {
	le := binary.LittleEndian
	n := int64(len(b)) / 4
	word := func(i int64) uint32 { return le.Uint32(b[4*i:]) }
	if n < taskFixedWords {
		return fail(off, -1, "task section", "%d bytes, shorter than its %d fixed words", len(b), taskFixedWords)
	}
	passes, hang, causes := int64(word(5)), word(6), int64(word(7))
	head := taskFixedWords + causes + 7*passes
	if causes > n || passes > n || head > n {
		return fail(off+20, -1, "task section", "%d passes and %d causes run past the %d-byte section", passes, causes, len(b))
	}
	t := &TaskTrace{Capacity: word(0), Overflow: uint64(word(1)) | uint64(word(2))<<32, Evicted: uint64(word(3)) | uint64(word(4))<<32,
		Name: c.Header.OpcodeName}
	kinds := make([]diagnose.Kind, causes)
	for i := range kinds {
		kinds[i] = diagnose.Kind(word(taskFixedWords + int64(i)))
	}
	for i := range passes {
		w := taskFixedWords + causes + 7*i
		t.Passes = append(t.Passes, tasktrace.Pass{First: word(w), End: word(w + 1), BeginNS: uint64(word(w+2)) | uint64(word(w+3))<<32,
			EndNS: uint64(word(w+4)) | uint64(word(w+5))<<32, Timed: word(w+6)&1 != 0})
		t.Budget = append(t.Budget, word(w+6)&2 != 0)
	}
	var buf tasktrace.Buffer
	if err := tasktrace.DecodeInto(&buf, b[4*head:]); err != nil {
		return fail(off+4*head, -1, "task records", "%v", err)
	}
	t.Records = buf.Records
	kept := make([]uint32, len(t.Passes))
	for i := range t.Records {
		at := tasktrace.Find(t.Passes, t.Records[i].Start)
		if at < 0 {
			return fail(off+4*head, -1, "task records", "record %d: start ticket %d is in no pass", i, t.Records[i].Start)
		}
		kept[at]++
	}
	for i := range passes {
		if word(taskFixedWords+causes+7*i+6)&4 != 0 {
			// A pass hands out two tickets a record it tried to append
			// (docs/TRACE.md §2): those it did not keep were dropped.
			p := &t.Passes[i]
			p.Dropped = max(1, p.Tickets()/2-min(p.Tickets()/2, kept[i]))
		}
	}
	if hang != 0 {
		if len(c.Frames) == 0 {
			return fail(off+24, -1, "task section", "a hang without its state dump (the file has no frame)")
		}
		t.Hang = newHang(&c.Frames[0], diagnose.Health(hang-1), kinds, t)
	}
	c.Tasks = t
	return nil
}
