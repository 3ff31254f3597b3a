//go:build js && wasm

package bench

import (
	"syscall/js"
	"testing"
	"time"

	"github.com/ringscope/ringscope/wasm/jsapi"
)

// wordsRowWords is the size of the words row: 4 Mi words, the issue 35 case
// (16 MiB of initial bytes).
const wordsRowWords = 4 << 20

// TestOpenWordsRow measures what open() costs to read a buffer's words
// (or data) given as a JS array of numbers: jsapi.Words, one
// Float64Array.set and one filter(Number.isFinite) in JS and the doubles
// copied to Go in 64 KiB chunks, against the per-element loop it replaced
// (jsapi.OptUint32Array: a read, a type check and a formatted label per
// element), on the same array, interleaved; and the allocations of one
// call at 64 Ki words (testing.AllocsPerRun): constant for Words, per
// element for the loop. No WebGPU: the JS engine alone.
func TestOpenWordsRow(t *testing.T) {
	needRows(t)
	u32 := js.Global().Get("Uint32Array").New(wordsRowWords)
	for i := 0; i < wordsRowWords; i += 1 << 16 {
		u32.Call("fill", (i*2654435761)>>8, i, i+1<<16) // 64 Ki-word runs of different values
	}
	arr := js.Global().Get("Array").Call("from", u32)
	obj := js.Global().Get("Object").New()
	obj.Set("words", arr)

	var words, loop []float64
	for i := range reps(5) {
		t0 := time.Now()
		b, err := jsapi.Words(arr, "open: buffers[0].words", wordsRowWords, "u32")
		words = append(words, ms(time.Since(t0)))
		if err != nil || len(b) != 4*wordsRowWords {
			t.Fatalf("Words: %d bytes, %v", len(b), err)
		}
		if i < reps(3) {
			t0 = time.Now()
			w, err := jsapi.OptUint32Array(obj, "open: buffers[0]", "words", wordsRowWords)
			loop = append(loop, ms(time.Since(t0)))
			if err != nil || len(w) != wordsRowWords {
				t.Fatalf("OptUint32Array: %d words, %v", len(w), err)
			}
		}
	}
	small := js.Global().Get("Array").Call("from", js.Global().Get("Uint32Array").New(1<<16))
	smallObj := js.Global().Get("Object").New()
	smallObj.Set("words", small)
	wordsAllocs := testing.AllocsPerRun(3, func() { _, _ = jsapi.Words(small, "w", 1<<16, "u32") })
	loopAllocs := testing.AllocsPerRun(3, func() { _, _ = jsapi.OptUint32Array(smallObj, "o", "words", 1<<16) })
	emit("words", "open words", map[string]any{
		"words": wordsRowWords, "wordsMs": dist(words), "loopMs": dist(loop),
		"allocWords": 1 << 16, "wordsAllocs": wordsAllocs, "loopAllocs": loopAllocs,
	})
}
