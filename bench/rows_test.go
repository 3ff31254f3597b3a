package bench

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"math"
	"os"
	"runtime"
	"slices"
	"testing"
	"time"

	"github.com/ringscope/ringscope/wgsl/abi"
	"github.com/ringscope/ringscope/wgsl/host"
	"github.com/ringscope/ringscope/wgsl/ref"
	"github.com/ringscope/ringscope/wgsl/workload"
)

// rows turns the measurements on: without it every test here skips, so
// `go test ./...` stays fast and never depends on timing.
var rows = flag.Bool("rows", false, "measure and print the benchmark rows (make bench)")

// quick lowers the repetitions (a smoke run of the harness).
var quick = flag.Bool("quick", false, "fewer repetitions: check the harness, not the numbers")

// maxSlots skips the readback row's rings above it (0: none skipped), for a
// smoke run of the harness on a slow adapter.
var maxSlots = flag.Uint("max-slots", 0, "readback row: skip rings of more slots (0: run all)")

func needRows(t *testing.T) {
	t.Helper()
	if !*rows {
		t.Skip("benchmark rows run only with -rows (make bench)")
	}
}

// reps is n, or a small number under -quick.
func reps(n int) int {
	if *quick {
		return min(n, 3)
	}
	return n
}

// Row is one line of output: the row it belongs to, the case, and the
// measured sides. bench/run.mjs pairs the sides into ratios.
type Row struct {
	Row  string         `json:"row"`
	Case string         `json:"case"`
	Env  string         `json:"env"` // "native", or "wasm" plus the WebGPU host
	Data map[string]any `json:"data"`
}

// env names where this binary runs: GOOS/GOARCH, and for wasm the host
// bench/run.mjs or bench/device.sh set (RINGSCOPE_BENCH_HOST).
func env() string {
	if runtime.GOOS != "js" {
		return "native " + runtime.GOOS + "/" + runtime.GOARCH
	}
	if h := os.Getenv("RINGSCOPE_BENCH_HOST"); h != "" {
		return "wasm in " + h
	}
	return "wasm"
}

func emit(row, name string, data map[string]any) {
	b, err := json.Marshal(Row{Row: row, Case: name, Env: env(), Data: data})
	if err != nil {
		panic(err)
	}
	fmt.Printf("BENCHROW %s\n", b)
}

// Dist is a sample's summary: median, p90, extremes, and, when the sample
// splits into two clusters, both modes.
type Dist struct {
	N      int     `json:"n"`
	Median float64 `json:"median"`
	P90    float64 `json:"p90"`
	Min    float64 `json:"min"`
	Max    float64 `json:"max"`
	// Bimodal is set, for 8 samples or more, when sorted samples have a gap of more than 1.5×
	// between neighbours with at least 20% of the samples on each side;
	// Modes are then the two clusters' medians and LowShare the fraction
	// in the lower one.
	Bimodal  bool      `json:"bimodal,omitempty"`
	Modes    []float64 `json:"modes,omitempty"`
	LowShare float64   `json:"lowShare,omitempty"`
}

func dist(xs []float64) Dist {
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s) == 0 {
		return Dist{}
	}
	q := func(p float64) float64 { return s[min(int(p*float64(len(s))), len(s)-1)] }
	d := Dist{N: len(s), Median: q(0.5), P90: q(0.9), Min: s[0], Max: s[len(s)-1]}
	lo := int(math.Ceil(0.2 * float64(len(s))))
	best, at := 1.5, -1
	for i := lo; i <= len(s)-lo && i < len(s); i++ {
		if s[i-1] > 0 && s[i]/s[i-1] > best {
			best, at = s[i]/s[i-1], i
		}
	}
	if at > 0 && len(s) >= 8 {
		d.Bimodal = true
		d.Modes = []float64{s[:at][at/2], s[at:][(len(s)-at)/2]}
		d.LowShare = float64(at) / float64(len(s))
	}
	return d
}

func ms(d time.Duration) float64 { return float64(d.Nanoseconds()) / 1e6 }

// decodeSlots is the ring size of the decode rows.
const decodeSlots = 1 << 16

// Settings of the page's default workload (settings.DefaultSettings), which the
// decode and readback rows reproduce.
const (
	pageTenants     = 8
	pageLogCapacity = 1024
	pageBudget      = 64
)

var pageWindowOpcodes = []uint32{0x100}

// busyRing returns the control, ring and log bytes of a ring of the given
// size as the page sees it mid-run, deterministically: the default-mix
// workload published until its partitions are full, then one drain
// submission of the reference interpreter (64 × 64 lanes, budget 4), which
// leaves every status class present (DONE, FAULT, YIELD, REQUEUE, WAIT_IO,
// PUBLISHED). Native and wasm get the same bytes.
func busyRing(tb testing.TB, slots uint32) (control, ring, log []byte) {
	tb.Helper()
	gen, err := workload.New(workload.Spec{Preset: workload.DefaultMix, Slots: slots, Tenants: pageTenants,
		WindowOpcodes: pageWindowOpcodes, Seed: 1})
	if err != nil {
		tb.Fatal(err)
	}
	q, err := host.NewQueue(host.ControlConfig{Slots: slots, Observable: workload.ObservableWords, Masks: gen.Masks()}, pageLogCapacity)
	if err != nil {
		tb.Fatal(err)
	}
	var items []host.Item
	for range 64 {
		items = gen.Next(items[:0], int(slots/8))
		if publishDropping(q, items) == 0 {
			break
		}
	}
	b := ref.Buffers{Control: q.Control(), Ring: q.Ring(), Log: q.Log(), Data: gen.Data()}
	p := q.Params(4).Bytes()
	b.Params = p[:]
	if len(b.Data) == 0 {
		b.Data = make([]byte, abi.WordBytes)
	}
	if _, err := ref.Run(b, ref.Grid{Workgroups: 64, Width: 64}); err != nil {
		tb.Fatal(err)
	}
	return slices.Clone(b.Control), slices.Clone(b.Ring), slices.Clone(b.Log)
}

// publishDropping publishes items into q, dropping the items of a full
// priority partition (the page's back-pressure: wasm/session
// Session.publishShedding), and returns how many were published.
func publishDropping(q interface {
	Publish([]host.Item) (int, error)
}, items []host.Item) int {
	total := 0
	for range abi.PriorityLevels + 1 {
		if len(items) == 0 {
			break
		}
		n, err := q.Publish(items)
		total += n
		var pf *host.PartitionFullError
		if !errors.As(err, &pf) {
			break
		}
		kept := items[:0] // in place, as the page does
		for _, it := range items {
			if it.Priority != pf.Priority {
				kept = append(kept, it)
			}
		}
		items = kept
	}
	return total
}
