package outdir

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

func mustOpen(t *testing.T, dir string) *Dir {
	t.Helper()
	d, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func write(t *testing.T, path, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

func exists(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
}

func TestWriteThenStaleRemovedOnlyIfOurs(t *testing.T) {
	dir := t.TempDir()
	d := mustOpen(t, dir)
	for _, f := range []string{"summary.json", "plots/001-a.png", "plots/002-b.png", "plots/003-c.png"} {
		if err := d.WriteFile(f, []byte(f)); err != nil {
			t.Fatal(err)
		}
	}
	if err := d.Finish(); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(dir, "notes.txt"), "mine")
	write(t, filepath.Join(dir, "plots", "004-mine.png"), "mine")
	// The user edits one of qcnlab's figures: it is theirs now. The edit
	// keeps the size; its modification time tells it apart, set an hour
	// back rather than waited for.
	edited := filepath.Join(dir, "plots", "003-c.png")
	write(t, edited, "edited by user!")
	if err := os.Chtimes(edited, time.Now(), time.Now().Add(-time.Hour)); err != nil {
		t.Fatal(err)
	}

	d = mustOpen(t, dir)
	if err := d.WriteFile("summary.json", []byte("again")); err != nil {
		t.Fatal(err)
	}
	if err := d.Finish(); err != nil {
		t.Fatal(err)
	}
	for f, want := range map[string]bool{
		"summary.json": true, "plots/001-a.png": false, "plots/002-b.png": false,
		"plots/003-c.png": true, "plots/004-mine.png": true, "notes.txt": true,
	} {
		if got := exists(filepath.Join(dir, f)); got != want {
			t.Errorf("%s exists: %v, want %v", f, got, want)
		}
	}
	// plots holds the user's files: it stays.
	if !exists(filepath.Join(dir, "plots")) {
		t.Error("plots was removed with the user's files in it")
	}
}

func TestEmptyFolderOfOursRemoved(t *testing.T) {
	dir := t.TempDir()
	d := mustOpen(t, dir)
	if err := d.WriteFile("plots/001-a.png", nil); err != nil {
		t.Fatal(err)
	}
	d.Finish()
	d = mustOpen(t, dir)
	d.Finish()
	if exists(filepath.Join(dir, "plots")) {
		t.Error("the plots folder qcnlab made and emptied is still there")
	}
}

func TestSymlinkedFolderRefusedNotFollowed(t *testing.T) {
	base := t.TempDir()
	out, victim := filepath.Join(base, "out"), filepath.Join(base, "victim")
	write(t, filepath.Join(victim, "001-keep.png"), "victim")
	write(t, filepath.Join(victim, "sweep.png"), "victim")
	os.MkdirAll(out, 0o755)
	if err := os.Symlink("../victim", filepath.Join(out, "plots")); err != nil {
		t.Fatal(err)
	}
	// A journal planted to claim the victim's files through the link.
	write(t, filepath.Join(out, JournalName), `{"path":"plots/001-keep.png","kind":"file","size":6}
{"path":"plots","kind":"dir"}
{"path":"../victim/sweep.png","kind":"file","size":6}
`)
	d := mustOpen(t, out)
	err := d.WriteFile("plots/001-a.png", []byte("x"))
	if err == nil || !strings.Contains(err.Error(), "symbolic link") {
		t.Fatalf("writing through a symlinked folder: %v, want a refusal naming the link", err)
	}
	if _, err := d.Sub("plots/runs"); err == nil {
		t.Fatal("Sub through a symlinked folder was allowed")
	}
	d.Finish()
	for _, f := range []string{"victim/001-keep.png", "victim/sweep.png", "out/plots"} {
		if !exists(filepath.Join(base, f)) {
			t.Errorf("%s was removed", f)
		}
	}
	if exists(filepath.Join(victim, "001-a.png")) {
		t.Error("a file was written through the link")
	}
}

func TestSymlinkTargetRefused(t *testing.T) {
	base := t.TempDir()
	out := filepath.Join(base, "out")
	write(t, filepath.Join(base, "victim.json"), "victim")
	os.MkdirAll(out, 0o755)
	os.Symlink("../victim.json", filepath.Join(out, "summary.json"))
	d := mustOpen(t, out)
	defer d.Close()
	if err := d.WriteFile("summary.json", []byte("x")); err == nil || !strings.Contains(err.Error(), "symbolic link") {
		t.Fatalf("replacing a symlink: %v", err)
	}
	if data, _ := os.ReadFile(filepath.Join(base, "victim.json")); string(data) != "victim" {
		t.Error("the link's target changed")
	}
}

func TestUserFilesWithOurNamesKept(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "plots"), "a regular file named plots")
	write(t, filepath.Join(dir, ".parts-mybackup", "data"), "backup")
	os.MkdirAll(filepath.Join(dir, "figs", "001-album.png"), 0o755)
	write(t, filepath.Join(dir, "figs", "001-album.png", "photo"), "photo")
	write(t, filepath.Join(dir, ".timeseries-1.csv"), "mine")
	d := mustOpen(t, dir)
	if err := d.WriteFile("plots/001-a.png", nil); err == nil {
		t.Error("wrote below a regular file named plots")
	}
	if err := d.WriteFile("figs/001-album.png", nil); err == nil || !strings.Contains(err.Error(), "directory") {
		t.Errorf("replacing a user's folder: %v", err)
	}
	if err := d.Finish(); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"plots", ".parts-mybackup/data", "figs/001-album.png/photo", ".timeseries-1.csv"} {
		if !exists(filepath.Join(dir, f)) {
			t.Errorf("%s was removed", f)
		}
	}
}

