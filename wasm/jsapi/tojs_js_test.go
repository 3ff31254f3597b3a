//go:build js && wasm

package jsapi

import (
	"syscall/js"
	"testing"

	"github.com/stretchr/testify/assert"
)

// ToJS sets an object's keys in one order every time: a snapshot of a
// paused frame stringifies the same on every read.
func TestToJSKeysInOneOrder(t *testing.T) {
	v := map[string]any{"opcode": 1.0, "name": "STORE_U32", "tenant": 3.0, "evidence": map[string]any{"z": 1.0, "a": []any{"x", 2.0}}}
	stringify := js.Global().Get("JSON").Get("stringify")
	want := `{"evidence":{"a":["x",2],"z":1},"name":"STORE_U32","opcode":1,"tenant":3}`
	for range 20 {
		assert.Equal(t, want, stringify.Invoke(ToJS(v)).String())
	}
	assert.Equal(t, `[1,null,true]`, stringify.Invoke(ToJS([]any{1.0, nil, true})).String())
}
