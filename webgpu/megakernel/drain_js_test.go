//go:build js && wasm

package megakernel

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ringscope/ringscope/decode"
	"github.com/ringscope/ringscope/wgsl/abi"
	"github.com/ringscope/ringscope/wgsl/host"
)

// stallDrain is the page's drain: three stalled submissions, two more
// while the verdict is not settled.
func stallDrain(settled func(n int) bool) (DrainOptions, *int) {
	calls := new(int)
	return DrainOptions{MaxSubmissions: 64, StallSubmissions: 3, StallGrace: 2,
		Observe: func(ep *Epoch, st *host.RequeueStats, drained bool) bool {
			*calls++
			return settled(*calls)
		}}, calls
}

// Observe learns which submission left nothing to run: the diagnosis
// judges that submission's work whole (a drain of one submission must
// return its verdict).
func TestDrainWithSaysWhichSubmissionDrained(t *testing.T) {
	r := openT(t, shared(t), Options{Slots: 64, Tenants: 1, Observable: 8, Budget: 1})
	_, err := r.Publish([]host.Item{addItem(0, 1, 2, 0), addItem(0, 2, 2, 0), addItem(0, 3, 2, 0)})
	require.NoError(t, err)
	var seen []bool
	run, err := r.DrainWith(ctxT(t), DrainOptions{MaxSubmissions: 64, StallSubmissions: 3,
		Observe: func(ep *Epoch, st *host.RequeueStats, drained bool) bool {
			seen = append(seen, drained)
			return true
		}})
	require.NoError(t, err)
	assert.Equal(t, DrainEmpty, run.Outcome, "%+v", run)
	require.NotEmpty(t, seen)
	assert.True(t, seen[len(seen)-1], "the last submission drained the ring")
	assert.NotContains(t, seen[:len(seen)-1], true, "only the last one")

	// Work left parked (a masked tenant's YIELD) is not drained.
	r = openT(t, shared(t), Options{Slots: 64, Masks: []uint32{host.MaskOn, 0}, Observable: 8, Budget: 8})
	_, err = r.Publish([]host.Item{addItem(0, 1, 2, 1)})
	require.NoError(t, err)
	seen = seen[:0]
	_, err = r.DrainWith(ctxT(t), DrainOptions{MaxSubmissions: 3, StallSubmissions: 2,
		Observe: func(ep *Epoch, st *host.RequeueStats, drained bool) bool {
			seen = append(seen, drained)
			return true
		}})
	require.NoError(t, err)
	assert.NotContains(t, seen, true)
}

func TestDrainWithMaskedTenant(t *testing.T) {
	r := openT(t, shared(t), Options{Slots: 64, Masks: []uint32{host.MaskOn, 0}, Observable: 8, Budget: 8})
	_, err := r.Publish([]host.Item{addItem(0, 1, 2, 0), addItem(1, 1, 2, 1), addItem(1, 1, 2, 1)})
	require.NoError(t, err)
	o, calls := stallDrain(func(int) bool { return true })
	run, err := r.DrainWith(ctxT(t), o)
	require.NoError(t, err)
	assert.Equal(t, DrainNoProgress, run.Outcome)
	// The first submission completes tenant 0's item; three more find
	// only tenant 1's parked YIELDs and complete nothing.
	assert.Equal(t, 4, run.Submissions)
	assert.Equal(t, 3, run.Stalled)
	assert.Equal(t, 4, *calls, "every submission is observed")
	assert.EqualValues(t, 4, run.Report.DispatchCount)
	assert.EqualValues(t, 2, run.Report.ItemsRemaining)
	assert.EqualValues(t, 2, r.Telemetry().Occupancy[decode.StatusYield])
	assert.Equal(t, []uint32{1, 0}, r.Observable()[:2], "nothing of tenant 1 ran")

	// A verdict that never settles gets StallGrace more submissions.
	o, calls = stallDrain(func(int) bool { return false })
	run, err = r.DrainWith(ctxT(t), o)
	require.NoError(t, err)
	assert.Equal(t, DrainNoProgress, run.Outcome)
	assert.Equal(t, 5, run.Submissions)
	assert.Equal(t, 5, *calls)

	// Settled at the fourth observation: one past N.
	o, _ = stallDrain(func(n int) bool { return n >= 4 })
	run, err = r.DrainWith(ctxT(t), o)
	require.NoError(t, err)
	assert.Equal(t, 4, run.Submissions)

	// Unmasked, the same drain empties the ring.
	require.NoError(t, r.SetTenantMask(1, true))
	run, err = r.DrainWith(ctxT(t), o)
	require.NoError(t, err)
	assert.Equal(t, DrainEmpty, run.Outcome)
	assert.Equal(t, 1, run.Submissions)
	assert.Zero(t, run.Stalled)
	assert.Equal(t, []uint32{1, 2}, r.Observable()[:2])

	// Nothing left: no submission at all.
	run, err = r.DrainWith(ctxT(t), o)
	require.NoError(t, err)
	assert.Equal(t, DrainEmpty, run.Outcome)
	assert.Zero(t, run.Submissions)
}

