package ref_test

import (
	"encoding/binary"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ringscope/ringscope/wgsl/abi"
	"github.com/ringscope/ringscope/wgsl/host"
	"github.com/ringscope/ringscope/wgsl/ref"
)

func w(b []byte, i int) uint32 { return binary.LittleEndian.Uint32(b[i*abi.WordBytes:]) }

func setW(b []byte, i int, v uint32) { binary.LittleEndian.PutUint32(b[i*abi.WordBytes:], v) }

// rig is a queue plus the GPU-side copies of its buffers.
type rig struct {
	t    *testing.T
	q    *host.Queue
	b    ref.Buffers
	prev []byte // control before the last run
}

type rigConfig struct {
	slots, observable, logCap uint32
	tenants                   uint32
	data                      []uint32
	epoch                     uint32
}

func newRig(t *testing.T, c rigConfig) *rig {
	t.Helper()
	if c.slots == 0 {
		c.slots = 10
	}
	if c.tenants == 0 {
		c.tenants = abi.TenantCount
	}
	if c.logCap == 0 {
		c.logCap = 8
	}
	q, err := host.NewQueue(host.ControlConfig{Slots: c.slots, Observable: c.observable, Tenants: c.tenants}, c.logCap)
	require.NoError(t, err)
	for i := uint32(0); i < c.epoch; i++ {
		q.NewEpoch()
	}
	data := make([]byte, 4*max(len(c.data), 1))
	for i, v := range c.data {
		setW(data, i, v)
	}
	return &rig{t: t, q: q, b: ref.Buffers{Data: data}}
}

func (r *rig) publish(items ...host.Item) {
	r.t.Helper()
	_, err := r.q.Publish(items)
	require.NoError(r.t, err)
}

// upload copies the host buffers to the "GPU".
func (r *rig) upload() {
	r.b.Control = append([]byte(nil), r.q.Control()...)
	r.b.Ring = append([]byte(nil), r.q.Ring()...)
	r.b.Log = append([]byte(nil), r.q.Log()...)
	r.q.ClearDirty()
}

// run uploads, runs one submission and absorbs the result.
func (r *rig) run(budget uint32, g ref.Grid) ref.Result {
	r.t.Helper()
	r.upload()
	return r.runGPU(budget, g)
}

// runGPU runs on the GPU copies as they are (for hand-edited buffers) and
// absorbs the result.
func (r *rig) runGPU(budget uint32, g ref.Grid) ref.Result {
	r.t.Helper()
	res := r.exec(budget, g)
	require.NoError(r.t, r.q.Absorb(r.b.Control, r.b.Ring, r.b.Log))
	return res
}

// exec runs on the GPU copies without absorbing (for buffers the host
// would refuse).
func (r *rig) exec(budget uint32, g ref.Grid) ref.Result {
	r.t.Helper()
	p := r.q.Params(budget).Bytes()
	r.b.Params = p[:]
	r.prev = append([]byte(nil), r.b.Control...)
	res, err := ref.Run(r.b, g)
	require.NoError(r.t, err)
	return res
}

func (r *rig) ctl(i int) uint32   { return w(r.b.Control, i) }
func (r *rig) delta(i int) uint32 { return w(r.b.Control, i) - w(r.prev, i) }
func (r *rig) obs(i int) uint32   { return w(r.b.Control, abi.CtrlObservable+i) }
func (r *rig) status(slot int) uint32 {
	return w(r.b.Ring, slot*abi.SlotWords+abi.SlotStatus)
}

// records returns the log records written (not dropped).
func (r *rig) records() [][4]uint32 {
	n := min(w(r.b.Log, abi.LogCursor), w(r.b.Log, abi.LogCapacity))
	out := make([][4]uint32, n)
	for i := range out {
		for j := range out[i] {
			out[i][j] = w(r.b.Log, abi.LogHeaderWords+abi.LogRecordWords*i+j)
		}
	}
	return out
}

var one = ref.Grid{Workgroups: 1, Width: 1}
