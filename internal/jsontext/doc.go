// Package jsontext writes and reads the JSON of ringscope's own formats
// (the capture file's header and frame meta, the trace export, the
// renderer's event summaries) without encoding/json, whose reflection,
// sorting and time code were the largest part of the page's gzipped wasm
// that its size budget could drop (bench/results-render.md, the "no
// encoding/json at all" row; issue 21). Each format's Go code
// writes and reads its fields by hand; this package holds what they
// share.
//
// Writing: a Writer appends one JSON text to a byte slice. Strings are
// escaped as encoding/json escapes them (HTML-safe: <, > and & as \u003c
// …, U+2028 and U+2029 escaped, invalid UTF-8 as U+FFFD) and numbers are
// formatted as it formats them, so that a struct written by hand is byte
// for byte what json.Marshal wrote for it: files and exports keep their
// exact wire form across the change. NaN and the infinities have no JSON
// form; writing one is an error.
//
// Reading: Parse checks one JSON text (RFC 8259) and returns its Value
// tree. It accepts what json.Valid accepts, except text nested more than
// MaxDepth deep, and never panics (FuzzParse). Its errors are a
// *SyntaxError with the byte offset of the problem, or io.ErrUnexpectedEOF
// for text that ends inside a value, or ErrTrailing for data after the
// value. As in encoding/json, invalid UTF-8 in a string and an unpaired
// surrogate escape read as U+FFFD, and the last of duplicate keys wins.
//
// Fields reads an object's members into Go values, naming the member in
// its errors ("dispatch.topology: …"): a wrong type or an out-of-range
// number is an error, an unknown member is ignored (a later version of a
// format may add some), an absent member or null leaves the destination
// as it is. Unlike encoding/json, keys match exactly, not case-folded:
// every schema here is written by this code with exact names.
package jsontext
