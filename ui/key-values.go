package ui

import "github.com/ringscope/ringscope/internal/nocompare"

// KV is one labelled number: Title says what it means and its unit (shown
// as the row's tooltip), TestID is its data-testid (empty for none) and
// Class an optional extra class of the value (num-bad, num-warn, num-ok).
type KV struct {
	_ nocompare.T

	Label, Value, Title, TestID, Class string
}

// KeyValues renders a dense two-column list of labelled values.
type KeyValues struct {
	Items []KV
}

// dash is what a value reads when there is nothing to show yet.
const dash = "–"
