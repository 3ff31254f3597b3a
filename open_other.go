//go:build !unix

package main

// openNonblock is 0 where the system has no O_NONBLOCK; handler.open's
// Stat before the open still keeps FIFOs and devices out.
const openNonblock = 0
