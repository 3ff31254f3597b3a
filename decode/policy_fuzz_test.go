package decode_test

import (
	"errors"
	"math/bits"
	"strings"
	"testing"

	"github.com/ringscope/ringscope/decode"
)

// FuzzRecommend feeds random requests to the standard policy: it must never
// panic, must fail only with its typed errors, and every plan it returns
// must be launchable (PROTOCOL §6). prev ≥ 6 means no previous topology.
// The seeds (§7.5's vectors and edge cases) are in testdata/fuzz/FuzzRecommend.
func FuzzRecommend(f *testing.F) {
	f.Fuzz(func(t *testing.T, queue, workers, maxX, maxGroups, maxInv, hits, perItem, hotOps, hotWins uint32,
		requeues uint64, age, nodes, edges uint32, frontier, mem uint16, resident, budget uint64, preferred uint32, prev uint8,
	) {
		req := decode.LaunchRequest{
			QueueLen: queue, RequestedWorkerGroups: workers, MaxWorkgroupSizeX: maxX,
			MaxComputeWorkgroupsPerDimension: maxGroups, MaxComputeInvocationsPerWorkgroup: maxInv,
			RequestedHitCapacity: hits, ExpectedHitsPerItem: perItem, HotOpcodeCount: hotOps, HotWindowCount: hotWins,
			RequeueCount: requeues, MaxPriorityAge: age, GraphNodeCount: nodes, GraphEdgeCount: edges,
			FrontierDensityBps: frontier, MemoryPressureBps: mem, ResidentDeviceBytes: resident,
			DeviceMemoryBudgetBytes: budget, PreferredWorkgroupSizeX: preferred,
		}
		var prevTopo *decode.Topology
		if prev < 6 {
			p := decode.Topology(prev)
			prevTopo = &p
		}
		got, err := decode.StandardLaunchPolicy().Recommend(req, prevTopo)

		invalid := maxX == 0 || maxGroups == 0 || maxInv == 0 || frontier > 10000 || mem > 10000
		if err != nil {
			var reqErr *decode.LaunchRequestError
			var oom *decode.OutOfMemoryError
			if !errors.As(err, &reqErr) && !errors.As(err, &oom) {
				t.Fatalf("untyped error %v", err)
			}
			if !strings.HasPrefix(err.Error(), "decode: ") {
				t.Fatalf("error %q lacks the package prefix", err)
			}
			if oom != nil && (budget == 0 || oom.Requested <= oom.Available || oom.Available != budget) {
				t.Fatalf("bogus out-of-memory %+v for budget %d", *oom, budget)
			}
			return
		}
		if invalid {
			t.Fatalf("invalid request accepted: %+v", req)
		}

		w := got.WorkgroupSizeX
		if w == 0 || bits.OnesCount32(w) != 1 || w > maxX || w > maxInv || w > 256 {
			t.Fatalf("width %d is not a power of two within limits %d, %d", w, maxX, maxInv)
		}
		g := got.DispatchGrid
		if g[0] < 1 || g[0] > maxGroups || g[1] != 1 || g[2] != 1 {
			t.Fatalf("grid %v outside [1, %d]", g, maxGroups)
		}
		if got.SlotCount%w != 0 || got.SlotCount < queue || got.SlotCount == 0 {
			t.Fatalf("slot count %d is not a whole number of %d-wide groups covering %d items", got.SlotCount, w, queue)
		}
		if uint64(g[0])*uint64(w) > uint64(got.SlotCount) || got.SlotCount-queue >= w && queue > 0 {
			t.Fatalf("grid %v of width %d exceeds or over-pads %d slots for %d items", g, w, got.SlotCount, queue)
		}
		if got.WorkerGroups < g[0] || got.WorkerGroups > maxGroups {
			t.Fatalf("worker groups %d outside [grid %d, limit %d]", got.WorkerGroups, g[0], maxGroups)
		}
		if workers > 0 && got.WorkerGroups > workers {
			t.Fatalf("worker groups %d above the requested %d", got.WorkerGroups, workers)
		}
		if got.EstimatedPeakDeviceBytes < resident || budget > 0 && got.EstimatedPeakDeviceBytes > budget {
			t.Fatalf("peak %d outside [resident %d, budget %d]", got.EstimatedPeakDeviceBytes, resident, budget)
		}
		if hits != 0 && got.HitCapacity != hits || hits == 0 && got.HitCapacity < 1024 {
			t.Fatalf("hit capacity %d for requested %d", got.HitCapacity, hits)
		}
		if (queue == 0) != (got.Pressure == decode.PressureEmpty) || (queue == 0) != (got.Topology == decode.TopologyEmpty) {
			t.Fatalf("queue %d planned as %v, %v", queue, got.Topology, got.Pressure)
		}
		for _, m := range []interface{ MarshalText() ([]byte, error) }{got.Topology, got.Pressure, got.ExecutionMode} {
			if _, err := m.MarshalText(); err != nil {
				t.Fatal(err)
			}
		}
	})
}
