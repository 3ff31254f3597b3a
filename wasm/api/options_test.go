package api

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
)

func TestCheckKeysNamesTheUnknownKey(t *testing.T) {
	for _, c := range []struct {
		t    *OptionTable
		keys []string
		want string
	}{
		{&OpenOptions, []string{"slots", "slot"}, `open: unknown option "slot" (did you mean "slots"?)`},
		{&OpenOptions, []string{"Budget"}, `open: unknown option "Budget" (did you mean "budget"?)`},
		{&OpenOptions, []string{"readbak"}, `open: unknown option "readbak" (did you mean "readback"?)`},
		{&DrainOptions, []string{"max"}, `drain: unknown option "max"; the options are maxSubmissions`},
		{&AttachOptions, []string{"device", "rings"}, `attach: unknown option "rings" (did you mean "ring"?)`},
		{&MountOptions, []string{"panel"}, `mount: unknown option "panel" (did you mean "panels"?)`},
		{&PublishOptions, []string{"allowUnknown"}, `publish: unknown option "allowUnknown"; the options are allowUnknownOpcodes`},
	} {
		err := c.t.CheckKeys("", c.keys)
		if err == nil || err.Error() != c.want {
			t.Errorf("%s.CheckKeys(%q) = %v, want %s", c.t.Where, c.keys, err, c.want)
		}
	}
	if err := OpenOptions.CheckKeys("", OpenOptions.Keys); err != nil {
		t.Errorf("every key of open's table: %v", err)
	}
	if err := OpcodeOptions.CheckKeys("open: opcodes[3]", []string{"code"}); err == nil || !strings.HasPrefix(err.Error(), "open: opcodes[3]: ") {
		t.Errorf("an element's refusal names the element: %v", err)
	}
	long := strings.Repeat("x", 10_000)
	if err := OpenOptions.CheckKeys("", []string{long}); err == nil || len(err.Error()) > 400 {
		t.Errorf("a 10,000-byte key is refused in a short message: %d bytes", len(err.Error()))
	}
}

func TestEditDistance(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want int
	}{{"slot", "slots", 1}, {"", "abc", 3}, {"kitten", "sitting", 3}, {"same", "same", 0}} {
		if got := editDistance(c.a, c.b, 10); got != c.want {
			t.Errorf("editDistance(%q, %q) = %d, want %d", c.a, c.b, got, c.want)
		}
	}
}

// TestOptionsDoc keeps docs/OPTIONS.md in step with the tables: a section
// per table, headed by its Where, whose rows are its keys in order; and no
// section the code does not have.
func TestOptionsDoc(t *testing.T) {
	b, err := os.ReadFile("../../docs/OPTIONS.md")
	if err != nil {
		t.Fatal(err)
	}
	sections := map[string][]string{}
	var order []string
	var cur string
	row := regexp.MustCompile("^\\| `([A-Za-z]+)` \\|")
	for _, line := range strings.Split(string(b), "\n") {
		if h, ok := strings.CutPrefix(line, "## "); ok {
			cur = h
			order = append(order, h)
			sections[h] = []string{}
			continue
		}
		if m := row.FindStringSubmatch(line); m != nil && cur != "" {
			sections[cur] = append(sections[cur], m[1])
		}
	}
	var want []string
	for _, tb := range OptionTables {
		want = append(want, tb.Where)
		if got, ok := sections[tb.Where]; !ok {
			t.Errorf("docs/OPTIONS.md has no section %q", tb.Where)
		} else if !slices.Equal(got, tb.Keys) {
			t.Errorf("docs/OPTIONS.md %q lists %q; the code's table has %q", tb.Where, got, tb.Keys)
		}
	}
	if !slices.Equal(order, want) {
		t.Errorf("docs/OPTIONS.md's sections are %q; the tables are %q", order, want)
	}
}

// TestCreateOptionsMatchModule: createRingscope checks its options in JS,
// against static/create-ringscope.mjs's createOptions, which must be this
// table.
func TestCreateOptionsMatchModule(t *testing.T) {
	b, err := os.ReadFile("../../static/create-ringscope.mjs")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?s)const createOptions = \[(.*?)\];`).FindSubmatch(b)
	if m == nil {
		t.Fatal("static/create-ringscope.mjs has no `const createOptions = [...];`")
	}
	var keys []string
	for _, q := range regexp.MustCompile(`'([A-Za-z]+)'`).FindAllSubmatch(m[1], -1) {
		keys = append(keys, string(q[1]))
	}
	if !slices.Equal(keys, CreateOptions.Keys) {
		t.Errorf("create-ringscope.mjs's createOptions are %q; wasm/api's CreateOptions %q", keys, CreateOptions.Keys)
	}
}

// TestOptionsTypes: types/ringscope.d.ts declares each options object
// with exactly its table's keys, so tsc refuses what the methods refuse.
func TestOptionsTypes(t *testing.T) {
	b, err := os.ReadFile("../../types/ringscope.d.ts")
	if err != nil {
		t.Fatal(err)
	}
	ifaces := map[string][]string{}
	key := regexp.MustCompile(`(?m)^\s+(\w+)\??:`)
	for _, m := range regexp.MustCompile(`(?s)export interface (\w+) \{(.*?)\n\}`).FindAllSubmatch(b, -1) {
		for _, k := range key.FindAllSubmatch(m[2], -1) {
			ifaces[string(m[1])] = append(ifaces[string(m[1])], string(k[1]))
		}
	}
	names := map[*OptionTable]string{
		&CreateOptions: "CreateOptions", &OpenOptions: "OpenOptions", &OpcodeOptions: "OpcodeOptions",
		&BufferOptions: "BufferOptions", &TraceOptions: "TraceOptions", &AttachOptions: "AttachOptions", &DrainOptions: "DrainOptions",
		&PublishOptions: "PublishOptions", &ItemKeys: "Item", &SnapshotOptions: "SnapshotOptions", &MountOptions: "MountOptions",
		&DecodeOptions: "DecodeOptions", &ExportMetricsOptions: "ExportMetricsOptions",
		&PushMetricsOptions: "PushMetricsOptions", &ExampleOptions: "ExampleOptions", &WorkloadOptions: "WorkloadOptions", &ImportOptions: "ImportOptions",
	}
	for _, tb := range OptionTables {
		name, ok := names[tb]
		if !ok {
			t.Errorf("table %q has no TypeScript interface named in this test", tb.Where)
			continue
		}
		if got := ifaces[name]; !slices.Equal(got, tb.Keys) {
			t.Errorf("types/ringscope.d.ts %s has %q; the table %q has %q", name, got, tb.Where, tb.Keys)
		}
	}
}
