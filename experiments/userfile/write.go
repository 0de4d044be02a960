package userfile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// CheckSaveTarget reports whether path can be saved to, before anything is
// written or asked: only a regular file, or a new file in a folder that
// exists. A directory, a FIFO, a device or a socket is never replaced by a
// file (as root, saving onto /dev/null must not replace it). A symbolic
// link that leads nowhere is refused too: replacing it would lose the
// link, and writing through it would create a file where the link points,
// which the one saving may not have looked at.
func CheckSaveTarget(path string) error {
	info, err := os.Stat(path)
	if err == nil && !info.Mode().IsRegular() {
		return &fs.PathError{Op: "save", Path: path, Err: errors.New("is " + fileKind(info.Mode()) + ", not a regular file")}
	}
	if li, lerr := os.Lstat(path); err != nil && lerr == nil && li.Mode()&fs.ModeSymlink != 0 {
		dest, _ := os.Readlink(path)
		why := "which does not exist"
		if !errors.Is(err, fs.ErrNotExist) {
			why = "which cannot be followed"
		}
		return &fs.PathError{Op: "save", Path: path, Err: fmt.Errorf("is a link to %s, %s: save to that path itself, or remove the link", dest, why)}
	}
	dir := filepath.Dir(path)
	if info, err := os.Stat(dir); err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return &fs.PathError{Op: "save", Path: path, Err: fmt.Errorf("folder %s: %w", dir, err)}
	} else if !info.IsDir() {
		return &fs.PathError{Op: "save", Path: path, Err: fmt.Errorf("%s is not a folder", dir)}
	}
	return nil
}

// fileKind names what a file that is not a regular file is.
func fileKind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO"
	case m&fs.ModeCharDevice != 0, m&fs.ModeDevice != 0:
		return "a device"
	case m&fs.ModeSocket != 0:
		return "a socket"
	}
	return "not a regular file"
}

// WriteAtomic writes data to path through a temporary file and a rename.
// A path that is a symbolic link to a file is written where the link points,
// as editors do, so the link stays. Its errors name path, not the temporary
// file.
func WriteAtomic(path string, data []byte) (err error) {
	if err := CheckSaveTarget(path); err != nil {
		return err
	}
	if target, err := filepath.EvalSymlinks(path); err == nil {
		path = target
	}
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	defer func() {
		var pe *fs.PathError
		var le *os.LinkError
		switch {
		case errors.As(err, &pe):
			err = &fs.PathError{Op: "save", Path: path, Err: pe.Err}
		case errors.As(err, &le):
			err = &fs.PathError{Op: "save", Path: path, Err: le.Err}
		}
	}()
	tmp, err := os.CreateTemp(dir, "."+base+".*.tmp")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if _, err = tmp.Write(data); err != nil {
		return err
	}
	if err = tmp.Sync(); err != nil {
		return err
	}
	if err = tmp.Close(); err != nil {
		return err
	}
	if info, statErr := os.Stat(path); statErr == nil {
		os.Chmod(tmp.Name(), info.Mode().Perm()) // keep the mode of the file it replaces
	} else {
		os.Chmod(tmp.Name(), 0o644)
	}
	return os.Rename(tmp.Name(), path)
}
