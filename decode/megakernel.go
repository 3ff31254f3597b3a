package decode

import (
	"math"
	"time"
)

// MegakernelTelemetry is the production counters of one megakernel dispatch
// (reference §8.1; vyre's MegakernelTelemetry). The GPU runner fills the
// transfer and cache fields; DispatchTelemetry copies the policy's choices
// from the launch recommendation. The zero value is a dispatch that moved
// nothing, with an unbounded budget.
type MegakernelTelemetry struct {
	// BytesUploaded is the bytes written to the device for this dispatch
	// (control, ring, log, params and data buffers).
	BytesUploaded uint64
	// BytesReadBack is the bytes read back from the device.
	BytesReadBack uint64
	// BytesMoved is BytesUploaded + BytesReadBack.
	BytesMoved uint64
	// ResidentAllocations is the device buffers created before the dispatch
	// (0 when resident buffers were reused).
	ResidentAllocations uint32
	// KernelLaunches is the compute dispatches issued for this logical
	// dispatch (the drain and its finalize pass count separately).
	KernelLaunches uint32
	// SyncPoints is the host-visible waits (mapAsync, onSubmittedWorkDone).
	SyncPoints uint32
	// OccupancyProxyBps is items claimed ÷ lanes launched, in basis points
	// capped at 10000 (ABI v1; see OccupancyProxyBps).
	OccupancyProxyBps uint16
	// FrontierDensityBps is active slots ÷ total slots, in basis points
	// capped at 10000 (ABI v1; see FrontierDensityBps).
	FrontierDensityBps uint16
	// ReadbackBuffers is the number of buffers read back.
	ReadbackBuffers uint32
	// CompiledPipelineCacheHit is true when a compiled pipeline was reused.
	CompiledPipelineCacheHit bool
	// ResidentInputCacheHit is true when resident input buffers were reused.
	ResidentInputCacheHit bool
	// Topology is the topology the launch policy selected.
	Topology Topology
	// Pressure is the queue pressure the launch policy selected.
	Pressure QueuePressure
	// ExecutionMode is the route the launch policy selected.
	ExecutionMode ExecutionMode
	// HitCapacity is the sparse-hit capacity the launch policy selected.
	HitCapacity uint32
	// EstimatedPeakDeviceBytes is the estimated peak device memory of the
	// launch plan: the recommendation's estimate plus, as in vyre, twice the
	// bytes of the input buffers (inputs and their output mirrors), added by
	// the runner.
	EstimatedPeakDeviceBytes uint64
	// DeviceMemoryBudgetBytes is the hard device-memory budget applied to
	// the launch; 0 means unbounded.
	DeviceMemoryBudgetBytes uint64
}

// DispatchTelemetry starts the telemetry of a dispatch planned by r: the
// policy's topology, pressure, mode, hit capacity, peak and budget. The
// runner fills in the rest.
func (r LaunchRecommendation) DispatchTelemetry() MegakernelTelemetry {
	return MegakernelTelemetry{
		Topology:                 r.Topology,
		Pressure:                 r.Pressure,
		ExecutionMode:            r.ExecutionMode,
		HitCapacity:              r.HitCapacity,
		EstimatedPeakDeviceBytes: r.EstimatedPeakDeviceBytes,
		DeviceMemoryBudgetBytes:  r.DeviceMemoryBudgetBytes,
	}
}

// OccupancyProxyBps is the ABI v1 occupancy of a dispatch: items claimed ÷
// lanes launched, in basis points, floored and capped at 10000 (a lane may
// claim several items). It is 0 when no lane was launched.
//
// vyre divided by padded slots, which made this the same number as the
// frontier density (reference §8.1, §11 item 12); lanes are what the grid
// actually paid for.
func OccupancyProxyBps(claimed, lanes uint64) uint16 {
	return cappedBps(claimed, lanes)
}

// FrontierDensityBps is the ABI v1 frontier density of a ring: active slots
// (PUBLISHED, CLAIMED, WAIT_IO, YIELD, REQUEUE) ÷ total slots, in basis
// points, floored and capped at 10000. It is 0 for a ring of no slots.
func FrontierDensityBps(active, total uint64) uint16 {
	return cappedBps(active, total)
}

// MaxReportDispatches is how many per-dispatch records a MegakernelReport
// keeps: enough for a live chart, bounded so a long run does not grow
// without limit. The totals cover every dispatch.
const MaxReportDispatches = 256