func TestFIFOAndDeviceRefused(t *testing.T) {
	dir := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(dir, "results.csv"), 0o644); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	d := mustOpen(t, dir)
	defer d.Close()
	if err := d.WriteFile("results.csv", []byte("x")); err == nil || !strings.Contains(err.Error(), "FIFO") {
		t.Fatalf("replacing a FIFO: %v", err)
	}
	if info, _ := os.Lstat(filepath.Join(dir, "results.csv")); info.Mode()&os.ModeNamedPipe == 0 {
		t.Error("the FIFO was replaced")
	}
}

func TestSecondOpenRefusedWhileFirstLives(t *testing.T) {
	dir := t.TempDir()
	d := mustOpen(t, dir)
	tmp, err := d.MkdirTemp("parts")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Open(dir); !errors.Is(err, ErrBusy) {
		t.Fatalf("a second open while the first lives: %v, want ErrBusy", err)
	}
	if !exists(filepath.Join(dir, tmp)) {
		t.Fatal("the second open touched the first one's temporary folder")
	}
	d.Close()
	d = mustOpen(t, dir)
	d.Close()
}

func TestKilledRunsTemporariesRemoved(t *testing.T) {
	dir := t.TempDir()
	d := mustOpen(t, dir)
	parts, _ := d.MkdirTemp("parts")
	f, err := d.CreateIn(parts, "000001.csv")
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	tmp, err := d.CreateTemp(".", "timeseries.csv")
	if err != nil {
		t.Fatal(err)
	}
	tmpName := tmp.rel
	tmp.Close()
	if err := d.WriteFile("plots/001-a.png", nil); err != nil {
		t.Fatal(err)
	}
	d.unlock() // killed: no Close
	d = mustOpen(t, dir)
	if exists(filepath.Join(dir, parts)) || exists(filepath.Join(dir, tmpName)) {
		t.Error("a killed run's temporaries are still there")
	}
	d.Finish() // the killed run's figure is not written again: it goes
	if exists(filepath.Join(dir, "plots", "001-a.png")) {
		t.Error("a killed run's figure was not cleaned up by the next run")
	}
}

