//go:build js && wasm

package jsapi

import (
	"fmt"
	"syscall/js"

	"github.com/ringscope/ringscope/wasm/api"
)

var jsObjectKeys = jsObject.Get("keys")

// Known checks an optional options object against its table: undefined,
// null or an object whose own enumerable keys are all t's. where names
// the object when it is not t's own ("open: opcodes[2]"); "" is t.Where.
// A key outside the table is refused by name, with the nearest key the
// table has (api.OptionTable.CheckKeys): a misspelt option must not
// silently become its default.
func Known(o js.Value, t *api.OptionTable, where string) error {
	if where == "" {
		where = t.Where
	}
	if o.IsUndefined() || o.IsNull() {
		return nil
	}
	if err := Options(o, where); err != nil {
		return err
	}
	var keys js.Value
	if err := Catch(func() { keys = jsObjectKeys.Invoke(o) }); err != nil {
		return readError(where+": options", err) // Object.keys ran a Proxy's trap
	}
	// Object.keys returns a real Array, whose length and elements read
	// without running the caller's code.
	n := keys.Length()
	if n > api.MaxOptionKeys {
		return fmt.Errorf("%s: options have %d keys, more than the %d it may have", where, n, api.MaxOptionKeys)
	}
	names := make([]string, n)
	for i := range names {
		names[i] = keys.Index(i).String()
	}
	return t.CheckKeys(where, names)
}
