// Package tasktrace decodes the task trace of a traced drain
// (docs/TRACE.md): the trace buffer's header and records, one per claimed
// slot, each with the start and end tickets of one device-wide logical
// clock, in either layout (the drain's packed one, or the record layout of
// attach hosts and capture files); it maps tickets onto a drain pass's timestamp-query interval and
// finds the idle gaps ("bubbles") of each workgroup.
//
// Like package decode, it never panics on bad bytes: a buffer of the wrong
// shape is a *decode.DecodeError naming the trace buffer, where and why.
package tasktrace
