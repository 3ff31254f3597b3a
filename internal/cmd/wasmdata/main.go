// Command wasmdata merges the data segments of a Go-built WebAssembly
// module in place, so that it gzips smaller (package internal/wasmdata).
//
//	go run ./internal/cmd/wasmdata static/main.wasm
package main

import (
	"fmt"
	"os"

	"github.com/ringscope/ringscope/internal/wasmdata"
)

// maxGap joins segments up to this many zero bytes apart; see
// bench/results-size.md for the sizes it was chosen by.
const maxGap = 512

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: wasmdata FILE.wasm")
		os.Exit(2)
	}
	if err := run(os.Args[1]); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

func run(path string) error {
	in, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	out, err := wasmdata.Merge(in, maxGap)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, out, 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}
