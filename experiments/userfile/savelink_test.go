package userfile

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A save onto a symbolic link that leads nowhere is refused: it replaced
// the link with a file (and writing through it would create a file where
// the link points). The link stays, and nothing is created.
func TestSaveRefusesADanglingLink(t *testing.T) {
	dir := t.TempDir()
	link := filepath.Join(dir, "gone.toml")
	if err := os.Symlink("missing/target.toml", link); err != nil {
		t.Fatal(err)
	}
	loop := filepath.Join(dir, "loop.toml")
	if err := os.Symlink("loop.toml", loop); err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]string{
		link: "save " + link + ": is a link to missing/target.toml, which does not exist",
		loop: "save " + loop + ": is a link to loop.toml, which cannot be followed",
	} {
		err := WriteAtomic(path, []byte("x"))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("got %v, want %q", err, want)
		}
		if info, err := os.Lstat(path); err != nil || info.Mode()&os.ModeSymlink == 0 {
			t.Errorf("%s was replaced", path)
		}
	}
	if _, err := os.Lstat(filepath.Join(dir, "missing")); err == nil {
		t.Error("a file was created through the link")
	}
	if names, _ := filepath.Glob(filepath.Join(dir, ".*.tmp")); len(names) > 0 {
		t.Errorf("left %v", names)
	}
}
