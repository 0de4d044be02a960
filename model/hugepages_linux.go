package model

import (
	"syscall"
	"unsafe"
)

// adviseHugePages asks the kernel to back the whole 2 MB pages within the
// n bytes at p with huge pages, where transparent huge pages are on for
// memory that asks (the usual setting): a large fabric's hot arrays are
// read at random, and a TLB entry then covers 2 MB instead of 4 KB. Only
// memory not yet touched is backed so; it is a hint, and changes no
// result.
func adviseHugePages(p unsafe.Pointer, n uintptr) {
	const huge = 2 << 20
	beg := (uintptr(p) + huge - 1) &^ (huge - 1)
	end := (uintptr(p) + n) &^ (huge - 1)
	if end > beg {
		_ = syscall.Madvise(unsafe.Slice((*byte)(unsafe.Add(p, beg-uintptr(p))), end-beg), syscall.MADV_HUGEPAGE)
	}
}
