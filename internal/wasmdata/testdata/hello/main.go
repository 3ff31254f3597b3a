// A small program whose js/wasm build gives the tests real Go linker
// output: strings, a map and formatting put data in many segments.
package main

import "fmt"

var table = map[string]int{"alpha": 1, "beta": 2, "gamma": 3}

func main() {
	for k, v := range table {
		fmt.Printf("%s=%d\n", k, v)
	}
}
