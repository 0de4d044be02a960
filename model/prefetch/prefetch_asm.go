//go:build amd64 || arm64

package prefetch

import "unsafe"

// Line asks for the cache line holding p into every level of the caches.
// Go has no intrinsic for it outside its runtime: this is a call of four
// instructions, worth it only where what it asks for would miss.
//
//go:noescape
func Line(p unsafe.Pointer)

// Lines asks for n cache lines from the one holding p on, in one call:
// a call costs more than the prefetches it makes.
//
//go:noescape
func Lines(p unsafe.Pointer, n int)
