package kerneldef

import (
	"github.com/ringscope/ringscope/internal/nocompare"
	"github.com/ringscope/ringscope/wgsl"
	"github.com/ringscope/ringscope/wgsl/abi"
)

// Definition is a kernel definition file. Its JSON is an options object of
// ringscope.open (slots, tenants, data, opcodes, buffers) plus the
// workload the panel publishes and, for the shipped examples, the name of
// the host check that verifies the result (Example).
//
//	{"format": "ringscope-kernel/1", "slots": 1024, "tenants": 4,
//	 "opcodes": [{"opcode": 16, "name": "histogram", "wgsl": "fn histogram(…"}],
//	 "buffers": [{"name": "hist", "access": "read_write", "element": "atomic<u32>", "size": 64}],
//	 "data": [3, 1, 4],
//	 "workload": {"opcode": 16, "count": 1, "tenants": 1, "priorities": 1, "args": ["0", "3"]},
//	 "example": "histogram"}
type Definition struct {
	Format   string   `json:"format"`
	Title    string   `json:"title,omitempty"`
	Slots    uint32   `json:"slots,omitempty"`
	Tenants  uint32   `json:"tenants,omitempty"`
	Opcodes  []Opcode `json:"opcodes"`
	Buffers  []Buffer `json:"buffers"`
	Data     []uint32 `json:"data,omitempty"` // the data binding's words
	Workload Workload `json:"workload"`
	Example  string   `json:"example,omitempty"`
}

// Format is the value of a definition's "format" field.
const Format = "ringscope-kernel/1"

// Opcode is wgsl.Opcode as open's opcodes spell it.
type Opcode struct {
	_ nocompare.T

	Opcode uint32 `json:"opcode"`
	Name   string `json:"name"`
	WGSL   string `json:"wgsl"`
}

// Buffer is wgsl.Buffer as open's buffers spell it; Words are the initial
// contents (the rest of Size is zero).
type Buffer struct {
	Name    string   `json:"name"`
	Access  string   `json:"access"`
	Element string   `json:"element,omitempty"`
	Size    uint64   `json:"size"`
	Words   []uint32 `json:"words,omitempty"`
}

// Kernel is the definition's wgsl.Kernel (not validated: the runner's
// PrepareKernel does that against the device, naming each field).
func (d Definition) Kernel() wgsl.Kernel {
	var k wgsl.Kernel
	for _, op := range d.Opcodes {
		k.Opcodes = append(k.Opcodes, wgsl.Opcode{Value: op.Opcode, Name: op.Name, WGSL: op.WGSL})
	}
	for _, b := range d.Buffers {
		wb := wgsl.Buffer{Name: b.Name, Element: b.Element, Size: b.Size, Init: abi.Bytes(b.Words)}
		if b.Access == wgsl.ReadWrite.String() {
			wb.Access = wgsl.ReadWrite
		}
		k.Buffers = append(k.Buffers, wb)
	}
	return k
}

// Buffer returns the buffer named name, or false.
func (d Definition) Buffer(name string) (Buffer, bool) {
	for _, b := range d.Buffers {
		if b.Name == name {
			return b, true
		}
	}
	return Buffer{}, false
}

// FromKernel is the definition of a ring opened with k and data that ran
// w: what a check compares a run of that ring with.
func FromKernel(k wgsl.Kernel, data []byte, w Workload) Definition {
	d := Definition{Format: Format, Data: abi.Words(data), Workload: w}
	for _, op := range k.Opcodes {
		d.Opcodes = append(d.Opcodes, Opcode{Opcode: op.Value, Name: op.Name, WGSL: op.WGSL})
	}
	for _, b := range k.Buffers {
		d.Buffers = append(d.Buffers, Buffer{Name: b.Name, Access: b.Access.String(), Element: b.Element,
			Size: b.Size, Words: abi.Words(b.Init)})
	}
	return d
}
