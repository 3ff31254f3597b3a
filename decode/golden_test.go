package decode

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ringscope/ringscope/wgsl/abi"
)

var update = flag.Bool("update", false, "rewrite testdata/golden from the hand-built buffers")

// goldenDump is a hand-built control + ring pair. Its bytes are frozen in
// testdata/golden/<name>.{control,ring}.bin and its decoding in <name>.json,
// so a change to the ABI constants or the decoder shows up as a diff.
type goldenDump struct {
	name      string
	control   controlWords
	ring      []byte
	windowOps []uint32
}

func goldenDumps() []goldenDump {
	v1 := newControl(2, 10)
	v1[abi.CtrlDoneCount] = 4
	v1[abi.CtrlEpoch] = 1
	v1[abi.CtrlOpcodeMetrics+abi.OpNop] = 2
	v1[abi.CtrlOpcodeMetrics+abi.OpBatchFence] = 1
	v1[abi.CtrlTenantClaims+1] = 3
	v1[abi.CtrlPriorityClaims+abi.PriorityNormal] = 3
	v1[abi.CtrlTenantMask+0], v1[abi.CtrlTenantMask+1] = 0xFFFFFFFF, 0xFFFFFFFF
	v1[abi.CtrlGeneration], v1[abi.CtrlDispatches], v1[abi.CtrlClaims], v1[abi.CtrlFaults] = 2, 3, 4, 1
	v1[abi.CtrlHead+abi.PriorityNormal], v1[abi.CtrlTail+abi.PriorityNormal] = 4, 6
	v1[abi.CtrlObservable+0] = 0xF00D
	v1Ring := ringBytes(
		slot{status: abi.StatusDone, op: abi.OpNop, tenant: 1, prio: abi.PriorityCritical},
		slot{status: abi.StatusDone, op: abi.OpBatchFence, tenant: 1, prio: abi.PriorityCritical, args: []uint32{1, 0xF00D, 0}},
		window(abi.StatusClaimed, routeOp, 1, 5, WindowClassRequired),
		window(abi.StatusPublished, routeOp, 1, 5, WindowClassLookahead),
		window(abi.StatusDone, routeOp, 1, 4, WindowClassRequired),
		slot{status: abi.StatusFault, op: 0xFFFF, tenant: 2, prio: abi.PriorityNormal},
		slot{status: abi.StatusWaitIO, op: abi.OpWaitIO, tenant: 1, prio: abi.PriorityLow, args: []uint32{77}},
		slot{status: abi.StatusYield, op: abi.OpYield, tenant: 1, prio: abi.PriorityLow},
		slot{status: abi.StatusRequeue, op: abi.OpRequeue, tenant: 1, prio: abi.PriorityIdle},
		slot{status: 0xBAD, op: 9, tenant: 9, prio: 9, args: []uint32{9, 9, 9, 9}},
	)

	legacy := newLegacyControl(1, 5)
	legacy[abi.CtrlDoneCount] = 256
	legacy[abi.CtrlOpcodeMetrics+abi.OpNop] = 256
	for w := abi.LegacyLastWord + 2; w < abi.CtrlObservable; w++ {
		legacy[w] = 0xCCCCCCCC // vyre's reserved gap holds garbage
	}
	legacyRing := statusRing(abi.StatusDone, abi.StatusDone, abi.StatusPublished, abi.StatusEmpty, abi.StatusEmpty)

	return []goldenDump{
		{"v1_mixed", v1, v1Ring, []uint32{routeOp}},
		{"legacy_vyre", legacy, legacyRing, nil},
		{"v1_empty_ring", newControl(0, 0), nil, nil},
	}
}

func TestGoldenDumps(t *testing.T) {
	for _, g := range goldenDumps() {
		t.Run(g.name, func(t *testing.T) {
			base := filepath.Join("testdata", "golden", g.name)
			tel, err := tryDecodeWindows(g.control.bytes(), g.ring, g.windowOps)
			require.NoError(t, err)
			counters, err := tel.RuntimeCounters()
			require.NoError(t, err)
			got, err := json.MarshalIndent(struct {
				Telemetry       RingTelemetry
				RuntimeCounters RuntimeCounters
			}{tel, counters}, "", "\t")
			require.NoError(t, err)
			got = append(got, '\n')
			if *update {
				require.NoError(t, os.MkdirAll(filepath.Dir(base), 0o755))
				require.NoError(t, os.WriteFile(base+".control.bin", g.control.bytes(), 0o644))
				require.NoError(t, os.WriteFile(base+".ring.bin", g.ring, 0o644))
				require.NoError(t, os.WriteFile(base+".json", got, 0o644))
			}
			control, err := os.ReadFile(base + ".control.bin")
			require.NoError(t, err, "run go test ./decode -run TestGoldenDumps -update")
			ring, err := os.ReadFile(base + ".ring.bin")
			require.NoError(t, err)
			want, err := os.ReadFile(base + ".json")
			require.NoError(t, err)
			assert.True(t, bytes.Equal(g.control.bytes(), control), "frozen control bytes differ from the builder: the ABI layout changed")
			assert.True(t, bytes.Equal(g.ring, ring), "frozen ring bytes differ from the builder: the ABI layout changed")
			fromDisk, err := tryDecodeWindows(control, ring, g.windowOps)
			require.NoError(t, err)
			assert.Equal(t, tel, fromDisk)
			assert.Equal(t, string(want), string(got))
		})
	}
}
