//go:build js && wasm

package jsapi

import (
	"encoding/binary"
	"syscall/js"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ringscope/ringscope/decode/frame"
	"github.com/ringscope/ringscope/wasm/browser"
	"github.com/ringscope/ringscope/wasm/capture"
	"github.com/ringscope/ringscope/wgsl/abi"
)

// importCapture and captureInfo on real JavaScript values, with a page
// that keeps nothing: what an import accepts, how a refusal reads (in the
// rejection and in the capture bar), and what captureInfo says while an
// import replays.

// barePage is a CapturePage with no dashboard and no live loop.
type barePage struct{}

func (barePage) ShowBar(capture.Bar, bool)              {}
func (barePage) ShowFrames([]frame.Frame, *frame.Frame) {}
func (barePage) HistoryLen() int                        { return 8 }
func (barePage) FormatBytes(n uint64) string            { return "" }
func (barePage) PauseLive() bool                        { return false }
func (barePage) ResumeLive()                            {}
func (barePage) TaskTrace() *capture.TaskTrace          { return nil }
func (barePage) ShowTasks(*capture.TaskTrace)           {}
func (barePage) ShowLiveTasks()                         {}

// newTestCapture is the capture concern on a fresh studio. Node has no
// document, which a replay sets its scrubber in (browser.SetValue): a
// stand-in finds no element. It stays: a replay shows its frame again
// 120 ms later (reassertReplay), after the test may have ended.
func newTestCapture(t *testing.T) *Capture {
	t.Helper()
	if js.Global().Get("document").IsUndefined() {
		val(`globalThis.document = { querySelector() { return null; } }`)
	}
	return &Capture{studio: capture.NewStudio("test", 2, 16), page: barePage{}, cleanup: &browser.Cleanup{}}
}

// dumpBytes are a vyre dump pair's control and ring: 8 slots, a valid
// control of generation 1.
func dumpBytes() (control, ring []byte) {
	w := make([]uint32, abi.ControlWords(4))
	w[abi.CtrlTenantBase], w[abi.CtrlTenantMask] = abi.TenantBaseValue, 1
	off := abi.DefaultPartitions(8)
	copy(w[abi.CtrlPriorityOffsets:], off[:])
	w[abi.CtrlMagic], w[abi.CtrlABIVersion], w[abi.CtrlGeneration] = abi.Magic, abi.Version, 1
	control = make([]byte, 4*len(w))
	for i, v := range w {
		binary.LittleEndian.PutUint32(control[4*i:], v)
	}
	return control, make([]byte, 8*abi.SlotBytes)
}

// captureFile is a capture file of n frames, seqs 11 … 10+n, 16 ms apart.
func captureFile(t *testing.T, n int) []byte {
	t.Helper()
	control, ring := dumpBytes()
	c, err := capture.FromDump(control, ring, nil)
	require.NoError(t, err)
	one := c.Frames[0]
	c.Frames = nil
	for i := range n {
		f := one
		f.Seq, f.AtMillis = uint64(11+i), float64(16*i)
		c.Frames = append(c.Frames, f)
	}
	b, err := capture.Encode(c)
	require.NoError(t, err)
	return b
}

func jsBytes(b []byte) js.Value { return browser.BytesToJS(b) }

func TestImportCaptureRefusesABlobNamingWhatToPass(t *testing.T) {
	a := newTestCapture(t)
	for src, want := range map[string]string{
		"new Blob([new Uint8Array(8)])":                        "importCapture: pass bytes (an ArrayBuffer or Uint8Array), not a Blob: await blob.arrayBuffer()",
		"new File([new Uint8Array(8)], 'a.rscap')":             "importCapture: pass bytes (an ArrayBuffer or Uint8Array), not a File: await blob.arrayBuffer()",
		"({bytes: new Blob([new Uint8Array(8)])})":             "importCapture: bytes: pass bytes (an ArrayBuffer or Uint8Array), not a Blob: await blob.arrayBuffer()",
		"Object.create({bytes: new Uint8Array(8)})":            "importCapture: expected the bytes of a capture file (Uint8Array or ArrayBuffer) or {control, ring} of a vyre dump, got an object with neither bytes nor control",
		"Object.create({control: new Uint8Array(8), ring: 1})": "importCapture: expected the bytes of a capture file (Uint8Array or ArrayBuffer) or {control, ring} of a vyre dump, got an object with neither bytes nor control",
		"({bytes: 5})": "importCapture: bytes must be an ArrayBuffer or a Uint8Array, got number",
	} {
		_, err := a.apiImport([]js.Value{val(src)})
		if assert.Error(t, err, src) {
			assert.Equal(t, want, err.Error(), src)
		}
	}
	// A Blob's inherited bytes() is no option: the file it holds is
	// refused as a Blob, never read as "bytes … got function".
	assert.False(t, a.studio.Replaying())
}

