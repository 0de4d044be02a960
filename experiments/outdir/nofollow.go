package outdir

import (
	"errors"
	"io/fs"
	"path"
	"strings"

	"golang.org/x/sys/unix"
)

// os.Root stops a symbolic link only when it leaves the root: a link
// inside the directory to a folder inside it (plots -> mine) is followed.
// Whatever qcnlab removes, renames or creates in the directory is reached
// instead through folders opened one name at a time with O_NOFOLLOW, and
// acted on relative to the last of them (unlinkat, renameat, openat). A
// link anywhere on the way, even one put in a folder's place a moment
// before, fails the open rather than being followed. What remains is the
// last name itself: between its check (fstatat) and its removal another
// process could put another file there, and unlinkat would remove that
// name (never following it); the kernel has no "remove if still this
// inode".

// folder is a folder of the directory opened without following a link.
type folder int

const folderFlags = unix.O_RDONLY | unix.O_DIRECTORY | unix.O_NOFOLLOW | unix.O_CLOEXEC

// open opens the folder rel below f ("." is f itself), one name at a time.
func (f folder) open(rel string) (folder, error) {
	fd, err := unix.Openat(int(f), ".", folderFlags, 0)
	if err != nil || rel == "." || rel == "" {
		return folder(fd), err
	}
	for name := range strings.SplitSeq(rel, "/") {
		next, err := unix.Openat(fd, name, folderFlags, 0)
		unix.Close(fd)
		if err != nil {
			return -1, err
		}
		fd = next
	}
	return folder(fd), nil
}

// parent opens the folder that holds rel and returns it with rel's last
// name.
func (f folder) parent(rel string) (folder, string, error) {
	p, err := f.open(path.Dir(rel))
	return p, path.Base(rel), err
}

func (f folder) close() { unix.Close(int(f)) }

// lstat describes name, a name in f, without following it.
func (f folder) lstat(name string) (unix.Stat_t, error) {
	var st unix.Stat_t
	err := unix.Fstatat(int(f), name, &st, unix.AT_SYMLINK_NOFOLLOW)
	return st, err
}

// stat describes f itself.
func (f folder) stat() (unix.Stat_t, error) {
	var st unix.Stat_t
	err := unix.Fstat(int(f), &st)
	return st, err
}

// top is the directory itself, open (and locked) for as long as d is: not
// to be closed.
func (d *Dir) top() folder { return folder(d.self.Fd()) }

// lstat describes rel without following a link at it or on its way.
func (d *Dir) lstat(rel string) (unix.Stat_t, error) {
	p, base, err := d.top().parent(rel)
	if err != nil {
		return unix.Stat_t{}, err
	}
	defer p.close()
	return p.lstat(base)
}

// removeIf removes rel if what is there passes ok (a folder only if
// empty: rmdir, which refuses a link too). found is false when rel, or a
// folder on its way, is not there, is a link or does not pass ok: nothing
// was removed and it is not qcnlab's to remove. err is a failed removal of
// what passed.
func (d *Dir) removeIf(rel string, dir bool, ok func(*unix.Stat_t) bool) (found bool, err error) {
	p, base, err := d.top().parent(rel)
	if err != nil {
		return false, nil
	}
	defer p.close()
	st, err := p.lstat(base)
	if err != nil || !ok(&st) {
		return false, nil
	}
	flags := 0
	if dir {
		flags = unix.AT_REMOVEDIR
	}
	if err := unix.Unlinkat(int(p), base, flags); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return true, err
	}
	return true, nil
}

func isRegular(st *unix.Stat_t) bool { return st.Mode&unix.S_IFMT == unix.S_IFREG }
func isDir(st *unix.Stat_t) bool     { return st.Mode&unix.S_IFMT == unix.S_IFDIR }

// lonely reports a regular file with no other hard link: a temporary of
// qcnlab's, not a name of a user's file.
func lonely(st *unix.Stat_t) bool { return isRegular(st) && st.Nlink == 1 }

// sameFile reports whether st is still the regular file e records: its
// inode (if recorded), size and modification time.
func sameFile(e entry) func(*unix.Stat_t) bool {
	return func(st *unix.Stat_t) bool {
		return isRegular(st) && st.Size == e.Size && st.Mtim.Nano() == e.MTime && (e.Ino == 0 || st.Ino == e.Ino)
	}
}

// sameFolder reports whether st is still the folder e records.
func sameFolder(e entry) func(*unix.Stat_t) bool {
	return func(st *unix.Stat_t) bool { return isDir(st) && e.Ino != 0 && st.Ino == e.Ino }
}

// fileMode is the type of st as fs.FileMode has it, for messages.
func fileMode(st *unix.Stat_t) fs.FileMode {
	switch st.Mode & unix.S_IFMT {
	case unix.S_IFLNK:
		return fs.ModeSymlink
	case unix.S_IFDIR:
		return fs.ModeDir
	case unix.S_IFIFO:
		return fs.ModeNamedPipe
	case unix.S_IFCHR:
		return fs.ModeDevice | fs.ModeCharDevice
	case unix.S_IFBLK:
		return fs.ModeDevice
	case unix.S_IFSOCK:
		return fs.ModeSocket
	}
	return 0
}
