//go:build !amd64 && !arm64

package prefetch

import "unsafe"

// Line does nothing where no prefetch instruction is wired up.
func Line(p unsafe.Pointer) {}

// Lines does nothing where no prefetch instruction is wired up.
func Lines(p unsafe.Pointer, n int) {}
