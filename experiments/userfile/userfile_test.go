package userfile

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

func TestRead(t *testing.T) {
	dir := t.TempDir()
	small := filepath.Join(dir, "small.toml")
	big := filepath.Join(dir, "big.toml")
	os.WriteFile(small, []byte("name = \"x\"\n"), 0o644)
	os.WriteFile(big, make([]byte, 101), 0o644)
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip("no FIFO here:", err)
	}
	regular := Limit{Max: 100, What: "a test file"}
	streams := Limit{Max: 100, What: "a test file", Streams: true}
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	for _, c := range []struct {
		path string
		l    Limit
		ctx  context.Context
		want string // "" for the file's bytes
	}{
		{small, regular, context.Background(), ""},
		{small, streams, context.Background(), ""},
		{big, regular, context.Background(), "big.toml: is larger than 100B, the most a test file may be"},
		{big, streams, context.Background(), "is larger than"},
		{dir, regular, context.Background(), "not a regular file (a directory), which a test file must be"},
		{dir, streams, context.Background(), "is a directory, not a test file"},
		// Refused before it is opened: a FIFO without a writer would
		// block the open for ever.
		{fifo, regular, context.Background(), "fifo: not a regular file (a FIFO)"},
		{"/dev/zero", regular, context.Background(), "not a regular file (a device)"},
		{"/dev/zero", streams, context.Background(), "/dev/zero: is larger than 100B"},
		{small, regular, cancelled, context.Canceled.Error()},
		{"/dev/zero", streams, cancelled, context.Canceled.Error()},
		{filepath.Join(dir, "none"), regular, context.Background(), "no such file"},
	} {
		data, err := Read(c.ctx, c.path, c.l)
		if c.want == "" {
			if err != nil || string(data) != "name = \"x\"\n" {
				t.Errorf("%s: %q, %v", c.path, data, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s %+v: %v, want %q", c.path, c.l, err, c.want)
		}
		if c.ctx.Err() != nil && !errors.Is(err, context.Canceled) {
			t.Errorf("%s: %v is not context.Canceled", c.path, err)
		}
	}
}

// Open refuses a FIFO put where a regular file was, without blocking.
func TestOpenRefusesAFIFO(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "summary.json")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip("no FIFO here:", err)
	}
	if f, err := Open(fifo, "a shard's file"); err == nil {
		f.Close()
		t.Fatal("a FIFO opened")
	}
}