// MegakernelReport is the aggregate of one logical run: every dispatch that
// drained one published batch, until the ring is empty (reference §8.2;
// vyre's MegakernelReport). ringscope publishes without dedupe, fusion or
// lineage, so those fields of vyre's report have no counterpart here. The
// zero value is a run with nothing published and no dispatch yet; Add and
// RecordProgress fill it, and the runner adds the times.
type MegakernelReport struct {
	// PublishedItems is the items the host published for the run (vyre's
	// initial and published items; without dedupe they are equal).
	PublishedItems uint64
	// SpawnedItems is the items the GPU spawned and published itself
	// (docs/PROTOCOL-SPAWN.md): the run's work too, which no host counted.
	SpawnedItems uint64
	// ItemsProcessed is the items that reached a terminal status (DONE or
	// FAULT, as DONE_COUNT counts them), never more than PublishedItems +
	// SpawnedItems.
	ItemsProcessed uint64
	// ItemsRemaining is PublishedItems + SpawnedItems − ItemsProcessed.
	ItemsRemaining uint64

	// WallTime is the host wall-clock time around submit-and-wait, summed
	// over the run's dispatches.
	WallTime time.Duration
	// GPUTime is the device time measured with timestamp queries, summed;
	// 0 when the adapter has no timestamp-query feature. It is kept apart
	// from WallTime on purpose (reference §11 item 14).
	GPUTime time.Duration
	// PublishTime is the host time spent encoding and writing slots.
	PublishTime time.Duration

	// DispatchCount is the number of dispatches added, all of them.
	DispatchCount uint64
	// BytesUploaded sums MegakernelTelemetry.BytesUploaded (saturating).
	BytesUploaded uint64
	// BytesReadBack sums MegakernelTelemetry.BytesReadBack (saturating).
	BytesReadBack uint64
	// BytesMoved sums MegakernelTelemetry.BytesMoved (saturating).
	BytesMoved uint64
	// ResidentAllocations sums the buffers allocated before dispatches.
	ResidentAllocations uint64
	// KernelLaunches sums the compute dispatches issued.
	KernelLaunches uint64
	// SyncPoints sums the host-visible waits.
	SyncPoints uint64
	// ReadbackBuffers sums the buffers read back.
	ReadbackBuffers uint64
	// PipelineCacheHits counts dispatches that reused a compiled pipeline.
	PipelineCacheHits uint64
	// ResidentInputCacheHits counts dispatches that reused resident inputs.
	ResidentInputCacheHits uint64
	// PeakDeviceBytes is the largest EstimatedPeakDeviceBytes of the run.
	PeakDeviceBytes uint64

	// Dispatches holds the per-dispatch telemetry of the most recent
	// dispatches, oldest first, at most MaxReportDispatches of them.
	Dispatches []MegakernelTelemetry
}

// Add folds one dispatch's telemetry into the report: the totals, the peak,
// and the bounded history in Dispatches.
func (r *MegakernelReport) Add(t MegakernelTelemetry) {
	r.DispatchCount = plusSat(r.DispatchCount, 1)
	r.BytesUploaded = plusSat(r.BytesUploaded, t.BytesUploaded)
	r.BytesReadBack = plusSat(r.BytesReadBack, t.BytesReadBack)
	r.BytesMoved = plusSat(r.BytesMoved, t.BytesMoved)
	r.ResidentAllocations = plusSat(r.ResidentAllocations, uint64(t.ResidentAllocations))
	r.KernelLaunches = plusSat(r.KernelLaunches, uint64(t.KernelLaunches))
	r.SyncPoints = plusSat(r.SyncPoints, uint64(t.SyncPoints))
	r.ReadbackBuffers = plusSat(r.ReadbackBuffers, uint64(t.ReadbackBuffers))
	if t.CompiledPipelineCacheHit {
		r.PipelineCacheHits = plusSat(r.PipelineCacheHits, 1)
	}
	if t.ResidentInputCacheHit {
		r.ResidentInputCacheHits = plusSat(r.ResidentInputCacheHits, 1)
	}
	r.PeakDeviceBytes = max(r.PeakDeviceBytes, t.EstimatedPeakDeviceBytes)
	if len(r.Dispatches) >= MaxReportDispatches {
		// Shift in place: at this size a copy is cheaper than a ring index
		// every reader would have to unwrap.
		n := copy(r.Dispatches, r.Dispatches[len(r.Dispatches)-MaxReportDispatches+1:])
		r.Dispatches = r.Dispatches[:n]
	}
	r.Dispatches = append(r.Dispatches, t)
}

// RecordProgress sets the run's item counts: items the host published and
// the GPU spawned, and those that reached a terminal status so far (capped
// at their sum, so a counter that includes an earlier run cannot report
// more work than there was).
func (r *MegakernelReport) RecordProgress(published, spawned, terminal uint64) {
	r.PublishedItems, r.SpawnedItems = published, spawned
	items := published + spawned
	r.ItemsProcessed = min(terminal, items)
	r.ItemsRemaining = items - r.ItemsProcessed
}

// Last returns the most recent dispatch's telemetry, and false when no
// dispatch has been added.
func (r *MegakernelReport) Last() (MegakernelTelemetry, bool) {
	if len(r.Dispatches) == 0 {
		return MegakernelTelemetry{}, false
	}
	return r.Dispatches[len(r.Dispatches)-1], true
}

// plusSat adds, saturating at the largest uint64: a total that stops
// growing is honest, one that wraps to a small number is not.
func plusSat(a, b uint64) uint64 {
	if a > math.MaxUint64-b {
		return math.MaxUint64
	}
	return a + b
}
