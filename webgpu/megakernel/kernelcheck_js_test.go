//go:build js && wasm

package megakernel

import (
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ringscope/ringscope/wgsl"
	"github.com/ringscope/ringscope/wgsl/abi"
	"github.com/ringscope/ringscope/wgsl/host"
)

const probeFn = "fn probe(slot: u32, args: Args) -> Outcome {\n    observable_store(0u, USE);\n    return done();\n}\n"

// A kernel whose WGSL compiles but makes no pipeline is refused by
// PrepareKernel as a *CompileError naming its opcode, and the ring that
// runs keeps running (issue 35). The assembler refuses bindings and
// overrides first (wgsl.checkSnippet); checkPipeline is what stands behind
// it, so it is tried on them directly, and through PrepareKernel on what
// the assembler cannot see (workgroup memory past the device's limit).
func TestKernelThatMakesNoPipeline(t *testing.T) {
	dev := shared(t)
	ctx := ctxT(t)
	r := openT(t, dev, userOptions(histogramKernel()))
	probe := func(decl, use string) wgsl.Kernel {
		src := decl + "\n" + strings.ReplaceAll(probeFn, "USE", use)
		return wgsl.Kernel{Opcodes: []wgsl.Opcode{{Value: 0x11, Name: "probe", WGSL: src}}}
	}
	for name, k := range map[string]wgsl.Kernel{
		"group 1":              probe("@group(1) @binding(0) var<storage, read> g1: array<u32>;", "g1[0]"),
		"binding 9":            probe("@group(0) @binding(9) var<storage, read> b9: array<u32>;", "b9[0]"),
		"override, no default": probe("override nodefault: u32;", "nodefault"),
	} {
		mod, err := compileDrain(ctx, dev, &k)
		require.NoError(t, err, "%s compiles", name)
		err = checkPipeline(ctx, r.dev, &k, mod, r.opts.WorkgroupSize, workgroupClaims(r.dev, r.cpu.of(r.dev)))
		var ce *CompileError
		require.True(t, errors.As(err, &ce), "%s: %v", name, err)
		require.NotEmpty(t, ce.Diagnostics)
		assert.Equal(t, "probe", ce.Diagnostics[0].Opcode, "%s: %v", name, err)
		assert.Equal(t, "opcodes[0].wgsl", ce.Diagnostics[0].Field, "%s", name)
		t.Logf("%s: %v", name, err)

		err = r.PrepareKernel(ctx, k)
		var de *wgsl.DeclError
		require.True(t, errors.As(err, &de), "%s: the assembler refuses it first: %v", name, err)
		assert.Equal(t, 1, de.Line, name)
	}

	big := probe("var<workgroup> big: array<u32, 16384>;", "big[args[0] % 16384u]")
	err := r.PrepareKernel(ctx, big)
	var ce *CompileError
	require.True(t, errors.As(err, &ce), "%v", err)
	assert.Equal(t, "probe", ce.Diagnostics[0].Opcode)
	assert.Contains(t, err.Error(), "opcodes[0].wgsl (probe): error: makes no pipeline: ")
	assert.NotContains(t, err.Error(), "While validating", "the message's first line only")
	t.Logf("workgroup memory: %v", err)

	// The ring that ran keeps running, with its kernel.
	o := userOptions(histogramKernel())
	o.Data = abi.Bytes([]uint32{1, 2, 3, 17})
	require.NoError(t, r.Reset(o))
	it := host.Item{Opcode: opHistogram}
	it.Args[1] = 4
	_, err = r.Publish([]host.Item{it})
	require.NoError(t, err)
	_, err = r.Drain(ctx, 4)
	require.NoError(t, err)
	h, err := r.ReadBuffer(ctx, "hist")
	require.NoError(t, err)
	assert.EqualValues(t, []uint32{0, 2, 1, 1}, abi.Words(h)[:4])
}
