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
// timeline panel, or, for an import without one, takes the window shown
// before it off: the panel never draws a window the replay is not of.
func (a *Capture) showImportedTasks(c *capture.Capture) {
	a.page.ShowTasks(c.Tasks)
}
