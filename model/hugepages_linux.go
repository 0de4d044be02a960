package model

import (
	"os"
	"slices"
	"strings"
	"syscall"
	"unsafe"
)

// adviseHugePages asks the kernel to back the whole 2 MB pages within the
// n bytes at p with huge pages, where transparent huge pages are on for
// memory that asks (the usual setting): a large fabric's hot arrays are
// read at random, and a TLB entry then covers 2 MB instead of 4 KB. Memory
// fresh from the system gets them at its first touch; memory Go recycles
// is as it was. It is a hint, and changes no result. GODEBUG=disablethp=1,
// the Go runtime's own switch against huge pages, turns it off.
func adviseHugePages(p unsafe.Pointer, n uintptr) {
	const huge = 2 << 20
	beg := (uintptr(p) + huge - 1) &^ (huge - 1)
	end := (uintptr(p) + n) &^ (huge - 1)
	if end > beg && !hugePagesDisabled(os.Getenv("GODEBUG")) {
		_ = syscall.Madvise(unsafe.Slice((*byte)(unsafe.Add(p, beg-uintptr(p))), end-beg), syscall.MADV_HUGEPAGE)
	}
}

// hugePagesDisabled says whether a GODEBUG setting turns huge pages off.
func hugePagesDisabled(godebug string) bool {
	return slices.Contains(strings.Split(godebug, ","), "disablethp=1")
}
