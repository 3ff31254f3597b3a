//go:build js && wasm

package megakernel

import "github.com/ringscope/ringscope/webgpu"

// cpuCache is cpuAdapter's answer for one device; the zero value has none.
type cpuCache struct {
	dev *webgpu.Device
	cpu bool
}

// cpuAdapter reports whether the runner's device is known to run on the
// CPU (webgpu.AdapterInfo.IsCPU: a fallback adapter, SwiftShader,
// llvmpipe); a device without adapter info is not. Asked once per device
// (Rebind brings another): the answer sizes every submission's grid
// (Options.gridFor).
func (r *Runner) cpuAdapter() bool {
	if r.cpu.dev != r.dev {
		info, ok := r.dev.AdapterInfo()
		r.cpu = cpuCache{dev: r.dev, cpu: ok && info.IsCPU()}
	}
	return r.cpu.cpu
}
