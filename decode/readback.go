package decode

import "strconv"

// Readback is what each frame of a ring reads back, one vocabulary for
// the page's ?readback=, the settings form, open(), attach() and the
// runner's and attachment's options (megakernel). The zero value is
// ReadbackAuto.
type Readback uint8

const (
	// ReadbackAuto picks full on a CPU or fallback adapter, where the
	// reduce pass costs more than the copy it saves, and summary on a GPU
	// (megakernel.ChooseReadback). A runner given auto reads the ring
	// every frame, as under full: the page resolves auto before it opens.
	ReadbackAuto Readback = iota
	// ReadbackFull reads control, log and the whole ring every frame.
	ReadbackFull
	// ReadbackSummary reads control, log, the GPU summary and the packed
	// status map every frame (docs/SUMMARY.md), and the ring on demand.
	ReadbackSummary
	// ReadbackOnDemand reads control and log, and the ring on demand: the
	// host copy keeps the statuses it last saw (a runner's mode for tests
	// and benchmarks; the page offers the other three).
	ReadbackOnDemand
)

var readbackNames = [...]string{ReadbackAuto: "auto", ReadbackFull: "full", ReadbackSummary: "summary", ReadbackOnDemand: "on-demand"}

// String is the mode's name as the URL, the form and the API spell it.
func (r Readback) String() string {
	if int(r) < len(readbackNames) {
		return readbackNames[r]
	}
	return "Readback(" + strconv.Itoa(int(r)) + ")"
}

// ParseReadback reads the name of one of PageReadbacks ("" is auto):
// on-demand is a runner's option in Go, not offered by the page.
func ParseReadback(s string) (Readback, bool) {
	if s == "" {
		return ReadbackAuto, true
	}
	for _, r := range PageReadbacks() {
		if s == r.String() {
			return r, true
		}
	}
	return ReadbackAuto, false
}

// ReadbackNames are the names of PageReadbacks, in menu order, comma
// separated: what a refusal says to want.
func ReadbackNames() string {
	m := PageReadbacks()
	return m[0].String() + ", " + m[1].String() + ", " + m[2].String()
}

// PageReadbacks are the modes the page offers (the form's menu, the URL,
// open and attach), in menu order.
func PageReadbacks() [3]Readback { return [...]Readback{ReadbackAuto, ReadbackSummary, ReadbackFull} }
