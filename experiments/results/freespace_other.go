//go:build !linux

package results

import "golang.org/x/sys/unix"

// blockSize is the unit of st's block counts.
func blockSize(st *unix.Statfs_t) int64 { return int64(st.Bsize) }
