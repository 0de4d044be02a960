//go:build !linux

package model

import "unsafe"

// adviseHugePages is a no-op where the kernel takes no such advice.
func adviseHugePages(p unsafe.Pointer, n uintptr) {}

// adviseHeap is a no-op where the kernel takes no such advice.
func adviseHeap() error { return nil }
