//go:build unix

package main

import "syscall"

// openNonblock makes opening a FIFO return at once instead of waiting for
// a writer (handler.open); regular files ignore it.
const openNonblock = syscall.O_NONBLOCK
