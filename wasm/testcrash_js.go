//go:build js && wasm

package main

import (
	"syscall/js"

	"github.com/ringscope/ringscope/wasm/jsarg"
)

// testCrash is ringscope.__test.crash(message): a panic on a goroutine of
// its own, which nothing recovers, so the Go program exits as it would on
// a bug outside the API (the live loop, the renderer). The e2e tests use
// it to check what the page says then (static/guard.js). It never returns.
func testCrash(args []js.Value) (any, error) {
	msg := "injected"
	if s, err := jsarg.String(jsarg.Arg(args, 0), "", jsarg.MaxName); err == nil {
		msg = s
	}
	done := make(chan struct{})
	go func() { panic("ringscope.__test.crash: " + msg) }()
	<-done
	return nil, nil
}
