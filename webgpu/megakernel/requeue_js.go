//go:build js && wasm

package megakernel

import (
	"fmt"

	"github.com/ringscope/ringscope/wgsl/host"
)

// Requeue does the host's part between submissions (PROTOCOL §3), as Drain
// does after each of its Steps: YIELD slots republished (a disabled tenant's
// stay parked), REQUEUE slots republished with priority ageing, WAIT_IO slots
// serviced by the IOFunc. It is for callers that drive Steps themselves, such
// as the page's live loop; the requeues count in Accounting.
func (r *Runner) Requeue() (host.RequeueStats, error) {
	if err := r.usable("requeue"); err != nil {
		return host.RequeueStats{}, err
	}
	st, err := r.q.Requeue(r.io)
	accountRequeues(&r.acct, st)
	if err != nil {
		return st, fmt.Errorf("megakernel: requeue: %w", err)
	}
	return st, nil
}