func TestJournalThatIsNotOursRefused(t *testing.T) {
	base := t.TempDir()
	write(t, filepath.Join(base, "precious"), "precious")
	out := filepath.Join(base, "out")
	os.MkdirAll(out, 0o755)
	if err := os.Link(filepath.Join(base, "precious"), filepath.Join(out, JournalName)); err != nil {
		t.Skip(err)
	}
	if _, err := Open(out); err == nil {
		t.Fatal("a journal hard-linked to another file was accepted")
	}
	if data, _ := os.ReadFile(filepath.Join(base, "precious")); string(data) != "precious" {
		t.Error("the hard-linked file changed")
	}
	os.Remove(filepath.Join(out, JournalName))
	os.Symlink("../precious", filepath.Join(out, JournalName))
	if _, err := Open(out); err == nil || !strings.Contains(err.Error(), "symbolic link") {
		t.Fatalf("a symlinked journal: %v", err)
	}
}

func TestSubIsItsOwnDirectory(t *testing.T) {
	dir := t.TempDir()
	d := mustOpen(t, dir)
	sub, err := d.Sub("runs/01-x")
	if err != nil {
		t.Fatal(err)
	}
	if err := sub.WriteFile("summary.json", []byte("{}")); err != nil {
		t.Fatal(err)
	}
	if _, err := d.Sub("runs/01-x"); !errors.Is(err, ErrBusy) {
		t.Errorf("a sub-directory open twice: %v", err)
	}
	sub.Finish()
	d.Finish()
	if !exists(filepath.Join(dir, "runs", "01-x", "summary.json")) {
		t.Error("the sub-directory's file is missing")
	}
}

func TestPathsMustStayInside(t *testing.T) {
	d := mustOpen(t, t.TempDir())
	defer d.Close()
	for _, p := range []string{"../x", "/etc/passwd", "a/../../x", ""} {
		if err := d.WriteFile(p, nil); err == nil {
			t.Errorf("WriteFile(%q) was allowed", p)
		}
	}
}

// plantJournal writes lines as the journal of dir, as a tampered or copied
// journal would be.
func plantJournal(t *testing.T, dir string, lines ...string) {
	t.Helper()
	write(t, filepath.Join(dir, JournalName), strings.Join(lines, "\n")+"\n")
}

// A journal that names the user's files as temporaries deletes nothing:
// not the directory's files (nor the journal, and so the lock), not a
// file, not a folder's contents; a temporary goes only if it has a
// temporary name of qcnlab's and the inode recorded.
func TestPlantedJournalDeletesNothing(t *testing.T) {
	dir := t.TempDir()
	userFiles := []string{"thesis.tex", "notes.txt", "mydata/a.csv", "mydata/b.csv", "empty/.keep",
		".thesis.tex.0123456789ab.tmp", ".parts-0123456789ab/000001.csv.gz"}
	for _, f := range userFiles {
		write(t, filepath.Join(dir, f), "mine")
	}
	os.Mkdir(filepath.Join(dir, "emptydir"), 0o755)
	info, err := os.Stat(filepath.Join(dir, "mydata"))
	if err != nil {
		t.Fatal(err)
	}
	ino := inode(info)
	plantJournal(t, dir,
		`{"path":".","kind":"tempdir"}`,
		`{"path":".","kind":"tempdir","ino":1}`,
		`{"path":"thesis.tex","kind":"temp"}`,
		`{"path":"thesis.tex","kind":"temp","ino":12345}`,
		`{"path":"mydata","kind":"tempdir"}`,
		fmt.Sprintf(`{"path":"mydata","kind":"tempdir","ino":%d}`, ino),
		`{"path":".thesis.tex.0123456789ab.tmp","kind":"temp","ino":12345}`,
		`{"path":".parts-0123456789ab","kind":"tempdir","ino":12345}`,
		`{"path":"emptydir","kind":"dir"}`,
		`{"path":".qcnlab-outputs","kind":"temp"}`,
		`{"path":"../outside","kind":"temp"}`)
	d := mustOpen(t, dir)
	for _, f := range userFiles {
		if !exists(filepath.Join(dir, f)) {
			t.Errorf("%s was deleted by a planted journal", f)
		}
	}
	if !exists(filepath.Join(dir, JournalName)) {
		t.Fatal("the journal was deleted")
	}
	if _, err := Open(dir); !errors.Is(err, ErrBusy) {
		t.Errorf("a second open while the first lives: %v", err)
	}
	if err := d.WriteFile("summary.json", []byte("{}")); err != nil {
		t.Fatal(err)
	}
	if err := d.Finish(); err != nil {
		t.Fatal(err)
	}
	for _, f := range append(userFiles, "emptydir") {
		if !exists(filepath.Join(dir, f)) {
			t.Errorf("%s was deleted by a planted journal", f)
		}
	}
}

