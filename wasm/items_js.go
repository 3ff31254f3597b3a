//go:build js && wasm

package main

import ()

// ringSlots is the open ring's size, which bounds a publish batch (0
// before a runner opens: the batch is then refused as not ready).
func (a *app) ringSlots() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.runner == nil {
		return 0
	}
	return int(a.runner.Options().Slots)
}
