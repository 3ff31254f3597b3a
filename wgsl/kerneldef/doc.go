// Package kerneldef is the kernel definition a person shares: a user
// kernel's opcodes and buffers (wgsl.Kernel), the ring it opens, and the
// workload it publishes, in the JSON that the page's Kernel panel loads
// from a file or a link and that ringscope.open reads (docs/OPCODES.md §4).
//
// A Workload describes its items as expressions of the item's index, so
// a definition of a million items is a few lines, and the Go side (not
// JS) makes the items: Workload.Items is the only place that turns a form
// into host.Items.
package kerneldef
