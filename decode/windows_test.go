package decode

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ringscope/ringscope/wgsl/abi"
)

const routeOp = 0x4000

func TestWindowsGroupedByTicket(t *testing.T) {
	ring := ringBytes(
		window(abi.StatusPublished, routeOp, 4, 7, WindowClassRequired),
		window(abi.StatusClaimed, routeOp, 5, 7, WindowClassRequired), // tenant of ticket 7 stays 4
		window(abi.StatusDone, routeOp, 4, 7, WindowClassLookahead),
		window(abi.StatusDone, routeOp, 1, 3, WindowClassRequired),
		window(abi.StatusFault, routeOp, 1, 3, 2), // class 2: neither required nor lookahead
		window(abi.StatusEmpty, routeOp, 1, 3, WindowClassLookahead),
		window(99, routeOp, 1, 3, WindowClassLookahead),
		window(abi.StatusPublished, routeOp+1, 2, 7, WindowClassRequired), // other opcode, not a window op
		window(abi.StatusYield, 5, 2, 7, WindowClassRequired),
		window(abi.StatusWaitIO, 5, 2, 7, WindowClassLookahead),
		window(abi.StatusRequeue, 5, 2, 1, WindowClassLookahead),
	)
	tel := telemetryOf(newControl(0, 11), ring, routeOp, 5)
	assert.Equal(t, []WindowTelemetry{
		{Ticket: 1, Tenant: 2, Opcode: 5, Lookahead: 1, Requeue: 1},
		{Ticket: 3, Tenant: 1, Opcode: routeOp, Required: 1, Lookahead: 2, Done: 1, Fault: 1},
		{Ticket: 7, Tenant: 2, Opcode: 5, Required: 1, Lookahead: 1, WaitIO: 1, Yield: 1},
		{Ticket: 7, Tenant: 4, Opcode: routeOp, Required: 2, Lookahead: 1, Published: 1, Claimed: 1, Done: 1},
	}, tel.Windows)
	assert.Equal(t, []WindowTelemetry{tel.Windows[0], tel.Windows[2], tel.Windows[3]}, tel.ActiveWindows(),
		"the all-terminal window of ticket 3 is inactive")
}

func TestWindowActive(t *testing.T) {
	for _, tc := range []struct {
		name string
		w    WindowTelemetry
		want bool
	}{
		{"empty", WindowTelemetry{}, false},
		{"all done", WindowTelemetry{Required: 3, Done: 3}, false},
		{"all fault", WindowTelemetry{Required: 3, Fault: 3}, false},
		{"published", WindowTelemetry{Published: 1}, true},
		{"claimed", WindowTelemetry{Claimed: 1}, true},
		{"wait io", WindowTelemetry{WaitIO: 1}, true},
		{"yield", WindowTelemetry{Yield: 1}, true},
		{"requeue", WindowTelemetry{Requeue: 1}, true},
	} {
		t.Run(tc.name, func(t *testing.T) { assert.Equal(t, tc.want, tc.w.Active()) })
	}
}

// naiveWindows is the reference §5.3 grouping with a map, to check every
// matcher against.
func naiveWindows(slots []RingSlotSnapshot, ops []uint32) []WindowTelemetry {
	type key struct{ ticket, op uint32 }
	m := map[key]*WindowTelemetry{}
	for _, s := range slots {
		if !slices.Contains(ops, s.Opcode) {
			continue
		}
		k := key{s.Args[0], s.Opcode}
		w := m[k]
		if w == nil {
			w = &WindowTelemetry{Ticket: k.ticket, Opcode: k.op, Tenant: s.Tenant}
			m[k] = w
		}
		switch s.Args[1] {
		case 0:
			w.Required++
		case 1:
			w.Lookahead++
		}
		switch s.Status {
		case StatusPublished:
			w.Published++
		case StatusClaimed:
			w.Claimed++
		case StatusDone:
			w.Done++
		case StatusWaitIO:
			w.WaitIO++
		case StatusYield:
			w.Yield++
		case StatusRequeue:
			w.Requeue++
		case StatusFault:
			w.Fault++
		}
	}
	out := []WindowTelemetry{}
	for _, w := range m {
		out = append(out, *w)
	}
	slices.SortFunc(out, compareWindows)
	return out
}

func TestWindowMatchers(t *testing.T) {
	for _, tc := range []struct {
		name string
		ops  []uint32
		kind matcherKind
	}{
		{"none", nil, matchNone},
		{"single", []uint32{9}, matchSingle},
		{"single after dedup", []uint32{9, 9, 9}, matchSingle},
		{"bitmap", []uint32{127, 0, 64, 63, 5}, matchBitmap},
		{"linear", []uint32{3, 0x10000, 200, 8}, matchLinear},
		{"binary", []uint32{1, 2, 3, 4, 5, 6, 7, 200, 0x10000}, matchBinary},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(1, uint64(len(tc.ops))))
			pool := append(slices.Clone(tc.ops), 128, 0xFFFFFFFF, 1000, 6)
			slots := make([]slot, 3000)
			for i := range slots {
				slots[i] = window(rng.Uint32N(10), pool[rng.IntN(len(pool))], rng.Uint32N(4), rng.Uint32N(40), rng.Uint32N(3))
			}
			var scratch DecodeScratch
			var tel RingTelemetry
			require.NoError(t, DecodeInto(&tel, &scratch, newControl(0, 3000).bytes(), ringBytes(slots...), tc.ops))
			assert.Equal(t, tc.kind, scratch.matcher.kind)
			want := naiveWindows(tel.Slots, tc.ops)
			if len(want) == 0 {
				assert.Empty(t, tel.Windows)
			} else {
				assert.Equal(t, want, tel.Windows)
			}
		})
	}
}

func TestWindowsManyTicketsGrowIndex(t *testing.T) {
	slots := make([]slot, 5000)
	for i := range slots {
		// tickets differing only in high bits must not collide into one
		slots[i] = window(abi.StatusPublished, routeOp, 0, uint32(i)<<20|uint32(i%3), 0)
	}
	tel := telemetryOf(newControl(0, 5000), ringBytes(slots...), routeOp)
	assert.Equal(t, naiveWindows(tel.Slots, []uint32{routeOp}), tel.Windows)
	assert.Len(t, tel.Windows, 5000)
}

func TestAppendActiveWindowsAllocationFree(t *testing.T) {
	tel := telemetryOf(newControl(0, 2), ringBytes(window(1, routeOp, 0, 1, 0), window(3, routeOp, 0, 2, 0)), routeOp)
	buf := make([]WindowTelemetry, 0, 4)
	assert.Zero(t, testing.AllocsPerRun(10, func() { buf = tel.AppendActiveWindows(buf[:0]) }))
	assert.Equal(t, []WindowTelemetry{{Ticket: 1, Opcode: routeOp, Required: 1, Published: 1}}, buf)
}
