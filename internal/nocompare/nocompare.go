// Package nocompare holds T, a zero-size field that makes a struct not
// comparable with ==.
//
// It exists for the wasm build's size. The compiler writes an equality
// function for every comparable struct whose type the program keeps (one
// converted to an interface, kept in a slice a literal allocates, ...),
// and another for each array length of it: a few hundred bytes each,
// tens of kilobytes over the page (bench/results-size.md, "nocompare").
// A data struct that is never compared loses them with `_ nocompare.T`
// as its first field, which changes neither its layout nor its size; the
// compiler then refuses any == on it, so none can be added by mistake.
//
// Never put it in an error type or in any value that may be compared
// inside an interface (errors.Is, a map key of type any): comparing two
// interfaces that hold one panics at run time.
package nocompare

// T, as a struct's first field, makes the struct not comparable.
type T [0]func()
