//go:build js && wasm

package controller

// Close ends the controller for good, for an embedder's dispose(): the
// live loop stops, an attachment detaches (the host's buffers and device
// are left as they were), the runner's buffers are destroyed and so is
// ringscope's own device, whose loss is not recovered. The frame loop
// then waits for a command that never comes; the Go program ends next.
func (c *Controller) Close() {
	c.losses.Hold(true) // the device destroyed below must stay lost
	_, _ = c.Detach()   // an error says nothing was attached
	c.mu.Lock()
	defer c.mu.Unlock()
	c.running = false
	if c.runner != nil {
		c.runner.Close()
		c.runner = nil
	}
	if c.dev != nil {
		c.dev.Destroy()
	}
}
