// Command wgslmin writes the stripped copies of WGSL files that package
// wgsl embeds (package wgsl/internal/wgslmin says why). It runs from
// package wgsl through go generate:
//
//	//go:generate go run ./internal/cmd/wgslmin -o min abi_gen.wgsl megakernel.wgsl …
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/ringscope/ringscope/wgsl/internal/wgslmin"
)

func main() {
	out := flag.String("o", "min", "output directory")
	flag.Parse()
	if err := os.MkdirAll(*out, 0o755); err != nil {
		fail(err)
	}
	for _, name := range flag.Args() {
		src, err := os.ReadFile(name)
		if err != nil {
			fail(err)
		}
		min, err := wgslmin.File(filepath.Base(name), string(src))
		if err != nil {
			fail(err)
		}
		if err := os.WriteFile(filepath.Join(*out, filepath.Base(name)), []byte(min), 0o644); err != nil {
			fail(err)
		}
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, err)
	os.Exit(1)
}
