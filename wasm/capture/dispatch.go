package capture

import "github.com/ringscope/ringscope/decode"

// Dispatch is decode.MegakernelTelemetry as the capture file stores it:
// the same fields under fixed lowerCamelCase JSON names, enums as their
// names. The conversions below are struct conversions, so the build
// breaks when the two structs drift apart.
type Dispatch struct {
	BytesUploaded            uint64               `json:"bytesUploaded"`
	BytesReadBack            uint64               `json:"bytesReadBack"`
	BytesMoved               uint64               `json:"bytesMoved"`
	ResidentAllocations      uint32               `json:"residentAllocations"`
	KernelLaunches           uint32               `json:"kernelLaunches"`
	SyncPoints               uint32               `json:"syncPoints"`
	OccupancyProxyBps        uint16               `json:"occupancyProxyBps"`
	FrontierDensityBps       uint16               `json:"frontierDensityBps"`
	ReadbackBuffers          uint32               `json:"readbackBuffers"`
	CompiledPipelineCacheHit bool                 `json:"compiledPipelineCacheHit"`
	ResidentInputCacheHit    bool                 `json:"residentInputCacheHit"`
	Topology                 decode.Topology      `json:"topology"`
	Pressure                 decode.QueuePressure `json:"pressure"`
	ExecutionMode            decode.ExecutionMode `json:"executionMode"`
	HitCapacity              uint32               `json:"hitCapacity"`
	EstimatedPeakDeviceBytes uint64               `json:"estimatedPeakDeviceBytes"`
	DeviceMemoryBudgetBytes  uint64               `json:"deviceMemoryBudgetBytes"`
}

// DispatchOf converts a dispatch's telemetry to its stored form.
func DispatchOf(t decode.MegakernelTelemetry) Dispatch {
	return Dispatch(t)
}

// Telemetry converts d back.
func (d Dispatch) Telemetry() decode.MegakernelTelemetry {
	return decode.MegakernelTelemetry(d)
}
