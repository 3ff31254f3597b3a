package api

import (
	"fmt"
	"strings"
)

// OptionTable is the keys one options object of the API accepts: a method
// refuses any other key by name (jsarg.Known), and docs/OPTIONS.md has a
// table of each, which options_test.go keeps in step with these.
type OptionTable struct {
	// Where names the object as the refusal and the doc name it: a method
	// ("open"), or an object inside one's options ("open: opcodes[i]").
	Where string
	Keys  []string
}

// The options tables, one per options object. A new option is one more
// key here (and a row in docs/OPTIONS.md, which the test asks for).
var (
	// CreateOptions are createRingscope's, checked in JS
	// (static/create-ringscope.mjs's createOptions, kept equal by a test).
	CreateOptions = OptionTable{"createRingscope", []string{
		"container", "wasmURL", "open", "attach", "autostart", "global", "query"}}
	OpenOptions = OptionTable{"open", []string{
		"slots", "tenants", "masks", "observable", "logCapacity", "budget", "workgroupSize", "workerGroups",
		"memoryBudgetBytes", "watchdogIntervals", "submissionTimeoutMs", "readback", "windowOpcodes",
		"opcodes", "buffers", "data", "trace"}}
	TraceOptions  = OptionTable{"open: trace", []string{"capacity"}}
	OpcodeOptions = OptionTable{"open: opcodes[i]", []string{"opcode", "name", "wgsl"}}
	BufferOptions = OptionTable{"open: buffers[i]", []string{"name", "access", "element", "size", "bytes", "words"}}
	AttachOptions = OptionTable{"attach", []string{
		"device", "control", "ring", "log", "slots", "windowOpcodes", "readback", "budget", "submissionTimeoutMs", "trace", "traceCapacity"}}
	DrainOptions         = OptionTable{"drain", []string{"maxSubmissions"}}
	PublishOptions       = OptionTable{"publish", []string{"allowUnknownOpcodes"}}
	ItemKeys             = OptionTable{"publish: items[i]", []string{"opcode", "tenant", "priority", "args"}}
	SnapshotOptions      = OptionTable{"snapshot", []string{"slots", "trace"}}
	MountOptions         = OptionTable{"mount", []string{"panels"}}
	DecodeOptions        = OptionTable{"decode", []string{"windowOpcodes", "log"}}
	ExportMetricsOptions = OptionTable{"exportMetrics", []string{"format"}}
	PushMetricsOptions   = OptionTable{"pushMetrics", []string{"job", "instance"}}
	ExampleOptions       = OptionTable{"example", []string{"seed"}}
	WorkloadOptions      = OptionTable{"publishWorkload", []string{"opcode", "count", "tenants", "priorities", "args"}}
	ImportOptions        = OptionTable{"importCapture", []string{"bytes", "control", "ring", "name"}}
)

// OptionTables is every table, in docs/OPTIONS.md's order.
var OptionTables = []*OptionTable{
	&CreateOptions, &OpenOptions, &OpcodeOptions, &BufferOptions, &TraceOptions, &AttachOptions, &DrainOptions,
	&PublishOptions, &ItemKeys, &SnapshotOptions, &MountOptions, &DecodeOptions, &ExportMetricsOptions,
	&PushMetricsOptions, &ExampleOptions, &WorkloadOptions, &ImportOptions,
}

// MaxOptionKeys bounds how many keys an options object may have before
// they are compared: far above any table, far below what would cost time.
const MaxOptionKeys = 256

// maxKeyShown bounds how much of a refused key its message quotes.
const maxKeyShown = 64

// CheckKeys refuses the first key of keys that t does not have, naming it
// and the nearest key t has: `open: unknown option "slot" (did you mean
// "slots"?)`. where overrides t.Where for an element ("open: opcodes[2]").
func (t *OptionTable) CheckKeys(where string, keys []string) error {
	if where == "" {
		where = t.Where
	}
	for _, k := range keys {
		if t.Has(k) {
			continue
		}
		if len(k) > maxKeyShown {
			k = k[:maxKeyShown] + "…"
		}
		if s := t.Suggest(k); s != "" {
			return fmt.Errorf("%s: unknown option %q (did you mean %q?)", where, k, s)
		}
		return fmt.Errorf("%s: unknown option %q; the options are %s", where, k, strings.Join(t.Keys, ", "))
	}
	return nil
}

// Has reports whether k is one of t's keys.
func (t *OptionTable) Has(k string) bool {
	for _, x := range t.Keys {
		if x == k {
			return true
		}
	}
	return false
}

// Suggest is t's key nearest to k: the same but for case, or within an
// edit distance of a third of its length (at least 1); "" when none is.
func (t *OptionTable) Suggest(k string) string {
	best, bestD := "", len(k)/3+1
	for _, x := range t.Keys {
		if strings.EqualFold(x, k) {
			return x
		}
		if d := editDistance(strings.ToLower(k), strings.ToLower(x), bestD); d <= bestD && (best == "" || d < bestD) {
			best, bestD = x, d
		}
	}
	return best
}

// editDistance is the Levenshtein distance of a and b, or more than max
// once it must be (keys are short; a caller's key is at most MaxName).
func editDistance(a, b string, max int) int {
	if d := len(a) - len(b); d > max || -d > max {
		return max + 1
	}
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
