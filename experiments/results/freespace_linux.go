package results

import "golang.org/x/sys/unix"

// blockSize is the unit of st's block counts: the fragment size, on Linux.
func blockSize(st *unix.Statfs_t) int64 {
	if st.Frsize > 0 {
		return int64(st.Frsize)
	}
	return int64(st.Bsize)
}
