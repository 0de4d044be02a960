//go:build !linux

package model

// adviseHeap is a no-op where the kernel takes no such advice.
func adviseHeap(built bool) error { return nil }
