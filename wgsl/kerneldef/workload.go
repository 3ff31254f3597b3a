package kerneldef

import (
	"fmt"

	"github.com/ringscope/ringscope/wgsl/abi"
	"github.com/ringscope/ringscope/wgsl/host"
)

// Workload is the Kernel panel's workload form: Count items of Opcode,
// item i of tenant i % Tenants and priority i % Priorities, its argument
// word k Args[k] evaluated at i (the words past len(Args) are 0).
type Workload struct {
	Opcode     uint32 `json:"opcode"`
	Count      uint32 `json:"count"`
	Tenants    uint32 `json:"tenants"`
	Priorities uint32 `json:"priorities"`
	Args       []Expr `json:"args"`
}

// MaxItems bounds one workload: 16 Mi items is 1 GiB of ring, past what
// any device binds.
const MaxItems = 1 << 24

// Check names the first field out of range, as workload.FIELD.
func (w Workload) Check() error {
	switch {
	case w.Count == 0 || w.Count > MaxItems:
		return fmt.Errorf("workload.count: %d: want 1…%d", w.Count, MaxItems)
	case w.Tenants == 0 || w.Tenants > abi.TenantCount:
		return fmt.Errorf("workload.tenants: %d: want 1…%d", w.Tenants, abi.TenantCount)
	case w.Priorities == 0 || w.Priorities > abi.PriorityLevels:
		return fmt.Errorf("workload.priorities: %d: want 1…%d", w.Priorities, abi.PriorityLevels)
	case len(w.Args) > abi.SlotArgs:
		return fmt.Errorf("workload.args: %d expressions: a slot has %d argument words", len(w.Args), abi.SlotArgs)
	}
	return nil
}

// Items appends the workload's items to dst (reusing its capacity).
func (w Workload) Items(dst []host.Item) ([]host.Item, error) {
	if err := w.Check(); err != nil {
		return dst, err
	}
	dst = dst[:0]
	for i := range w.Count {
		it := host.Item{Opcode: w.Opcode, Tenant: i % w.Tenants, Priority: i % w.Priorities}
		for k, e := range w.Args {
			it.Args[k] = e.Eval(i, w.Count)
		}
		dst = append(dst, it)
	}
	return dst, nil
}

// MarshalText writes the expression's source, so a Workload's JSON holds
// args as strings: ["64*i", "64"].
func (e Expr) MarshalText() ([]byte, error) { return []byte(e.src), nil }

// UnmarshalText parses an expression.
func (e *Expr) UnmarshalText(b []byte) error {
	x, err := ParseExpr(string(b))
	if err != nil {
		return err
	}
	*e = x
	return nil
}

// Args parses one expression a field, naming the first one that does not
// parse as workload.args[k].
func Args(srcs []string) ([]Expr, error) {
	if len(srcs) > abi.SlotArgs {
		return nil, fmt.Errorf("workload.args: %d expressions: a slot has %d argument words", len(srcs), abi.SlotArgs)
	}
	out := make([]Expr, len(srcs))
	for k, s := range srcs {
		e, err := ParseExpr(s)
		if err != nil {
			return nil, fmt.Errorf("workload.args[%d] %q: %w", k, s, err)
		}
		out[k] = e
	}
	return out, nil
}
