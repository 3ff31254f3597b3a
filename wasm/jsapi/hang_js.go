//go:build js && wasm

package jsapi

import (
	"time"

	"github.com/ringscope/ringscope/wasm/browser"
	"github.com/ringscope/ringscope/wasm/capture"
)

// ExportHang downloads the hang t holds as a capture file (docs/TRACE.md
// §7), and the capture bar says so.
func (a *Capture) ExportHang(t *capture.TaskTrace) {
	b, name, err := a.studio.ExportHang(t, time.Now())
	a.studio.Exported("hang", name, a.page.FormatBytes(uint64(len(b))), err)
	a.updateCaptureBar(false)
	if err == nil {
		browser.SaveFile(name, downloadTypes[capture.ExportCapture], b)
	}
}

// showImportedTasks puts an import's trace window, and its hang, on the
// timeline panel.
func (a *Capture) showImportedTasks(c *capture.Capture) {
	if c.Tasks == nil {
		return
	}
	a.page.ShowTasks(c.Tasks)
}
