package diagnose

import "github.com/ringscope/ringscope/internal/nocompare"

// Diagnosis is the verdict of one frame: the health and the active causes,
// most explanatory first. The Diagnoser that returned it owns its storage:
// it is valid until the Diagnoser's next Observe (Clone keeps one).
type Diagnosis struct {
	Health Health
	Causes []Cause
}

// Cause is one thing wrong with the ring: what kind, about what, proven by
// which numbers, and what to do about it.
type Cause struct {
	_ nocompare.T

	Kind    Kind
	Subject Subject
	// Evidence holds the numbers that prove the cause, in a fixed order
	// per kind (docs/DIAGNOSIS.md).
	Evidence Evidence
	// Fix is one sentence a person can act on.
	Fix string
	// SinceMillis is the frame time at which the cause became active.
	SinceMillis float64
}

// Subject is what a cause is about. Fields that do not apply are None.
type Subject struct {
	Tenant   int
	Priority int
	Opcode   int64
	// Name is the opcode's name (or a status's) when the subject has one.
	Name string
}

// same reports whether s and o are about the same thing (a name is only
// how it reads).
func (s Subject) same(o Subject) bool {
	return s.Tenant == o.Tenant && s.Priority == o.Priority && s.Opcode == o.Opcode
}

// None marks a Subject field that does not apply.
const None = -1

// NoSubject is a subject about nothing in particular (the ring).
var NoSubject = Subject{Tenant: None, Priority: None, Opcode: None}

// TenantSubject is a subject about tenant t.
func TenantSubject(t int) Subject { s := NoSubject; s.Tenant = t; return s }

// PrioritySubject is a subject about priority level p.
func PrioritySubject(p int) Subject { s := NoSubject; s.Priority = p; return s }

// OpcodeSubject is a subject about opcode op, named name.
func OpcodeSubject(op uint32, name string) Subject {
	s := NoSubject
	s.Opcode, s.Name = int64(op), name
	return s
}

// Fact is one named number (or word) of evidence.
type Fact struct {
	Key   string
	Value float64
	// Text, when set, is the fact's value as a word (a fault code's name).
	Text string
}

// Evidence is a cause's facts, at most MaxFacts of them.
type Evidence struct {
	facts [MaxFacts]Fact
	n     int
}

// MaxFacts bounds one cause's evidence.
const MaxFacts = 8

// Add appends a numeric fact; past MaxFacts it is dropped.
func (e *Evidence) Add(key string, v float64) {
	if e.n < MaxFacts {
		e.facts[e.n] = Fact{Key: key, Value: v}
		e.n++
	}
}

// AddText appends a worded fact; past MaxFacts it is dropped.
func (e *Evidence) AddText(key, text string) {
	if e.n < MaxFacts {
		e.facts[e.n] = Fact{Key: key, Text: text}
		e.n++
	}
}

// Facts returns the facts, in the order they were added.
func (e *Evidence) Facts() []Fact { return e.facts[:e.n] }

// Get returns the value of the fact key.
func (e *Evidence) Get(key string) (float64, bool) {
	f, ok := e.lookup(key)
	return f.Value, ok
}

// lookup returns the fact key (its number or word).
func (e *Evidence) lookup(key string) (Fact, bool) {
	for _, f := range e.facts[:e.n] {
		if f.Key == key {
			return f, true
		}
	}
	return Fact{}, false
}

// First is the first cause, or nil when none is active.
func (d *Diagnosis) First() *Cause {
	if d == nil || len(d.Causes) == 0 {
		return nil
	}
	return &d.Causes[0]
}

// Has reports whether a cause of kind k is active.
func (d *Diagnosis) Has(k Kind) bool {
	for i := range d.Causes {
		if d.Causes[i].Kind == k {
			return true
		}
	}
	return false
}

// Clone returns a copy that does not share the Diagnoser's storage.
func (d *Diagnosis) Clone() Diagnosis {
	c := Diagnosis{Health: d.Health}
	if len(d.Causes) > 0 {
		c.Causes = append([]Cause(nil), d.Causes...)
	}
	return c
}

// CopyInto copies d into dst reusing dst's storage.
func (d *Diagnosis) CopyInto(dst *Diagnosis) {
	dst.Health = d.Health
	dst.Causes = append(dst.Causes[:0], d.Causes...)
}