// A killed run's temporaries are recognised by name and inode: a file the
// user put in place of one (same name, another inode) stays.
func TestKilledRunsTemporaryReplacedByUserStays(t *testing.T) {
	dir := t.TempDir()
	d := mustOpen(t, dir)
	tmp, err := d.CreateTemp(".", "summary.json")
	if err != nil {
		t.Fatal(err)
	}
	name := tmp.rel
	tmp.Close()
	d.unlock() // killed: no Close
	write(t, filepath.Join(dir, "mine"), "mine")
	if err := os.Rename(filepath.Join(dir, "mine"), filepath.Join(dir, name)); err != nil {
		t.Fatal(err)
	}
	mustOpen(t, dir).Close()
	if !exists(filepath.Join(dir, name)) {
		t.Error("a file in place of a killed run's temporary was deleted")
	}
}

// Begin removes every file of the earlier batch before the first file of
// the new one is committed: a batch stopped after its first commit leaves
// none of the earlier batch's files beside it, and a file the user edited
// stays.
func TestBeginRemovesTheEarlierBatchFirst(t *testing.T) {
	dir := t.TempDir()
	d := mustOpen(t, dir)
	for _, f := range []string{"experiment.toml", "summary.json", "results.csv", "plots/run0.png"} {
		if err := d.WriteFile(f, []byte("old "+f)); err != nil {
			t.Fatal(err)
		}
	}
	d.Finish()
	edited := filepath.Join(dir, "results.csv")
	write(t, edited, "edited by user")
	d = mustOpen(t, dir)
	if err := d.WriteFile("experiment.toml", []byte("new")); err != nil {
		t.Fatal(err)
	}
	d.unlock() // killed here
	for _, f := range []string{"summary.json", "plots/run0.png"} {
		if exists(filepath.Join(dir, f)) {
			t.Errorf("the earlier batch's %s is still beside the new batch's experiment.toml", f)
		}
	}
	if data, _ := os.ReadFile(edited); string(data) != "edited by user" {
		t.Error("a file the user edited was removed")
	}
}