func TestImportCaptureChecksTheNameType(t *testing.T) {
	a := newTestCapture(t)
	control, ring := dumpBytes()
	for _, c := range []struct{ name, want string }{
		{"7", "importCapture: name must be a string, got number"},
		{"{}", "importCapture: name must be a string, got object"},
		{"null", "importCapture: name must be a string, got null"},
		{"'x'.repeat(5000)", "importCapture: name is 5000 characters long, more than the 4096 it may be"},
	} {
		o := val(`({name: ` + c.name + `})`)
		o.Set("control", jsBytes(control))
		o.Set("ring", jsBytes(ring))
		_, err := a.apiImport([]js.Value{o})
		if assert.Error(t, err, c.name) {
			assert.Equal(t, c.want, err.Error(), c.name)
		}
		// The bar reads the refusal once, with no name it could not read.
		assert.Equal(t, "import from importCapture() refused: "+c.want, a.studio.Bar().Error, c.name)
	}
	assert.False(t, a.studio.Replaying(), "nothing was imported")

	o := val(`({})`)
	o.Set("control", jsBytes(control))
	o.Set("ring", jsBytes(ring))
	info, err := a.apiImport([]js.Value{o})
	require.NoError(t, err)
	assert.Equal(t, "vyre dump", info.(capture.Info).Source, "an unnamed dump pair")
	o.Set("name", "run 7")
	info, err = a.apiImport([]js.Value{o})
	require.NoError(t, err)
	assert.Equal(t, "run 7", info.(capture.Info).Source)
}

func TestImportRefusalReadsOnceInTheCaptureBar(t *testing.T) {
	a := newTestCapture(t)
	for _, c := range []struct{ src, bar string }{
		{"new Uint8Array(8)", "import from importCapture() refused: capture: "},
		{"({bytes: new Uint8Array(8), name: 'run 7'})", "import run 7 refused: capture: "},
		{"({control: new Uint8Array(8), ring: new Uint8Array(64)})", "import vyre dump refused: "},
		{"({control: 1, ring: 2, name: 'x'.repeat(5000)})", "import from importCapture() refused: importCapture: name is 5000 characters long"},
		{"5", "import from importCapture() refused: importCapture: expected the bytes"},
	} {
		_, err := a.apiImport([]js.Value{val(c.src)})
		require.Error(t, err, c.src)
		bar := a.studio.Bar().Error
		assert.Contains(t, bar, c.bar, c.src)
		assert.NotContains(t, bar, "import import", c.src)
		assert.NotContains(t, bar, "import  refused", c.src)
	}
}

func TestCaptureInfoDescribesTheReplayedImport(t *testing.T) {
	a := newTestCapture(t)
	info, err := a.apiImport([]js.Value{jsBytes(captureFile(t, 9))})
	require.NoError(t, err)
	got := info.(capture.Info)
	assert.Equal(t, 9, got.Count)
	assert.Equal(t, 9, got.Frames, "the import's frames, not the (empty) recorder's")

	require.NoError(t, a.Replay(4))
	got = a.studio.Info()
	assert.True(t, got.Replaying)
	assert.Equal(t, 4, got.Index)
	assert.Equal(t, 9, got.Frames)
	assert.Less(t, got.Index, got.Frames, "the index is one of the frames described")
	assert.Equal(t, uint64(11), got.FirstSeq)
	assert.Equal(t, uint64(19), got.LastSeq)
	assert.Equal(t, float64(16*8), got.SpanMillis)
	assert.Equal(t, 0, got.Compact)

	// captureFrame(i) agrees: frame 0 is firstSeq, frame frames-1 lastSeq.
	for i, seq := range map[int]uint64{0: got.FirstSeq, got.Frames - 1: got.LastSeq} {
		d, err := a.apiCaptureFrame([]js.Value{js.ValueOf(i)})
		require.NoError(t, err)
		assert.Equal(t, seq, d.(Decoded).Seq, "captureFrame(%d)", i)
	}

	// Back to live: the recorder's again.
	a.BackToLive()
	got = a.studio.Info()
	assert.False(t, got.Replaying)
	assert.Equal(t, 0, got.Frames)
	assert.Zero(t, got.LastSeq)
}
