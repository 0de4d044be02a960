// Package userfile reads and writes the files a user names. It reads them
// (an experiment, a CDF of flow sizes, a shard's outputs) bounded in size,
// never blocked by what sits at the path, and stopped by a context; it
// saves one (an experiment) whole or not at all, never onto what is not a
// regular file. It is the one place those checks live, so that every user
// file gets all of them.
package userfile

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"syscall"

	"qcnlab/units"
)

// MaxText is the most a text file a user names may hold: an experiment
// (the built-ins are about 2 KB) or a CDF of flow sizes.
const MaxText = 1_000_000

// Limit says what a file may be.
type Limit struct {
	Max  int64  // the most bytes it may hold
	What string // what it is, in errors: "an experiment file"
	// Streams lets a pipe or a device be read as a stream, up to Max
	// (qcnlab run <(...)): opening a FIFO then waits for its writer, as
	// the shell's process substitution expects. Without it only a regular
	// file is read, and anything else is refused before it is opened.
	Streams bool
}

// Error is a file refused: its path and why.
type Error struct {
	Path string
	Msg  string
}

func (e *Error) Error() string { return e.Path + ": " + e.Msg }

// Read reads the file at path, at most l.Max bytes, stopping with ctx's
// error once ctx is cancelled. A regular file is read into one buffer of
// its size (io.ReadAll's doubling would take twice it).
func Read(ctx context.Context, path string, l Limit) ([]byte, error) {
	if !l.Streams {
		f, err := Open(path, l.What)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		return readRegular(ctx, f, path, l)
	}
	f, err := os.Open(path) // a FIFO's open waits for its writer, as <(...) needs
	if err != nil {
		return nil, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, err
	}
	switch {
	case info.IsDir():
		return nil, &Error{path, "is a directory, not " + l.What}
	case info.Mode().IsRegular():
		return readRegular(ctx, f, path, l)
	}
	data, err := io.ReadAll(io.LimitReader(contextReader{ctx, f}, l.Max+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if int64(len(data)) > l.Max {
		return nil, tooLarge(path, l)
	}
	return data, nil
}

// Open opens the regular file at path (or what a link there names) for
// reading, refusing anything else before it reads: a FIFO would block the
// open, and then every read, for ever.
func Open(path, what string) (*os.File, error) {
	if info, err := os.Stat(path); err != nil {
		return nil, err
	} else if !info.Mode().IsRegular() {
		return nil, notRegular(path, info.Mode(), what)
	}
	// O_NONBLOCK: a FIFO swapped in after the check opens at once, and is
	// refused below, instead of blocking the open.
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	if info, err := f.Stat(); err != nil {
		f.Close()
		return nil, err
	} else if !info.Mode().IsRegular() {
		f.Close()
		return nil, notRegular(path, info.Mode(), what)
	}
	return f, nil
}

func readRegular(ctx context.Context, f *os.File, path string, l Limit) ([]byte, error) {
	info, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if info.Size() > l.Max {
		return nil, tooLarge(path, l)
	}
	// A byte more than its size, to see a file that grew meanwhile.
	data := make([]byte, info.Size()+1)
	n, err := io.ReadFull(contextReader{ctx, f}, data)
	switch {
	case err == nil:
		return nil, &Error{path, "grew while it was read"}
	case !errors.Is(err, io.EOF) && !errors.Is(err, io.ErrUnexpectedEOF):
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return data[:n], nil
}

func notRegular(path string, mode fs.FileMode, what string) error {
	return &Error{path, fmt.Sprintf("not a regular file (%s), which %s must be", Kind(mode), what)}
}

func tooLarge(path string, l Limit) error {
	return &Error{path, fmt.Sprintf("is larger than %s, the most %s may be", units.FormatBytes(float64(l.Max)), l.What)}
}

// Kind names what a file of that mode is, for messages: "a file", "a
// FIFO".
func Kind(mode fs.FileMode) string {
	switch {
	case mode.IsRegular():
		return "a file"
	case mode.IsDir():
		return "a directory"
	case mode&fs.ModeSymlink != 0:
		return "a symbolic link"
	case mode&fs.ModeNamedPipe != 0:
		return "a FIFO"
	case mode&fs.ModeSocket != 0:
		return "a socket"
	case mode&fs.ModeDevice != 0:
		return "a device"
	}
	return mode.Type().String()
}

// contextReader is r that stops with ctx's error once ctx is cancelled.
type contextReader struct {
	ctx context.Context
	r   io.Reader
}

func (c contextReader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.r.Read(p[:min(len(p), 1<<20)]) // a cancellation is seen within a megabyte
}
