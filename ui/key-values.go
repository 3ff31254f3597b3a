package ui

// KV is one labelled number: Title says what it means and its unit (shown
// as the row's tooltip), TestID is its data-testid (empty for none) and
// Class an optional extra class of the value (num-bad, num-warn, num-ok).
type KV struct {
	_ noCompare

	Label, Value, Title, TestID, Class string
}

// KeyValues renders a dense two-column list of labelled values.
type KeyValues struct {
	Items []KV
}

// dash is what a value reads when there is nothing to show yet.
const dash = "–"

// noCompare, as a struct's first field, makes the struct not comparable
// with ==: the compiler then writes no equality function for it nor for
// each array length of it that a literal allocates (KV alone had eight),
// which only bloated main.wasm since these view rows are never compared.
// Being first and of size zero, it changes neither layout nor size.
type noCompare [0]func()
