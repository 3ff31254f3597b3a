// Command vgcompact rewrites vugugen's output (the *_gen.go files of the
// directory it is given, or of the current one) into calls of the helpers
// in ui/vgnodes.go: an element, a text node, an event handler and a child
// component each become one call instead of a composite literal, an
// attribute slice and AppendChild spelled out in place. Go in wasm pays for
// every call site and pointer store of a Build function (a resume point, a
// write barrier check), and the Build functions are the largest code of
// package ui. The tree built is the same: the helpers do what the replaced
// lines did. ui/gen.go runs it after vugugen.
package main
