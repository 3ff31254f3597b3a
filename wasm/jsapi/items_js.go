//go:build js && wasm

package jsapi

import (
	"fmt"
	"syscall/js"

	"github.com/ringscope/ringscope/wasm/api"
	"github.com/ringscope/ringscope/wgsl/host"
)

// The arrays the ring API reads: publish's items and the options' arrays
// of integers, through jsarg_js.go's safe reads, their lengths checked
// before anything is allocated.

// MaxOptionArray bounds the arrays of options and items before they are
// read: far above any valid length (29 masks, 64 window opcodes, 12 args),
// so the runner's and api.Item's own messages still say what the limit is,
// and far below what would cost memory (open({masks: new Array(2 ** 30)})
// allocated 4 GiB of Go slice before).
const MaxOptionArray = 4096

// OptUint32Array reads an optional array of at most max unsigned
// integers: its length is checked before anything is allocated or read.
func OptUint32Array(o js.Value, what, name string, max int) ([]uint32, error) {
	v, err := OptProp(o, what, name)
	if err != nil || v.IsUndefined() || v.IsNull() {
		return nil, err
	}
	n, err := Array(v, what+": "+name, max)
	if err != nil {
		return nil, err
	}
	out := make([]uint32, n)
	for i := range out {
		at := fmt.Sprintf("%s: %s[%d]", what, name, i)
		e, err := Get(v, at, i)
		if err != nil {
			return nil, err
		}
		if t := TypeName(e); t != "number" {
			return nil, fmt.Errorf("%s must be a number, got %s", at, t)
		}
		if out[i], err = api.Uint32(at, e.Float()); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// Items reads publish's items: an array of at most max objects (a
// batch can never exceed the ring, so a longer one is refused before
// anything is allocated), each read field by field through RawGet. The
// loop formats nothing unless an item is refused: a batch of 32,768 items
// makes about 300,000 reads.
func Items(v js.Value, max int) ([]host.Item, error) {
	const shape = "{opcode, tenant, priority, args}"
	if !IsArray(v) {
		return nil, fmt.Errorf("publish: items must be an array of %s, got %s", shape, Describe(v))
	}
	n, err := Array(v, "publish: items", max)
	if err != nil {
		return nil, fmt.Errorf("%w (the ring holds %d slots)", err, max)
	}
	items := make([]host.Item, n)
	var args [maxItemArgs]float64
	for i := range items {
		e, err := RawGet(v, i)
		if err != nil {
			return nil, readError(fmt.Sprintf("publish: item %d", i), err)
		}
		if !IsObjectType(e) { // an array item reads as one with no opcode
			return nil, fmt.Errorf("publish: item %d must be an object %s, got %s", i, shape, Describe(e))
		}
		var raw api.RawItem
		present := 0 // of the item's keys, the ones it has
		for k, dst := range [...]*float64{&raw.Opcode, &raw.Tenant, &raw.Priority} {
			f, err := RawGet(e, itemKeys[k])
			if err != nil {
				return nil, readError(fmt.Sprintf("publish: item %d: %s", i, itemNames[k]), err)
			}
			switch t := TypeName(f); t {
			case "number":
				*dst = f.Float()
				present++
			case "undefined":
				if k == 0 {
					return nil, fmt.Errorf("publish: item %d: opcode is missing", i)
				}
			default:
				return nil, fmt.Errorf("publish: item %d: %s must be a number, got %s", i, itemNames[k], t)
			}
		}
		if raw.Args, err = itemArgs(e, i, args[:0]); err != nil {
			return nil, err
		}
		if raw.Args != nil {
			present++
		}
		// A key missing may be a key misspelt ("tenat"): refused by name,
		// not published as its default. Only then are the keys listed,
		// so a batch of whole items costs no more JS calls.
		if present < len(itemKeys) {
			if err := checkItemKeys(e, i, present); err != nil {
				return nil, err
			}
		}
		it, err := api.Item(i, raw)
		if err != nil {
			return nil, err
		}
		items[i] = it
	}
	return items, nil
}

// The item fields Items reads, as JS strings made once.
var (
	itemNames = [...]string{"opcode", "tenant", "priority", "args"}
	itemKeys  = [...]js.Value{js.ValueOf("opcode"), js.ValueOf("tenant"), js.ValueOf("priority"), js.ValueOf("args")}
	keyLength = js.ValueOf("length")
)

// checkItemKeys refuses item i, e, when it has more own keys than the
// present item keys it read: one of them is not an item key.
func checkItemKeys(e js.Value, i, present int) error {
	var n int
	if err := Catch(func() { n = jsObjectKeys.Invoke(e).Length() }); err != nil {
		return readError(fmt.Sprintf("publish: item %d", i), err)
	}
	if n <= present {
		return nil
	}
	return Known(e, &api.ItemKeys, fmt.Sprintf("publish: item %d", i))
}

// maxItemArgs bounds an item's args before they are read: more than a
// slot holds (abi.SlotArgs), so api.Item's message says the limit.
const maxItemArgs = 64

// itemArgs reads item i's args into dst: absent, or an array of at most
// maxItemArgs numbers.
func itemArgs(e js.Value, i int, dst []float64) ([]float64, error) {
	what := func() string { return fmt.Sprintf("publish: item %d: args", i) }
	args, err := RawGet(e, itemKeys[3])
	if err != nil {
		return nil, readError(what(), err)
	}
	if args.IsUndefined() || args.IsNull() {
		return nil, nil
	}
	if !IsArray(args) {
		return nil, fmt.Errorf("%s must be an array of numbers, got %s", what(), Describe(args))
	}
	l, err := RawGet(args, keyLength)
	if err != nil {
		return nil, readError(what()+".length", err)
	}
	if TypeName(l) != "number" || l.Float() < 0 || l.Float() > maxItemArgs || l.Float() != float64(int(l.Float())) {
		return nil, fmt.Errorf("%s has %s elements, more than the %d it may have", what(), Text(l), maxItemArgs)
	}
	for j := range l.Int() {
		x, err := RawGet(args, j)
		if err != nil {
			return nil, readError(fmt.Sprintf("%s[%d]", what(), j), err)
		}
		if t := TypeName(x); t != "number" {
			return nil, fmt.Errorf("%s[%d] must be a number, got %s", what(), j, t)
		}
		dst = append(dst, x.Float())
	}
	return dst, nil
}
