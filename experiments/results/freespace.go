package results

import "golang.org/x/sys/unix"

// freeSpace is the room left to this user on the disk that holds dir, and
// the size of the blocks it is counted in.
func freeSpace(dir string) (free, block int64, err error) {
	if testHookFreeSpace != nil {
		free, err = testHookFreeSpace()
		return free, 1, err
	}
	var st unix.Statfs_t
	if err := unix.Statfs(dir, &st); err != nil {
		return 0, 0, err
	}
	block = max(blockSize(&st), 1)
	return int64(st.Bavail) * block, block, nil
}

// onDisk is the room a file of size bytes takes on a disk of block-sized
// blocks, one more for its index: an upper bound.
func onDisk(size, block int64) int64 {
	return (size+block-1)/block*block + block
}

// testHookFreeSpace, set by the tests only, stands for the disk's free
// space: the suite's full disks are fakes, on a disk with room.
var testHookFreeSpace func() (int64, error)
