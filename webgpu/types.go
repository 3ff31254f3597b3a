package webgpu

import (
	"encoding/binary"
	"github.com/ringscope/ringscope/internal/nocompare"
	"strings"
	"time"
)

// BufferUsage is a set of GPUBufferUsage flags.
type BufferUsage uint32

// GPUBufferUsage flags, with the values of the WebGPU specification.
const (
	BufferUsageMapRead      BufferUsage = 0x0001
	BufferUsageMapWrite     BufferUsage = 0x0002
	BufferUsageCopySrc      BufferUsage = 0x0004
	BufferUsageCopyDst      BufferUsage = 0x0008
	BufferUsageIndex        BufferUsage = 0x0010
	BufferUsageVertex       BufferUsage = 0x0020
	BufferUsageUniform      BufferUsage = 0x0040
	BufferUsageStorage      BufferUsage = 0x0080
	BufferUsageIndirect     BufferUsage = 0x0100
	BufferUsageQueryResolve BufferUsage = 0x0200
)

// MapMode is a set of GPUMapMode flags.
type MapMode uint32

// GPUMapMode flags.
const (
	MapModeRead  MapMode = 0x0001
	MapModeWrite MapMode = 0x0002
)

// ShaderStage is a set of GPUShaderStage flags.
type ShaderStage uint32

// GPUShaderStage flags.
const (
	ShaderStageVertex   ShaderStage = 0x1
	ShaderStageFragment ShaderStage = 0x2
	ShaderStageCompute  ShaderStage = 0x4
)

// BufferBindingType is GPUBufferBindingType. The zero value means "uniform",
// as in WebGPU.
type BufferBindingType string

// GPUBufferBindingType values.
const (
	BufferBindingUniform         BufferBindingType = "uniform"
	BufferBindingStorage         BufferBindingType = "storage"           // var<storage, read_write>
	BufferBindingReadOnlyStorage BufferBindingType = "read-only-storage" // var<storage, read>
)

// ErrorFilter is GPUErrorFilter, the kind of error an error scope catches.
type ErrorFilter string

// GPUErrorFilter values.
const (
	ErrorFilterValidation  ErrorFilter = "validation"
	ErrorFilterOutOfMemory ErrorFilter = "out-of-memory"
	ErrorFilterInternal    ErrorFilter = "internal"
)

// FeatureTimestampQuery is the optional feature that enables timestamp
// query sets and compute pass timestampWrites.
const FeatureTimestampQuery = "timestamp-query"

// Limits holds the GPUSupportedLimits that matter for compute work. Read from
// an adapter or device, a field is the supported value (0 if the
// implementation does not report it). Used as DeviceDescriptor.RequiredLimits,
// a zero field is not requested (the device gets the default).
type Limits struct {
	MaxBindGroups                             uint64
	MaxBindingsPerBindGroup                   uint64
	MaxBufferSize                             uint64
	MaxStorageBufferBindingSize               uint64
	MaxUniformBufferBindingSize               uint64
	MinStorageBufferOffsetAlignment           uint64
	MinUniformBufferOffsetAlignment           uint64
	MaxStorageBuffersPerShaderStage           uint64
	MaxUniformBuffersPerShaderStage           uint64
	MaxDynamicStorageBuffersPerPipelineLayout uint64
	MaxDynamicUniformBuffersPerPipelineLayout uint64
	MaxComputeWorkgroupStorageSize            uint64
	MaxComputeInvocationsPerWorkgroup         uint64
	MaxComputeWorkgroupSizeX                  uint64
	MaxComputeWorkgroupSizeY                  uint64
	MaxComputeWorkgroupSizeZ                  uint64
	MaxComputeWorkgroupsPerDimension          uint64
}

type limitField struct {
	name string // the GPUSupportedLimits attribute
	p    *uint64
}

