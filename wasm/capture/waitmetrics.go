package capture

import (
	"strconv"

	"github.com/ringscope/ringscope/decode"
)

// waitQuantiles are the quantile labels of the wait summaries: the
// median, the 99th percentile and the maximum (quantile 1).
var waitQuantiles = [...]string{"0.5", "0.99", "1"}

// waits writes the queue waits of the newest live frame (decode.WaitTimes,
// milliseconds) in seconds: per tenant that published and per priority, a
// summary of the ended waits (p50, p99, max, count and sum) and gauges of
// the items waiting and the oldest one's age. The quantiles are within
// internal/loghist.RelError of the waits'.
func (w *metricsWriter) waits(wt *decode.WaitTimes) {
	type group struct {
		label string
		st    *decode.WaitStats
	}
	var groups [2][len(wt.Tenant)]group
	var n [2]int
	for t := range wt.Tenant {
		if st := &wt.Tenant[t]; st.Count != 0 || st.Waiting != 0 {
			groups[0][n[0]] = group{`tenant="` + strconv.Itoa(t) + `"`, st}
			n[0]++
		}
	}
	for p := range wt.Priority {
		groups[1][p] = group{`priority="` + priorityNames[p] + `"`, &wt.Priority[p]}
	}
	n[1] = len(wt.Priority)
	for i, by := range [2]string{"tenant", "priority"} {
		gs := groups[i][:n[i]]
		name := "ringscope_" + by + "_queue_wait_seconds"
		w.family(name, "summary", "seconds", "Queue wait per "+by+" of the items that ended (DONE or FAULT): publish to the frame that showed the slot ended; quantile 1 is the longest.")
		for _, g := range gs {
			for q, v := range [...]float64{g.st.P50, g.st.P99, g.st.Max} {
				w.sample(name, g.label+`,quantile="`+waitQuantiles[q]+`"`, v/1000)
			}
			w.sample(name+"_sum", g.label, g.st.Sum/1000)
			w.sample(name+"_count", g.label, float64(g.st.Count))
		}
		name = "ringscope_" + by + "_queue_waiting"
		w.family(name, "gauge", "", "Items per "+by+" published and not yet ended (parked ones included).")
		for _, g := range gs {
			w.sample(name, g.label, float64(g.st.Waiting))
		}
		name = "ringscope_" + by + "_queue_oldest_age_seconds"
		w.family(name, "gauge", "seconds", "Age of the oldest item per "+by+" still waiting (0 when none waits).")
		for _, g := range gs {
			w.sample(name, g.label, g.st.OldestAge/1000)
		}
	}
}
