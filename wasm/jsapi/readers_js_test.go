//go:build js && wasm

package jsapi

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ringscope/ringscope/decode"
	"github.com/ringscope/ringscope/wasm/capture"
	"github.com/ringscope/ringscope/wasm/controller"
	"github.com/ringscope/ringscope/wgsl"
	"github.com/ringscope/ringscope/wgsl/host"
)

// Each API group's option reader on real JavaScript values (make
// test-wasm runs this under Node): what it makes of good options, and the
// refusal, by name, of a bad or unknown one, before any GPU work.

var openDefaults = controller.OpenDefaults{Slots: 4096, LogCapacity: 256, MemoryBudgetBytes: 1 << 30}

func TestReadOpen(t *testing.T) {
	o, err := readOpen(val("undefined"), openDefaults)
	require.NoError(t, err)
	assert.Equal(t, uint32(4096), o.Slots, "absent slots take the page's ring size")
	assert.Equal(t, decode.ReadbackFull, o.Readback)
	assert.Equal(t, uint32(0), o.TraceCapacity, "no trace unless asked")

	o, err = readOpen(val(`({slots: 256, masks: [1, 0, 5], readback: "summary", watchdogIntervals: 5, trace: {},
		opcodes: [{opcode: 0x10, name: "double", wgsl: "fn double() {}"}],
		buffers: [{name: "xs", access: "read_write", words: [1, 2, 3]}], data: [7]})`), openDefaults)
	require.NoError(t, err)
	assert.Equal(t, uint32(256), o.Slots)
	assert.Equal(t, []uint32{host.MaskOn, 0, host.MaskOn}, o.Masks, "a mask is on or off")
	assert.Equal(t, uint32(0), o.Tenants, "masks give the tenants")
	assert.Equal(t, decode.ReadbackSummary, o.Readback)
	assert.Equal(t, 5, o.WatchdogIntervals)
	assert.Equal(t, uint32(DefaultTraceCapacity), o.TraceCapacity)
	require.Len(t, o.Kernel.Opcodes, 1)
	assert.Equal(t, "double", o.Kernel.Opcodes[0].Name)
	require.Len(t, o.Kernel.Buffers, 1)
	assert.Equal(t, wgsl.ReadWrite, o.Kernel.Buffers[0].Access)
	assert.Equal(t, uint64(12), o.Kernel.Buffers[0].Size, "size defaults to the words' bytes")
	assert.Equal(t, []byte{7, 0, 0, 0}, o.Data)

	for src, want := range map[string]string{
		"({slot: 1024})":                                     `open: unknown option "slot" (did you mean "slots"?)`,
		"({slots: 1024n})":                                   "open: slots must be a number, got bigint",
		"({readback: 'most'})":                               `open: readback "most": want one of`,
		"({watchdogIntervals: 0})":                           "open: watchdogIntervals must be 1…1000, got 0",
		"({trace: {capcity: 4}})":                            `open: trace: unknown option "capcity" (did you mean "capacity"?)`,
		"({trace: 5})":                                       "open: trace must be an object {capacity}, got number",
		"({opcodes: [{code: 16}]})":                          `open: opcodes[0]: unknown option "code" (did you mean "opcode"?)`,
		"({opcodes: [{name: 'x'}]})":                         "open: opcodes[0].opcode is missing",
		"({buffers: [{name: 'b', access: 'write'}]})":        `open: buffers[0].access "write": want "read" or "read_write"`,
		"({buffers: [{name: 'b', bytes: [1], words: [1]}]})": "open: buffers[0].bytes must be an ArrayBuffer or a Uint8Array, got array",
		"({buffers: [{name: 'b', bytes: new Uint8Array(4), words: [1]}]})": "open: buffers[0]: give bytes or words, not both",
		"({masks: new Array(2 ** 30)})":                                    "open: masks has 1073741824 elements, more than the 4096 it may have",
		"({data: 'bytes'})":                                                "open: data must be an ArrayBuffer or a Uint8Array, got string",
	} {
		_, err := readOpen(val(src), openDefaults)
		require.Error(t, err, src)
		assert.Contains(t, err.Error(), want, src)
	}
}

