//go:build js && wasm

package browser

import (
	"syscall/js"
	"testing"

	"github.com/gowebapi/webapi/file"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// countingTarget is an EventTarget whose addEventListener and
// removeEventListener count the listeners they add and remove, by type.
func countingTarget(t *testing.T) (target, counts js.Value) {
	t.Helper()
	mk := js.Global().Get("Function").New("t", "c", `
		const add = t.addEventListener.bind(t), remove = t.removeEventListener.bind(t);
		const live = new Set();
		t.addEventListener = (type, fn) => { c.added++; live.add(type + ":" + c.added); c.live = live.size; add(type, fn); };
		t.removeEventListener = (type, fn) => { c.removed++; remove(type, fn); };`)
	target = js.Global().Get("EventTarget").New()
	counts = js.Global().Get("Object").New()
	counts.Set("added", 0)
	counts.Set("removed", 0)
	mk.Invoke(target, counts)
	return target, counts
}

func TestListenForFilesRemovesEveryListenerItAdds(t *testing.T) {
	target, counts := countingTarget(t)
	var c Cleanup
	ListenForFiles(&c, target, func([]*file.File) { t.Error("no files were chosen or dropped") })
	require.Equal(t, 4, counts.Get("added").Int(), "change, dragover, dragleave, drop")
	assert.Equal(t, 4, c.Len(), "each listener has its undo")
	// A drag without files is ignored (and does not end the program).
	target.Call("dispatchEvent", js.Global().Get("Event").New("drop"))
	c.Run()
	assert.Equal(t, 4, counts.Get("removed").Int(), "every listener added is removed")
	assert.Zero(t, c.Len())
	c.Run() // twice is harmless
	assert.Equal(t, 4, counts.Get("removed").Int())
}

func TestCleanupReleasesTheFuncsItMade(t *testing.T) {
	var c Cleanup
	frames := NewAnimationFrames(&c, 0)
	ready := NewReadiness(&c)
	require.NotNil(t, frames)
	assert.Equal(t, 2, c.Len(), "the frame callback and the ready Promise's catch handler")
	ready.Settle(nil)
	ready.Settle(assert.AnError) // settles once
	order := []int{}
	c.Add(func() { order = append(order, 1) })
	c.Add(func() { order = append(order, 2) })
	c.Run()
	assert.Equal(t, []int{2, 1}, order, "newest first")
	assert.Zero(t, c.Len())
}
