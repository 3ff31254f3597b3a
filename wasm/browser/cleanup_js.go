//go:build js && wasm

package browser

import (
	"sync"
	"syscall/js"
)

// Cleanup is a list of what to undo: listeners to remove, js.Funcs to
// release. The page keeps one for its lifetime; an embedder's teardown,
// or a test, runs it. The zero value is ready; it is safe for concurrent
// use.
type Cleanup struct {
	mu   sync.Mutex
	undo []func()
}

// Add registers f to run on Run, after everything registered after it.
func (c *Cleanup) Add(f func()) {
	c.mu.Lock()
	c.undo = append(c.undo, f)
	c.mu.Unlock()
}

// Func returns js.FuncOf(fn), released on Run.
func (c *Cleanup) Func(fn func(this js.Value, args []js.Value) any) js.Func {
	f := js.FuncOf(fn)
	c.Add(f.Release)
	return f
}

// Listen adds fn as target's listener for typ; Run removes it and
// releases fn.
func (c *Cleanup) Listen(target js.Value, typ string, fn js.Func) {
	target.Call("addEventListener", typ, fn)
	c.Add(func() {
		target.Call("removeEventListener", typ, fn)
		fn.Release()
	})
}

// Len is the number of undos registered and not run.
func (c *Cleanup) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.undo)
}

// Run undoes everything registered, newest first, and empties the list.
func (c *Cleanup) Run() {
	c.mu.Lock()
	undo := c.undo
	c.undo = nil
	c.mu.Unlock()
	for i := len(undo) - 1; i >= 0; i-- {
		undo[i]()
	}
}
