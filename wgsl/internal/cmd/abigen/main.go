// Command abigen writes abi_gen.wgsl, the WGSL twin of package wgsl/abi.
// It runs from package wgsl through go generate:
//
//	//go:generate go run ./internal/cmd/abigen -abi abi -o abi_gen.wgsl
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/ringscope/ringscope/wgsl/internal/abigen"
)

func main() {
	abiDir := flag.String("abi", "abi", "directory of the Go abi package")
	out := flag.String("o", "abi_gen.wgsl", "output file")
	only := flag.String("only", "", "write only this file's constants (one of abigen.Split); otherwise all the others")
	flag.Parse()
	if err := abigen.WriteFile(*abiDir, *out, *only); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
