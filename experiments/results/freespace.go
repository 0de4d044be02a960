package results

import "golang.org/x/sys/unix"

// freeSpace is the room left to this user on the disk that holds dir.
func freeSpace(dir string) (int64, error) {
	if testHookFreeSpace != nil {
		return testHookFreeSpace()
	}
	var st unix.Statfs_t
	if err := unix.Statfs(dir, &st); err != nil {
		return 0, err
	}
	return int64(st.Bavail) * int64(st.Bsize), nil
}

// testHookFreeSpace, set by the tests only, stands for the disk's free
// space: the suite's full disks are fakes, on a disk with room.
var testHookFreeSpace func() (int64, error)