// CheckNames refuses, before anything is written, a symbolic link, a
// folder or a FIFO at a name, a link on the way, and a match of a pattern
// that is not a regular file.
func TestCheckNamesRefusesUpFront(t *testing.T) {
	dir := t.TempDir()
	os.Symlink("../elsewhere", filepath.Join(dir, "summary.json"))
	os.MkdirAll(filepath.Join(dir, "plots", "queue-cdf_a.png"), 0o755)
	os.Symlink(".", filepath.Join(dir, "link"))
	d := mustOpen(t, dir)
	defer d.Close()
	for name, want := range map[string]string{
		"summary.json":         "summary.json: is a symbolic link",
		"plots/queue-cdf*.png": "queue-cdf_a.png: is a directory",
		"link/results.csv":     "link: is a symbolic link",
		"../x":                 "not a path inside",
		JournalName:            "not a path inside",
		"plots/run000_qcn.png": "",
		"results.csv":          "",
		"missing/a/b/c.csv":    "",
		"plots/sweep*.svg":     "",
	} {
		err := d.CheckNames(name)
		if want == "" && err != nil || want != "" && (err == nil || !strings.Contains(err.Error(), want) || !IsRefusal(err)) {
			t.Errorf("CheckNames(%q) = %v, want %q", name, err, want)
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 4 {
		t.Errorf("CheckNames wrote into the directory: %v", entries)
	}
}

// A regular file at an output name is replaced only when it is provably
// qcnlab's: one an earlier batch wrote and nobody changed, or this batch's
// own. A file of the user's, one changed since, or a copy is refused.
func TestCheckNamesRefusesFilesNotProvablyOurs(t *testing.T) {
	dir := t.TempDir()
	d := mustOpen(t, dir)
	if err := d.WriteFile("summary.json", []byte("{}")); err != nil {
		t.Fatal(err)
	}
	if err := d.WriteFile("results.csv", []byte("a\n")); err != nil {
		t.Fatal(err)
	}
	if err := d.CheckNames("summary.json"); err != nil {
		t.Errorf("this batch's own file: %v", err)
	}
	d.Close()
	os.WriteFile(filepath.Join(dir, "mine.csv"), []byte("the user's"), 0o644)
	os.WriteFile(filepath.Join(dir, "results.csv"), []byte("edited\n"), 0o644)
	d = mustOpen(t, dir)
	defer d.Close()
	for name, want := range map[string]string{
		"summary.json": "",
		"mine.csv":     "cannot tell it wrote",
		"results.csv":  "cannot tell it wrote",
		"missing.csv":  "",
	} {
		err := d.CheckNames(name)
		if want == "" && err != nil || want != "" && (err == nil || !strings.Contains(err.Error(), want) || !IsRefusal(err)) {
			t.Errorf("CheckNames(%q) = %v, want %q", name, err, want)
		}
	}
	if data, _ := os.ReadFile(filepath.Join(dir, "mine.csv")); string(data) != "the user's" {
		t.Errorf("the user's file became %q", data)
	}
}

// Abandon removes a directory that Open made, when nothing was written.
func TestAbandonRemovesWhatOpenMade(t *testing.T) {
	base := t.TempDir()
	out := filepath.Join(base, "a", "b")
	d := mustOpen(t, out)
	tmp, err := d.CreateTemp(".", "timeseries.csv.gz")
	if err != nil {
		t.Fatal(err)
	}
	_ = tmp
	d.MkdirAll("plots")
	if err := d.Abandon(); err != nil {
		t.Fatal(err)
	}
	if exists(filepath.Join(base, "a")) {
		t.Error("an abandoned directory that Open made is still there")
	}
	// A directory that was there stays, without the journal Open made
	// in it; a journal that was there stays.
	os.Mkdir(out, 0o755)
	write(t, filepath.Join(out, "mine"), "mine")
	mustOpen(t, out).Abandon()
	if !exists(filepath.Join(out, "mine")) {
		t.Error("Abandon removed a directory it did not make")
	}
	if exists(filepath.Join(out, JournalName)) {
		t.Error("Abandon left behind the journal Open made")
	}
	d = mustOpen(t, out)
	if err := d.WriteFile("summary.json", nil); err != nil {
		t.Fatal(err)
	}
	d.Close()
	mustOpen(t, out).Abandon()
	if !exists(filepath.Join(out, JournalName)) || !exists(filepath.Join(out, "summary.json")) {
		t.Error("Abandon removed a journal, or a file, of an earlier run")
	}
}

// An --out that cannot be a directory is refused by a message that names
// it and says what is wrong, and nothing is left behind.
func TestUnusableDirectoryNamed(t *testing.T) {
	base := t.TempDir()
	write(t, filepath.Join(base, "afile"), "mine")
	os.Symlink("nowhere", filepath.Join(base, "dangling"))
	os.Symlink("afile", filepath.Join(base, "tofile"))
	syscall.Mkfifo(filepath.Join(base, "pipe"), 0o644)
	os.Symlink("loopb", filepath.Join(base, "loopa"))
	os.Symlink("loopa", filepath.Join(base, "loopb"))
	for name, want := range map[string]string{
		"loopa":     "loopa: is a symbolic link to loopb, which cannot be followed (too many levels of symbolic links)",
		"afile":     "afile: is a file, not a directory",
		"afile/sub": "afile/sub: cannot make the directory: " + filepath.Join(base, "afile") + " is a file, not a directory",
		"dangling":  "dangling: is a symbolic link to nowhere, which does not exist",
		"tofile":    "tofile: is a symbolic link to afile, which is a file, not a directory",
		"pipe":      "pipe: is a FIFO, not a directory",
	} {
		_, err := Open(filepath.Join(base, name))
		if !IsRefusal(err) || !strings.Contains(err.Error(), filepath.Join(base, want)) {
			t.Errorf("%s: %v, want a refusal saying %q", name, err, want)
		}
	}
	entries, _ := os.ReadDir(base)
	if len(entries) != 6 {
		t.Errorf("the refusals left %d entries, want the 6 there before", len(entries))
	}
	if os.Getuid() == 0 {
		return // root writes into a read-only mode: checked in a read-only file system below, if any
	}
	ro := filepath.Join(base, "ro")
	os.Mkdir(ro, 0o555)
	if _, err := Open(ro); !IsRefusal(err) || !strings.HasPrefix(err.Error(), ro+": cannot write in this directory") {
		t.Errorf("a read-only directory: %v, want a refusal naming it", err)
	}
}

// A directory qcnlab cannot write in (a read-only file system) is refused
// by a message that names it.
func TestReadOnlyFileSystemNamed(t *testing.T) {
	const ro = "/sys/kernel" // sysfs: not writable by anyone, root included
	if info, err := os.Stat(ro); err != nil || !info.IsDir() {
		t.Skip("no", ro)
	}
	if _, err := Open(ro); !IsRefusal(err) || !strings.HasPrefix(err.Error(), ro+": cannot write in this directory") {
		t.Errorf("%s: %v, want a refusal naming it", ro, err)
	}
}

// Begin also removes the earlier batch's files in its folders that are
// output directories of their own (reproduce's runs/NN-x), and such a
// folder once empty; a file of the user's there stays, and its folder.
func TestBeginRemovesTheEarlierBatchsSubDirectories(t *testing.T) {
	dir := t.TempDir()
	d := mustOpen(t, dir)
	for _, name := range []string{"runs/01-a", "runs/02-b"} {
		sub, err := d.Sub(name)
		if err != nil {
			t.Fatal(err)
		}
		if err := sub.WriteFile("plots/run0.png", []byte(name)); err != nil {
			t.Fatal(err)
		}
		if err := sub.WriteFile("summary.json", []byte(name)); err != nil {
			t.Fatal(err)
		}
		sub.Finish()
	}
	d.WriteFile("report.md", nil)
	d.Finish()
	write(t, filepath.Join(dir, "runs", "02-b", "notes.txt"), "mine")

	d = mustOpen(t, dir)
	if err := d.Begin(); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"report.md", "runs/01-a/summary.json", "runs/01-a/plots/run0.png", "runs/02-b/summary.json"} {
		if exists(filepath.Join(dir, f)) {
			t.Errorf("the earlier batch's %s is still there after Begin", f)
		}
	}
	d.Finish()
	if exists(filepath.Join(dir, "runs", "01-a")) {
		t.Error("the earlier batch's emptied folder runs/01-a is still there")
	}
	if !exists(filepath.Join(dir, "runs", "02-b", "notes.txt")) {
		t.Error("a file of the user's in an earlier batch's folder was removed")
	}
}

// The lock holds the directory, not only its journal: a journal removed
// (or renamed away) while a run has the directory open must not let a
// second run in, which would write its files beside the first one's.
func TestSecondOpenRefusedAfterJournalRemoved(t *testing.T) {
	dir := t.TempDir()
	d := mustOpen(t, dir)
	if err := os.Remove(filepath.Join(dir, JournalName)); err != nil {
		t.Fatal(err)
	}
	if second, err := Open(dir); !errors.Is(err, ErrBusy) {
		if err == nil {
			second.Close()
		}
		t.Fatalf("a second open after the journal was removed: %v, want ErrBusy", err)
	}
	d.Close()
	d = mustOpen(t, dir)
	d.Close()
}

// fileEntry is the journal line of a file (or folder) qcnlab wrote,
// forged from the one at p: its inode, size and modification time.
func fileEntry(t *testing.T, rel, p string) string {
	t.Helper()
	info, err := os.Lstat(p)
	if err != nil {
		t.Fatal(err)
	}
	if info.IsDir() {
		return fmt.Sprintf(`{"path":%q,"kind":"dir","ino":%d}`, rel, inode(info))
	}
	return fmt.Sprintf(`{"path":%q,"kind":"file","ino":%d,"size":%d,"mtime":%d}`, rel, inode(info), info.Size(), info.ModTime().UnixNano())
}

// A journal entry with the exact inode, size and time of a user's file (a
// hard link gives them) deletes it only if it bears a name qcnlab writes:
// the user's thesis, its hard link, their folders all stay; qcnlab's own
// figure of an earlier run goes.
func TestForgedJournalOfAHardLinkedUserFileDeletesNothing(t *testing.T) {
	dir := t.TempDir()
	d := mustOpen(t, dir)
	if err := d.WriteFile("plots/001-a.png", []byte("ours")); err != nil {
		t.Fatal(err)
	}
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	ours, err := os.ReadFile(filepath.Join(dir, JournalName))
	if err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(dir, "thesis.tex"), "mine")
	if err := os.Link(filepath.Join(dir, "thesis.tex"), filepath.Join(dir, "thesis-copy.tex")); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(dir, "mydata", "a.csv"), "mine")
	if err := os.Mkdir(filepath.Join(dir, "empty"), 0o755); err != nil {
		t.Fatal(err)
	}
	user := []string{"thesis.tex", "thesis-copy.tex", "mydata/a.csv", "empty"}
	lines := []string{strings.TrimSpace(string(ours))}
	for _, f := range user {
		lines = append(lines, fileEntry(t, f, filepath.Join(dir, f)))
	}
	plantJournal(t, dir, lines...)
	d = mustOpen(t, dir)
	if err := d.WriteFile("summary.json", []byte("{}")); err != nil {
		t.Fatal(err)
	}
	if err := d.Finish(); err != nil {
		t.Fatal(err)
	}
	for _, f := range user {
		if !exists(filepath.Join(dir, f)) {
			t.Errorf("%s, named in the journal with its own inode, size and time, was deleted", f)
		}
	}
	if exists(filepath.Join(dir, "plots", "001-a.png")) {
		t.Error("the earlier run's own figure was kept")
	}
}