func TestAttachRequest(t *testing.T) {
	var devices hostDevices
	req, err := attachRequest(val("({device: 1, control: 2, ring: 3, slots: 64, windowOpcodes: [2], readback: 'summary', budget: 0.2, submissionTimeoutMs: 500})"), &devices)
	require.NoError(t, err)
	assert.Equal(t, uint32(64), req.Slots)
	assert.Equal(t, []uint32{2}, req.WindowOpcodes)
	assert.Equal(t, decode.ReadbackSummary, req.Readback)
	assert.InDelta(t, 0.2, req.Budget, 1e-9)
	assert.Equal(t, int64(500), req.SubmissionTimeout.Milliseconds())
	require.NotNil(t, req.Host)
	// The host's objects are wrapped only when the controller asks, and
	// a number is no GPUDevice.
	_, err = req.Host()
	assert.ErrorContains(t, err, "device")

	req, err = attachRequest(val("({device: 1, control: 2, ring: 3})"), &devices)
	require.NoError(t, err)
	assert.Equal(t, decode.ReadbackAuto, req.Readback, "auto unless asked")
	assert.Zero(t, req.TraceCapacity)
	req, err = attachRequest(val("({device: 1, control: 2, ring: 3, trace: 4, traceCapacity: 100})"), &devices)
	require.NoError(t, err)
	assert.Equal(t, uint32(100), req.TraceCapacity)

	for src, want := range map[string]string{
		"5":                        "attach: options must be an object {device, control, ring, log?, slots?, windowOpcodes?, readback?, budget?}, got number",
		"({device: 1, rings: 3})":  `attach: unknown option "rings" (did you mean "ring"?)`,
		"({readback: 'half'})":     `attach: readback "half": want one of auto, full, summary`,
		"({readback: 1})":          "attach: readback must be a string, one of auto, full, summary; got number",
		"({slots: -1})":            "attach: slots",
		"({budget: '0.1'})":        "attach: budget must be a number, got string",
		"({windowOpcodes: 'nop'})": "attach: windowOpcodes must be an array, got string",
		"({traceCapacty: 1})":      `attach: unknown option "traceCapacty" (did you mean "traceCapacity"?)`,
		"({traceCapacity: 'all'})": "attach: traceCapacity must be a number, got string",
	} {
		_, err := attachRequest(val(src), &devices)
		require.Error(t, err, src)
		assert.Contains(t, err.Error(), want, src)
	}
}

func TestWorkloadArg(t *testing.T) {
	w, err := workloadArg(val("({opcode: 0x10, count: 8, args: ['64*i', 3]})"))
	require.NoError(t, err)
	assert.Equal(t, uint32(0x10), w.Opcode)
	assert.Equal(t, uint32(8), w.Count)
	assert.Equal(t, uint32(1), w.Tenants, "one tenant unless asked")
	for src, want := range map[string]string{
		"null":                                   "publishWorkload: workload must be an object {opcode, count, tenants, priorities, args}, got null",
		"({opcode: 16, cont: 8})":                `publishWorkload: workload: unknown option "cont" (did you mean "count"?)`,
		"({count: 8})":                           "publishWorkload: workload.opcode is missing",
		"({opcode: 16, count: 8, args: [true]})": "publishWorkload: workload.args[0] must be a number or an expression string, got boolean",
	} {
		_, err := workloadArg(val(src))
		require.Error(t, err, src)
		assert.Contains(t, err.Error(), want, src)
	}
}

func TestMountPanelsAndMetricsAndPushOptions(t *testing.T) {
	p, err := mountPanels(val("({panels: ['header', 'log']})"))
	require.NoError(t, err)
	assert.Equal(t, []string{"header", "log"}, p)
	p, err = mountPanels(val("undefined"))
	require.NoError(t, err)
	assert.Nil(t, p, "the whole dashboard")
	_, err = mountPanels(val("({panels: ['header', 'nope']})"))
	assert.ErrorContains(t, err, "mount: options.panels[1] = nope is not a panel")
	_, err = mountPanels(val("({panel: ['header']})"))
	assert.EqualError(t, err, `mount: unknown option "panel" (did you mean "panels"?)`)

	kind, err := metricsKind(val("({format: 'prometheus'})"), "exportMetrics")
	require.NoError(t, err)
	assert.Equal(t, capture.ExportPrometheus, kind)
	kind, err = metricsKind(val("undefined"), "exportMetrics")
	require.NoError(t, err)
	assert.Equal(t, capture.ExportMetrics, kind, "OpenMetrics unless asked")
	_, err = metricsKind(val("({format: 'json'})"), "exportMetrics")
	assert.EqualError(t, err, `exportMetrics: format "json": want "openmetrics" or "prometheus"`)
	_, err = metricsKind(val("({fromat: 'json'})"), "exportMetrics")
	assert.EqualError(t, err, `exportMetrics: unknown option "fromat" (did you mean "format"?)`)

	job, err := optLabel(val("({job: 'ci-1'})"), "pushMetrics", "job", "ringscope")
	require.NoError(t, err)
	assert.Equal(t, "ci-1", job)
	job, err = optLabel(val("({})"), "pushMetrics", "job", "ringscope")
	require.NoError(t, err)
	assert.Equal(t, "ringscope", job)
	_, err = optLabel(val("({job: 'a/b'})"), "pushMetrics", "job", "ringscope")
	assert.ErrorContains(t, err, "pushMetrics: job must be a string of 1…128 of A-Z a-z 0-9 _ . : -, got string")
}
