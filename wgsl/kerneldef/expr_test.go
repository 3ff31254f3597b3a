package kerneldef

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestExprEval(t *testing.T) {
	for src, want := range map[string]uint32{
		"64":                  64,
		"0x10":                16,
		"64*i":                64 * 7,
		" 64 * i + 3 ":        64*7 + 3,
		"i*7%n":               (7 * 7) % 10,
		"(i+1)*(i+2)":         8 * 9,
		"10-3-2":              5,
		"100/7/2":             7,
		"i/0":                 0,
		"i%0":                 0,
		"0-1":                 0xFFFFFFFF,
		"min(64, 400 - 64*i)": 64,
		"min(64, 420 - 64*i)": 64, // 420 - 448 wraps to a huge u32
		"max(i, n)":           10,
		"max(min(i,3), 2)":    3,
		"2+3*4":               14,
	} {
		e, err := ParseExpr(src)
		require.NoError(t, err, src)
		assert.Equal(t, want, e.Eval(7, 10), src)
		assert.Equal(t, src, e.String())
	}
}

func TestExprErrors(t *testing.T) {
	for src, want := range map[string]string{
		"":           "empty",
		"64i":        `column 3: unexpected 'i'`,
		"i +":        "column 4: the expression ends",
		"(i":         "column 3: want )",
		"j":          `column 1: unknown name "j"`,
		"min(1)":     "want , between min's two arguments",
		"min 1":      "want ( after min",
		"4294967296": `"4294967296" is not a u32`,
		"0xg":        `column 1: "0x" is not a u32`,
		"1 $ 2":      `column 3: unexpected '$'`,
	} {
		_, err := ParseExpr(src)
		require.Error(t, err, src)
		assert.Contains(t, err.Error(), want, src)
	}
	deep := ""
	for range 40 {
		deep += "("
	}
	_, err := ParseExpr(deep + "1")
	assert.ErrorContains(t, err, "nested deeper than 32")
}

func TestWorkloadItems(t *testing.T) {
	w := Workload{Opcode: 0x10, Count: 7, Tenants: 3, Priorities: 5}
	var err error
	w.Args, err = Args([]string{"10*i", "min(10, 65 - 10*i)"})
	require.NoError(t, err)
	items, err := w.Items(nil)
	require.NoError(t, err)
	require.Len(t, items, 7)
	total := uint32(0)
	for i, it := range items {
		assert.EqualValues(t, 0x10, it.Opcode)
		assert.EqualValues(t, i%3, it.Tenant)
		assert.EqualValues(t, i%5, it.Priority)
		assert.EqualValues(t, 10*i, it.Args[0])
		total += it.Args[1]
		assert.Zero(t, it.Args[2])
	}
	assert.EqualValues(t, 65, total, "the last tile is short")

	for field, bad := range map[string]Workload{
		"workload.count":      {Count: 0, Tenants: 1, Priorities: 1},
		"workload.tenants":    {Count: 1, Tenants: 30, Priorities: 1},
		"workload.priorities": {Count: 1, Tenants: 1, Priorities: 6},
		"workload.args":       {Count: 1, Tenants: 1, Priorities: 1, Args: make([]Expr, 13)},
	} {
		_, err := bad.Items(nil)
		assert.ErrorContains(t, err, field+":")
	}
	_, err = Args([]string{"1", "i+"})
	assert.ErrorContains(t, err, `workload.args[1] "i+": column 3`)
}

func TestWorkloadJSON(t *testing.T) {
	var w Workload
	require.NoError(t, json.Unmarshal([]byte(`{"opcode":16,"count":3,"tenants":1,"priorities":1,"args":["i*2","5"]}`), &w))
	items, err := w.Items(nil)
	require.NoError(t, err)
	assert.EqualValues(t, 4, items[2].Args[0])
	b, err := json.Marshal(w)
	require.NoError(t, err)
	assert.JSONEq(t, `{"opcode":16,"count":3,"tenants":1,"priorities":1,"args":["i*2","5"]}`, string(b))
	assert.ErrorContains(t, json.Unmarshal([]byte(`{"args":["i*"]}`), &w), "column 3")
}

// FuzzExpr: any source parses or is refused; a parsed one evaluates
// without panicking and prints back as it was.
func FuzzExpr(f *testing.F) {
	for _, s := range []string{"64*i", "min(64, 4000 - 64*i)", "((i))", "0x1f%n", "max(1,", "9999999999"} {
		f.Add(s, uint32(3), uint32(9))
	}
	f.Fuzz(func(t *testing.T, src string, i, n uint32) {
		e, err := ParseExpr(src)
		if err != nil {
			return
		}
		_ = e.Eval(i, n)
		if e.String() != src {
			t.Fatalf("String %q, parsed from %q", e.String(), src)
		}
	})
}