func TestDrainWithWaitIOAndShutdown(t *testing.T) {
	r := openT(t, shared(t), Options{Slots: 64, Tenants: 1, Observable: 8, Budget: 8})
	wait := item(abi.OpWaitIO, abi.PriorityNormal, 7)
	_, err := r.Publish([]host.Item{wait})
	require.NoError(t, err)
	asked := 0
	ready := false
	r.SetIOFunc(func(req host.Item) (host.Item, bool) {
		asked++
		return addItem(3, 1, req.Priority, req.Tenant), ready
	})
	o, _ := stallDrain(func(int) bool { return true })
	run, err := r.DrainWith(ctxT(t), o)
	require.NoError(t, err)
	assert.Equal(t, DrainNoProgress, run.Outcome)
	// The WAIT_IO ends its first submission waiting (nothing completed);
	// two more ask the service again and complete nothing either.
	assert.Equal(t, 3, run.Submissions)
	assert.Equal(t, 3, asked, "each submission asks the IO service again")
	assert.EqualValues(t, 1, r.Telemetry().Occupancy[decode.StatusWaitIO])

	ready = true
	run, err = r.DrainWith(ctxT(t), o)
	require.NoError(t, err)
	assert.Equal(t, DrainEmpty, run.Outcome)
	assert.EqualValues(t, 1, r.Observable()[3], "the answer ran")

	// SHUTDOWN: the published work is left and nothing claims it.
	_, err = r.Publish([]host.Item{addItem(4, 1, 2, 0)})
	require.NoError(t, err)
	r.SetShutdown(true)
	run, err = r.DrainWith(ctxT(t), o)
	require.NoError(t, err)
	assert.Equal(t, DrainNoProgress, run.Outcome)
	assert.Equal(t, 3, run.Submissions)
	assert.Zero(t, r.Observable()[4])
	r.SetShutdown(false)
	plain, err := r.DrainWith(ctxT(t), DrainOptions{MaxSubmissions: 1})
	require.NoError(t, err)
	assert.Equal(t, DrainEmpty, plain.Outcome, "the one submission ran the item; nothing is left")
	assert.EqualValues(t, 1, r.Observable()[4])
}

func TestDrainWithCapAndRequeueLoop(t *testing.T) {
	r := openT(t, shared(t), Options{Slots: 640, Tenants: 1, Observable: 8, Budget: 1, WorkgroupSize: 64, Grid: 1})
	items := make([]host.Item, 100)
	for i := range items {
		items[i] = addItem(0, 1, 2, 0)
	}
	_, err := r.Publish(items)
	require.NoError(t, err)
	o, _ := stallDrain(func(int) bool { return true })
	o.MaxSubmissions = 1
	run, err := r.DrainWith(ctxT(t), o)
	require.NoError(t, err)
	assert.Equal(t, DrainMaxSubmissions, run.Outcome, "64 lanes of one claim each leave 36")
	assert.EqualValues(t, 64, r.Observable()[0])

	// REQUEUE items are claimable every time and never complete.
	o.MaxSubmissions = 64
	_, err = r.Publish([]host.Item{item(abi.OpRequeue, abi.PriorityLow), item(abi.OpRequeue, abi.PriorityLow)})
	require.NoError(t, err)
	run, err = r.DrainWith(ctxT(t), o)
	require.NoError(t, err)
	assert.Equal(t, DrainNoProgress, run.Outcome)
	assert.Equal(t, 3, run.Stalled)
	assert.EqualValues(t, 100, r.Observable()[0], "the adds completed before the stall")
	assert.Positive(t, r.Accounting().RequeueCount)
}
