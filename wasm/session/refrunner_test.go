package session

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ringscope/ringscope/decode"
	"github.com/ringscope/ringscope/webgpu/megakernel"
	"github.com/ringscope/ringscope/wgsl/abi"
	"github.com/ringscope/ringscope/wgsl/host"
	"github.com/ringscope/ringscope/wgsl/ref"
	"github.com/ringscope/ringscope/wgsl/workload"
)

// refRunner is a Runner whose GPU is wgsl/ref, the pure-Go twin of the
// megakernel: each Step uploads the host copies, runs one submission on
// them and reads everything back, the way megakernel.Runner does under
// full readback.
type refRunner struct {
	q       *host.Queue
	data    []byte
	budget  uint32
	grid    ref.Grid
	windows []uint32

	megakernel.HostView
	acct      decode.PriorityRequeueAccounting
	published uint64
	steps     uint64
	ringAsks  int
	warms     int
	io        host.IOFunc
	// failNext, when set, is the error of the next Step.
	failNext error
}

func newRefRunner(t *testing.T, cfg host.ControlConfig, data []byte) *refRunner {
	t.Helper()
	q, err := host.NewQueue(cfg, 64)
	require.NoError(t, err)
	if len(data) == 0 {
		data = make([]byte, abi.WordBytes)
	}
	r := &refRunner{q: q, data: data, budget: 64, grid: ref.Grid{Workgroups: 4, Width: 16}}
	r.HostView.SetCopies(q, r.windows)
	require.NoError(t, r.decode())
	return r
}

// newGeneratedRunner is a refRunner and the generator of preset for it.
func newGeneratedRunner(t *testing.T, preset string, slots uint32, seed uint64) (*refRunner, *workload.Generator) {
	t.Helper()
	gen, err := workload.New(workload.Spec{Preset: preset, Slots: slots, Tenants: 4, Seed: seed})
	require.NoError(t, err)
	cfg := host.ControlConfig{Slots: slots, Observable: workload.ObservableWords, Masks: gen.Masks()}
	return newRefRunner(t, cfg, gen.Data()), gen
}

func (r *refRunner) decode() error {
	return r.HostView.Decode(decode.Buffers{Control: r.q.Control(), Ring: r.q.Ring(), Log: r.q.Log()})
}

func (r *refRunner) Publish(items []host.Item) (int, error) {
	n, err := r.q.Publish(items)
	r.published += uint64(n)
	return n, err
}

func (r *refRunner) Step(context.Context) (*megakernel.Epoch, error) {
	if err := r.failNext; err != nil {
		r.failNext = nil
		return nil, err
	}
	if r.HostView.TakeRingRequest() { // a full readback reads the ring anyway
		r.ringAsks++
	}
	b := ref.Buffers{Control: clone(r.q.Control()), Ring: clone(r.q.Ring()), Log: clone(r.q.Log()), Data: r.data}
	p := r.q.Params(r.budget).Bytes()
	b.Params = p[:]
	r.q.ClearDirty()
	res, err := ref.Run(b, r.grid)
	if err != nil {
		return nil, err
	}
	if err := r.q.Absorb(b.Control, b.Ring, b.Log); err != nil {
		return nil, err
	}
	if err := r.decode(); err != nil {
		return nil, err
	}
	r.steps++
	read := uint64(len(b.Control) + len(b.Ring) + len(b.Log))
	return &megakernel.Epoch{Index: r.steps, Grid: r.grid.Workgroups, Width: r.grid.Width, Claimed: res.Claims, RingRead: true,
		Telemetry: decode.MegakernelTelemetry{KernelLaunches: 2, BytesReadBack: read}}, nil
}

func (r *refRunner) Drain(ctx context.Context, maxSubmissions int) (decode.MegakernelReport, error) {
	var rep decode.MegakernelReport
	for range maxSubmissions {
		if r.Pending() == 0 {
			break
		}
		ep, err := r.Step(ctx)
		if err != nil {
			return rep, err
		}
		ep.AddTo(&rep)
		if _, err := r.Requeue(); err != nil {
			return rep, err
		}
	}
	return rep, nil
}

func (r *refRunner) Requeue() (host.RequeueStats, error) { return r.q.Requeue(r.io) }
func (r *refRunner) SetIOFunc(io host.IOFunc)            { r.io = io }
func (r *refRunner) TrackWaits(now func() float64)       { r.q.TrackWaits(now) }
func (r *refRunner) Waits() *host.Waits                  { return r.q.Waits() }
func (r *refRunner) OpcodeEnds(dst []host.OpcodeCount) []host.OpcodeCount {
	return r.q.OpcodeEnds(dst)
}
func (r *refRunner) ReclaimFaults() int   { return r.q.ReclaimFaults() }
func (r *refRunner) Warm(context.Context) { r.warms++ }

func (r *refRunner) Accounting() decode.PriorityRequeueAccounting { return r.acct }
func (r *refRunner) Published() uint64                            { return r.published }

// Pending is TAIL − HEAD summed over the partitions of the host copy.
func (r *refRunner) Pending() uint32 {
	c := r.q.Control()
	var n uint32
	for p := range abi.PriorityLevels {
		n += abi.Word(c, abi.CtrlTail+p) - abi.Word(c, abi.CtrlHead+p)
	}
	return n
}

func clone(b []byte) []byte { return append([]byte(nil), b...) }
