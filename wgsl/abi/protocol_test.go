package abi

import (
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// span is a table row's word range (or value): first…last.
type span struct{ first, last uint64 }

func one(v uint32) span           { return span{uint64(v), uint64(v)} }
func words(at, n int) span        { return span{uint64(at), uint64(at + n - 1)} }
func key(sec, name string) string { return sec + " " + name }

// TestProtocolDoc checks every numbered row of docs/PROTOCOL.md's tables
// against this package's constants, and that no constant's row is
// missing: the page is the ABI in words, these constants the ABI in code.
func TestProtocolDoc(t *testing.T) {
	want := map[string]span{
		key("1", "control"): one(BindingControl), key("1", "ring"): one(BindingRing), key("1", "log"): one(BindingLog),
		key("1", "params"): one(BindingParams), key("1", "data"): one(BindingData),
		key("1", "EPOCH"): one(ParamEpoch), key("1", "BUDGET"): one(ParamBudget),
		key("1", "OBSERVABLE"): one(ParamObservable), key("1", "FLAGS"): one(ParamFlags),

		key("2", "SHUTDOWN"): one(CtrlShutdown), key("2", "DONE_COUNT"): one(CtrlDoneCount),
		key("2", "TENANT_BASE"): one(CtrlTenantBase), key("2", "TENANT_MASK"): words(CtrlTenantMask, TenantCount),
		key("2", "TENANT_QUOTA"):   words(CtrlTenantQuota, TenantSlots),
		key("2", "TENANT_CLAIMS"):  words(CtrlTenantClaims, TenantSlots),
		key("2", "OPCODE_METRICS"): words(CtrlOpcodeMetrics, MetricOpcodes), key("2", "EPOCH"): one(CtrlEpoch),
		key("2", "PRIORITY_OFFSETS"): words(CtrlPriorityOffsets, PriorityLevels+1),
		key("2", "STARVATION"):       one(CtrlStarvation), key("2", "PRIORITY_CLAIMS"): words(CtrlPriorityClaims, PriorityLevels),
		key("2", "MAGIC"): one(CtrlMagic), key("2", "ABI_VERSION"): one(CtrlABIVersion),
		key("2", "GENERATION"): one(CtrlGeneration), key("2", "DISPATCHES"): one(CtrlDispatches),
		key("2", "CLAIMS"): one(CtrlClaims), key("2", "FAULTS"): one(CtrlFaults), key("2", "DENIED"): one(CtrlDenied),
		key("2", "BUDGET_EXHAUSTED"): one(CtrlBudgetExhausted), key("2", "HEAD"): words(CtrlHead, PriorityLevels),
		key("2", "TAIL"): words(CtrlTail, PriorityLevels), key("2", "RESERVED"): one(CtrlReserved),
		key("2", "OBSERVABLE"): one(CtrlObservable),

		key("3", "STATUS"): one(SlotStatus), key("3", "OPCODE"): one(SlotOpcode), key("3", "TENANT"): one(SlotTenant),
		key("3", "PRIORITY"): one(SlotPriority), key("3", "ARGS"): words(SlotArg0, SlotArgs),

		key("4", "NOP"): one(OpNop), key("4", "STORE_U32"): one(OpStoreU32), key("4", "ATOMIC_ADD"): one(OpAtomicAdd),
		key("4", "LOAD_U32"): one(OpLoadU32), key("4", "COMPARE_SWAP"): one(OpCompareSwap), key("4", "MEMCPY"): one(OpMemcpy),
		key("4", "DFA_STEP"): one(OpDFAStep), key("4", "BATCH_FENCE"): one(OpBatchFence), key("4", "HASH"): one(OpHash),
		key("4", "SPIN"): one(OpSpin), key("4", "YIELD"): one(OpYield), key("4", "REQUEUE"): one(OpRequeue),
		key("4", "WAIT_IO"): one(OpWaitIO), key("4", "RAISE"): one(OpRaise), key("4", "PRINTF"): one(OpPrintf),
		key("4", "SHUTDOWN"): one(OpShutdown),

		key("5", "CURSOR"): one(LogCursor), key("5", "CAPACITY"): one(LogCapacity),
		key("5", "RESERVED"):       words(LogCapacity+1, LogHeaderWords-LogCapacity-1),
		key("5", "UNKNOWN_OPCODE"): one(FaultUnknownOpcode), key("5", "OUT_OF_BOUNDS"): one(FaultOutOfBounds),
		key("5", "PROTECTED"): one(FaultProtected), key("5", "BAD_TENANT"): one(FaultBadTenant),
		key("5", "BAD_STATE"): one(FaultBadState), key("5", "USER_FAULT"): one(FaultUserFault),
	}
	b, err := os.ReadFile("../../docs/PROTOCOL.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	heading := regexp.MustCompile(`^## (\d+)\. `)
	row := regexp.MustCompile("^\\| (0x[0-9A-F]+|\\d+(?:–\\d+)?) \\| `?([A-Za-z_0-9]+)`? \\|")
	for st, name := range statusNames { // a status's row: its name and value
		want[key("3", name)] = one(uint32(st))
	}
	seen := map[string]bool{}
	sec := ""
	for _, line := range strings.Split(doc, "\n") {
		if m := heading.FindStringSubmatch(line); m != nil {
			sec = m[1]
			continue
		}
		m := row.FindStringSubmatch(line)
		if m == nil || sec == "" {
			continue
		}
		k := key(sec, m[2])
		w, ok := want[k]
		if !ok {
			t.Errorf("PROTOCOL §%s: row %q names no constant this test knows", sec, m[2])
			continue
		}
		got, err := parseSpan(m[1])
		if err != nil {
			t.Errorf("PROTOCOL §%s %s: %v", sec, m[2], err)
		} else if got != w {
			t.Errorf("PROTOCOL §%s %s: the doc says %s; wgsl/abi says %d…%d", sec, m[2], m[1], w.first, w.last)
		}
		seen[k] = true
	}
	for k := range want {
		if !seen[k] {
			t.Errorf("PROTOCOL: no row for %s", k)
		}
	}
	// Numbers the prose states.
	for _, s := range []string{
		fmt.Sprintf("`%#x`", Magic), fmt.Sprintf("%d fixed words", ControlMinWords),
		fmt.Sprintf("%d words per slot", SlotWords), fmt.Sprintf("a %d-word header plus %d words per record", LogHeaderWords, LogRecordWords),
		fmt.Sprintf("requeued %d times", PriorityAgeThreshold), fmt.Sprintf("`[0x%X | code", LogFaultTag),
		fmt.Sprintf("words 0–%d faults PROTECTED", ControlMinWords-1), fmt.Sprintf("tenant %d or above", TenantCount),
		fmt.Sprintf("0x%X…0x%X are the user's", UserOpcodeFirst, UserOpcodeLast),
		fmt.Sprintf("| %d | ABI_VERSION | host | %d |", CtrlABIVersion, Version),
	} {
		if !strings.Contains(strings.ReplaceAll(doc, "\n", " "), s) {
			t.Errorf("docs/PROTOCOL.md does not say %q", s)
		}
	}
}

func parseSpan(s string) (span, error) {
	if h, ok := strings.CutPrefix(s, "0x"); ok {
		v, err := strconv.ParseUint(h, 16, 32)
		return span{v, v}, err
	}
	a, b, ok := strings.Cut(s, "–")
	first, err := strconv.ParseUint(a, 10, 32)
	if err != nil || !ok {
		return span{first, first}, err
	}
	last, err := strconv.ParseUint(b, 10, 32)
	return span{first, last}, err
}