// fields pairs each field of l with its WebGPU name.
func (l *Limits) fields() []limitField {
	return []limitField{
		{"maxBindGroups", &l.MaxBindGroups},
		{"maxBindingsPerBindGroup", &l.MaxBindingsPerBindGroup},
		{"maxBufferSize", &l.MaxBufferSize},
		{"maxStorageBufferBindingSize", &l.MaxStorageBufferBindingSize},
		{"maxUniformBufferBindingSize", &l.MaxUniformBufferBindingSize},
		{"minStorageBufferOffsetAlignment", &l.MinStorageBufferOffsetAlignment},
		{"minUniformBufferOffsetAlignment", &l.MinUniformBufferOffsetAlignment},
		{"maxStorageBuffersPerShaderStage", &l.MaxStorageBuffersPerShaderStage},
		{"maxUniformBuffersPerShaderStage", &l.MaxUniformBuffersPerShaderStage},
		{"maxDynamicStorageBuffersPerPipelineLayout", &l.MaxDynamicStorageBuffersPerPipelineLayout},
		{"maxDynamicUniformBuffersPerPipelineLayout", &l.MaxDynamicUniformBuffersPerPipelineLayout},
		{"maxComputeWorkgroupStorageSize", &l.MaxComputeWorkgroupStorageSize},
		{"maxComputeInvocationsPerWorkgroup", &l.MaxComputeInvocationsPerWorkgroup},
		{"maxComputeWorkgroupSizeX", &l.MaxComputeWorkgroupSizeX},
		{"maxComputeWorkgroupSizeY", &l.MaxComputeWorkgroupSizeY},
		{"maxComputeWorkgroupSizeZ", &l.MaxComputeWorkgroupSizeZ},
		{"maxComputeWorkgroupsPerDimension", &l.MaxComputeWorkgroupsPerDimension},
	}
}

// AdapterInfo is GPUAdapterInfo. Strings are empty where the implementation
// withholds them.
type AdapterInfo struct {
	_ nocompare.T

	Vendor       string
	Architecture string
	Device       string
	Description  string
	// IsFallbackAdapter is adapter.isFallbackAdapter or
	// adapter.info.isFallbackAdapter, whichever the implementation has.
	IsFallbackAdapter bool
}

// IsCPU reports whether the adapter runs on the CPU: a fallback adapter, or a
// known software rasterizer (SwiftShader, llvmpipe, lavapipe). Dawn in Node
// may not flag SwiftShader as a fallback, so the name decides too.
func (i AdapterInfo) IsCPU() bool {
	if i.IsFallbackAdapter {
		return true
	}
	for _, s := range []string{i.Architecture, i.Device, i.Description} {
		s = strings.ToLower(s)
		for _, soft := range []string{"swiftshader", "llvmpipe", "lavapipe"} {
			if strings.Contains(s, soft) {
				return true
			}
		}
	}
	return false
}

// Stats counts what a device did through this binding. The zero value is
// no work. Counters only grow.
type Stats struct {
	BuffersCreated   uint64
	BuffersDestroyed uint64
	BytesWritten     uint64 // through Queue.WriteBuffer and Buffer.WriteMapped
	BytesRead        uint64 // copied into Go by Buffer.MapReadInto
	Maps             uint64 // completed MapReadInto calls
	Submits          uint64 // Queue.Submit calls
	CommandBuffers   uint64 // command buffers submitted
	DispatchCalls    uint64 // DispatchWorkgroups / DispatchWorkgroupsIndirect calls encoded
	ShaderModules    uint64
	Pipelines        uint64
	PromisesAwaited  uint64 // Promises this device's calls waited for
}

// DecodeTimestamps decodes resolved timestamp query values (little-endian
// u64 nanoseconds, as ResolveQuerySet writes them) from b into dst, reusing
// dst's storage, and returns it.
func DecodeTimestamps(dst []uint64, b []byte) []uint64 {
	dst = dst[:0]
	for len(b) >= 8 {
		dst = append(dst, binary.LittleEndian.Uint64(b))
		b = b[8:]
	}
	return dst
}

// TimestampInterval returns end-begin as a duration. ok is false when the
// pair cannot be an interval: a zero timestamp (not written, or withheld by
// the implementation) or end before begin (timestamps are not guaranteed
// monotonic across passes).
func TimestampInterval(begin, end uint64) (d time.Duration, ok bool) {
	if begin == 0 || end == 0 || end < begin {
		return 0, false
	}
	return time.Duration(end - begin), true
}
