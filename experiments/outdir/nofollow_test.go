package outdir

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// journalLine is a journal entry naming rel with the inode, size and time
// of the file or folder at target: what a journal that still proves rel
// qcnlab's looks like.
func journalLine(t *testing.T, rel, kind, target string) string {
	t.Helper()
	info, err := os.Lstat(target)
	if err != nil {
		t.Fatal(err)
	}
	e := entry{Path: rel, Kind: kind, Ino: inode(info)}
	if kind == "file" {
		e.Size, e.MTime = info.Size(), info.ModTime().UnixNano()
	}
	line, _ := json.Marshal(e)
	return string(line)
}

// A symbolic link inside the directory to a folder inside it (plots ->
// mine: the user kept the figures under another name) is not followed when
// an earlier batch's files are removed, even though it stays inside the
// directory. The journal proves plots/fig.png qcnlab's through the link
// (the user's mine/fig.png has its inode, size and time); a batch that
// writes no figure must still leave it, and the link.
func TestEarlierFileNotRemovedThroughALinkInside(t *testing.T) {
	out := filepath.Join(t.TempDir(), "out")
	victim := filepath.Join(out, "mine", "fig.png")
	write(t, victim, "the user's figure")
	if err := os.Symlink("mine", filepath.Join(out, "plots")); err != nil {
		t.Fatal(err)
	}
	plantJournal(t, out,
		journalLine(t, "plots/fig.png", "file", victim),
		journalLine(t, "plots", "dir", filepath.Join(out, "mine")))

	d := mustOpen(t, out)
	if err := d.WriteFile("summary.json", []byte("{}")); err != nil {
		t.Fatal(err)
	}
	if err := d.Finish(); err != nil {
		t.Fatal(err)
	}
	if !exists(victim) {
		t.Error("mine/fig.png, reached through the link plots -> mine, was removed")
	}
	if info, err := os.Lstat(filepath.Join(out, "plots")); err != nil || info.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link plots -> mine was removed or replaced: %v", err)
	}
}

// The same through a folder of an earlier batch that was an output
// directory of its own (reproduce's runs/NN), with runs -> keep: neither
// its files nor its journal nor the folder go.
func TestEarlierSubDirectoryNotBegunThroughALinkInside(t *testing.T) {
	out := filepath.Join(t.TempDir(), "out")
	d := mustOpen(t, out)
	sub, err := d.Sub("runs/01-a")
	if err != nil {
		t.Fatal(err)
	}
	if err := sub.WriteFile("summary.json", []byte("a")); err != nil {
		t.Fatal(err)
	}
	sub.Finish()
	d.WriteFile("report.md", nil)
	d.Finish()
	if err := os.Rename(filepath.Join(out, "runs"), filepath.Join(out, "keep")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("keep", filepath.Join(out, "runs")); err != nil {
		t.Fatal(err)
	}

	d = mustOpen(t, out)
	if err := d.Begin(); err != nil {
		t.Fatal(err)
	}
	if err := d.Finish(); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"keep/01-a/summary.json", "keep/01-a/" + JournalName, "runs"} {
		if !exists(filepath.Join(out, f)) {
			t.Errorf("%s, reached through the link runs -> keep, was removed", f)
		}
	}
	if exists(filepath.Join(out, "report.md")) {
		t.Error("the earlier batch's report.md, in a real folder, was kept")
	}
}

// A planted journal whose entries leave the directory (.., an absolute
// path, a path through ..) removes nothing, even with the inode, size and
// time of the file it names, at Open, Begin or Finish; nor does one in a
// folder that was an output directory of its own.
func TestPlantedJournalOutsideTheDirectoryDeletesNothing(t *testing.T) {
	top := t.TempDir()
	out := filepath.Join(top, "out")
	victims := []string{filepath.Join(top, "victim", "summary.json"), filepath.Join(top, "victim", "plots", "fig.png")}
	for _, v := range victims {
		write(t, v, "the user's")
	}
	var lines []string
	for _, v := range victims {
		rel, _ := filepath.Rel(out, v)
		for _, p := range []string{rel, v, "plots/../" + rel, "./" + rel} {
			lines = append(lines, journalLine(t, filepath.ToSlash(p), "file", v))
		}
	}
	for _, p := range []string{"../victim/plots", filepath.Join(top, "victim", "plots")} {
		lines = append(lines, journalLine(t, filepath.ToSlash(p), "dir", filepath.Join(top, "victim", "plots")))
	}
	plantJournal(t, out, lines...)
	// A folder of its own, runs/01-a, whose journal names ../../victim.
	write(t, filepath.Join(out, "runs", "01-a", JournalName),
		journalLine(t, "../../../victim/summary.json", "file", victims[0])+"\n"+
			journalLine(t, victims[0], "file", victims[0])+"\n")
	f, err := os.OpenFile(filepath.Join(out, JournalName), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprintln(f, journalLine(t, "runs", "dir", filepath.Join(out, "runs")))
	fmt.Fprintln(f, journalLine(t, "runs/01-a", "dir", filepath.Join(out, "runs", "01-a")))
	f.Close()

	d := mustOpen(t, out)
	if err := d.Begin(); err != nil {
		t.Fatal(err)
	}
	if err := d.WriteFile("summary.json", []byte("{}")); err != nil {
		t.Fatal(err)
	}
	if err := d.Finish(); err != nil {
		t.Fatal(err)
	}
	for _, v := range victims {
		if !exists(v) {
			t.Errorf("%s, outside the directory, was removed by a planted journal", v)
		}
	}
}
