//go:build js && wasm

package megakernel

import "github.com/ringscope/ringscope/webgpu"

// cpuCache is whether one device runs on the CPU (of) for one device; the zero value has none.
type cpuCache struct {
	dev *webgpu.Device
	cpu bool
}

// of reports whether dev is known to run on the CPU
// (webgpu.AdapterInfo.IsCPU: a fallback adapter, SwiftShader, llvmpipe); a
// device without adapter info is not. Asked once per device (Rebind
// brings another): the answer sizes every submission's grid
// (Options.gridFor).
func (c *cpuCache) of(dev *webgpu.Device) bool {
	if c.dev != dev {
		info, ok := dev.AdapterInfo()
		*c = cpuCache{dev: dev, cpu: ok && info.IsCPU()}
	}
	return c.cpu
}