// A name too long for a file is refused before the runs, whether or not
// its folder exists yet, by a message that names the directory; a writer
// that tries it anyway gets an error naming the file in the directory.
func TestTooLongNamesRefusedUpFront(t *testing.T) {
	dir := t.TempDir()
	d := mustOpen(t, dir)
	defer d.Close()
	long := strings.Repeat("a", MaxName-len(".png")) + ".png"
	if err := d.CheckNames("plots/" + long); err != nil {
		t.Errorf("a name of %d bytes refused: %v", len(long), err)
	}
	for _, name := range []string{"plots/a" + long, "a" + long, strings.Repeat("b", 256) + "/x.png"} {
		err := d.CheckNames(name)
		if !IsRefusal(err) || !strings.HasPrefix(err.Error(), dir+"/") || !strings.Contains(err.Error(), "bytes") {
			t.Errorf("%.20s…: %v, want a refusal naming %s", name, err, dir)
		}
	}
	if err := d.MkdirAll("plots"); err != nil {
		t.Fatal(err)
	}
	if err := d.CheckNames("plots/a" + long); !IsRefusal(err) {
		t.Errorf("with plots/ there: %v, want a refusal", err)
	}
	if err := d.WriteFile("plots/a"+long, nil); err == nil || !strings.HasPrefix(err.Error(), dir+"/plots/") {
		t.Errorf("writing it: %v, want an error naming it in %s", err, dir)
	}
	if err := d.WriteFile("plots/"+long, nil); err != nil {
		t.Errorf("writing a name of %d bytes: %v", len(long), err)
	}
}
