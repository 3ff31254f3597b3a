//go:build js && wasm

// Package jsarg reads what JavaScript callers pass to ringscope's API into
// Go values, whatever they pass: a BigInt, a Proxy whose traps throw, an
// object with a throwing getter, an array of 2^30 holes. Every read goes
// through Reflect.get or Reflect.apply called with Invoke (which
// wasm_exec wraps in try/catch), types come from TypeName (js.Value.Type
// panics on a BigInt), and lengths and byte sizes are checked before
// anything is allocated or copied. Errors name the argument and say why,
// in the words a JS caller uses ("open: slots must be a number, got
// bigint").
package jsarg
