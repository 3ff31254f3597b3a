package session

import (
	"github.com/ringscope/ringscope/decode"
	"github.com/ringscope/ringscope/wgsl/abi"
	"github.com/ringscope/ringscope/wgsl/host"
)

// Quantiles of decode.WaitStats.
const (
	waitP50 = 0.5
	waitP99 = 0.99
)

// fillWaits summarises the queue's wait measurements w into dst as of
// now (the frame's time): the ended waits' quantiles and maximum, the
// items waiting and the oldest one's age. Tenant ids the queue cannot
// publish (≥ abi.TenantCount) stay zero.
func fillWaits(dst *decode.WaitTimes, w *host.Waits, now float64) {
	for t := range dst.Tenant {
		if t < abi.TenantCount {
			dst.Tenant[t] = waitStats(w.Tenant(t), now)
		} else {
			dst.Tenant[t] = decode.WaitStats{}
		}
	}
	for p := range dst.Priority {
		dst.Priority[p] = waitStats(w.Priority(p), now)
	}
}

func waitStats(g *host.WaitGroup, now float64) decode.WaitStats {
	s := decode.WaitStats{Count: g.Ended(), Max: g.Max(), Sum: g.Sum(), Waiting: g.Waiting()}
	if s.Count != 0 {
		s.P50, s.P99 = g.Quantile(waitP50), g.Quantile(waitP99)
	}
	if at, ok := g.Oldest(); ok {
		s.OldestAge = max(now-at, 0)
	}
	return s
}

// runnerWaits is the runner's wait measurements when frames come from it
// (an attached host's ring publishes without telling ringscope).
func (s *Session) runnerWaits() *host.Waits {
	if s.attached != nil || s.runner == nil {
		return nil
	}
	return s.runner.Waits()
}
