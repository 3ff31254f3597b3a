//go:build js && wasm

package main

import (
	"fmt"
	"slices"
	"strings"
	"syscall/js"

	"github.com/ringscope/ringscope/decode"
	"github.com/ringscope/ringscope/ui"
	"github.com/ringscope/ringscope/wasm/jsarg"
	"github.com/ringscope/ringscope/webgpu/megakernel"
	"github.com/ringscope/ringscope/wgsl/host"
	"github.com/ringscope/ringscope/wgsl/workload"
)

// Reading open's options: the runner's (megakernel.Options) and the
// page's own (the watchdog's N, the readback mode). The kernel and data
// options are kernel_js.go's.

// openOpts is open's options: the runner's and the page's own.
type openOpts struct {
	megakernel.Options
	watchdogIntervals int
	readback          string // one of ui.ReadbackModes
}

func openOptions(o js.Value, defaultSlots int) (openOpts, error) {
	const what = "open"
	var oo openOpts
	opts := &oo.Options
	opts.LogCapacity, opts.MemoryBudgetBytes = logCapacity, memoryBudget
	if err := jsarg.Options(o, what); err != nil {
		return oo, err
	}
	fields := []struct {
		name string
		dst  *uint32
		def  uint32
	}{
		{"slots", &opts.Slots, uint32(defaultSlots)},
		{"tenants", &opts.Tenants, 1},
		{"observable", &opts.Observable, workload.ObservableWords},
		{"logCapacity", &opts.LogCapacity, logCapacity},
		{"budget", &opts.Budget, 64},
		{"workgroupSize", &opts.WorkgroupSize, 64},
		{"workerGroups", &opts.WorkerGroups, 0},
	}
	for _, f := range fields {
		v, err := jsarg.OptUint32(o, what, f.name, f.def)
		if err != nil {
			return oo, err
		}
		*f.dst = v
	}
	mem, err := jsarg.OptUint64(o, what, "memoryBudgetBytes", memoryBudget)
	if err != nil {
		return oo, err
	}
	opts.MemoryBudgetBytes = mem
	n, err := jsarg.OptUint32(o, what, "watchdogIntervals", decode.DefaultStallIntervals)
	switch {
	case err != nil:
		return oo, err
	case n == 0 || n > maxWatchdogIntervals:
		return oo, fmt.Errorf("open: watchdogIntervals must be 1…%d, got %d", maxWatchdogIntervals, n)
	}
	oo.watchdogIntervals = int(n)
	if oo.readback, err = optReadback(o); err != nil {
		return oo, err
	}
	masks, err := jsarg.OptUint32Array(o, what, "masks", jsarg.MaxOptionArray)
	if err != nil {
		return oo, err
	}
	if masks != nil {
		opts.Tenants = 0
		opts.Masks = make([]uint32, len(masks))
		for i, m := range masks {
			if m != 0 {
				opts.Masks[i] = host.MaskOn
			}
		}
	}
	if opts.WindowOpcodes, err = jsarg.OptUint32Array(o, what, "windowOpcodes", jsarg.MaxOptionArray); err != nil {
		return oo, err
	}
	return oo, nil
}

// optReadback reads open's readback: one of ui.ReadbackModes, "full" when
// absent (drain() and snapshot() give every slot, as before the option).
func optReadback(o js.Value) (string, error) {
	v, err := jsarg.OptProp(o, "open", "readback")
	switch {
	case err != nil:
		return "", err
	case v.IsUndefined() || v.IsNull():
		return ui.ReadbackFull, nil
	case jsarg.TypeName(v) != "string":
		return "", fmt.Errorf("open: readback must be a string, one of %s; got %s", strings.Join(ui.ReadbackModes, ", "), jsarg.TypeName(v))
	}
	mode, err := jsarg.String(v, "open: readback", jsarg.MaxName)
	if err == nil && !slices.Contains(ui.ReadbackModes, mode) {
		err = fmt.Errorf("open: readback %q: want one of %s", mode, strings.Join(ui.ReadbackModes, ", "))
	}
	return mode, err
}

// maxWatchdogIntervals bounds open's watchdogIntervals.
const maxWatchdogIntervals = 1000
