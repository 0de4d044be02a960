package outdir

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// An earlier batch's output that the user write-protected since (chmod
// 444) is refused at Open, before anything is removed or replaced, with an
// error that names it and says how to go on; made writable again, it goes
// as any earlier output.
func TestWriteProtectedEarlierOutputRefusedAtOpen(t *testing.T) {
	dir := t.TempDir()
	d := mustOpen(t, dir)
	for _, f := range []string{"experiment.toml", "summary.json", "plots/a.png"} {
		if err := d.WriteFile(f, []byte(f)); err != nil {
			t.Fatal(err)
		}
	}
	d.Finish()
	protected := filepath.Join(dir, "summary.json")
	if err := os.Chmod(protected, 0o444); err != nil {
		t.Fatal(err)
	}

	_, err := Open(dir)
	if err == nil || !IsRefusal(err) {
		t.Fatalf("Open with a write-protected earlier output: %v, want a refusal", err)
	}
	for _, want := range []string{protected, "write-protected", "chmod u+w"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("the refusal %q does not say %q", err, want)
		}
	}
	for _, f := range []string{"experiment.toml", "summary.json", "plots/a.png"} {
		if !exists(filepath.Join(dir, f)) {
			t.Errorf("%s was removed by a refused batch", f)
		}
	}

	if err := os.Chmod(protected, 0o644); err != nil {
		t.Fatal(err)
	}
	d = mustOpen(t, dir)
	d.WriteFile("report.md", nil)
	d.Finish()
	if exists(protected) {
		t.Error("summary.json, writable again, was not removed as an earlier output")
	}
}

// A write-protected output in a folder of an earlier batch that was an
// output directory of its own (reproduce's runs/NN) is refused at the
// top directory's Open: the batch would remove it at Begin, after it had
// removed the top directory's earlier files.
func TestWriteProtectedOutputOfAnEarlierSubDirectoryRefusedAtOpen(t *testing.T) {
	dir := t.TempDir()
	d := mustOpen(t, dir)
	sub, err := d.Sub("runs/01-a")
	if err != nil {
		t.Fatal(err)
	}
	sub.WriteFile("summary.json", []byte("a"))
	sub.Finish()
	d.WriteFile("report.md", []byte("r"))
	d.Finish()
	protected := filepath.Join(dir, "runs", "01-a", "summary.json")
	if err := os.Chmod(protected, 0o444); err != nil {
		t.Fatal(err)
	}

	if _, err := Open(dir); err == nil || !strings.Contains(err.Error(), protected) {
		t.Fatalf("Open with a write-protected output in runs/01-a: %v, want a refusal naming it", err)
	}
	if !exists(filepath.Join(dir, "report.md")) || !exists(protected) {
		t.Error("a refused batch removed an earlier output")
	}
}

// An earlier output in a folder this process cannot write (chmod a-w on
// the folder, to keep what is in it) cannot be removed, so the batch is
// refused at Open, before Begin removes any of the other earlier outputs.
// Root writes into any folder, so as root the case runs in a child
// process as nobody.
func TestOutputInALockedFolderRefusedAtOpen(t *testing.T) {
	asUser(t, "TestOutputInALockedFolderRefusedAtOpen", lockedFolderCase)
}

// asUser runs f, a test's case, in a fresh directory as a user who is not
// root, for whom write permission holds: itself if it is not root, else a
// child process of the test binary as nobody (given the directory by the
// environment), named by test.
func asUser(t *testing.T, test string, f func(*testing.T, string)) {
	if dir := os.Getenv("QCNLAB_AS_USER_DIR"); dir != "" {
		f(t, dir)
		return
	}
	dir := t.TempDir()
	if os.Getuid() != 0 {
		f(t, dir)
		return
	}
	for _, p := range []string{filepath.Dir(dir), dir} {
		os.Chmod(p, 0o777|os.ModeSticky) // the test's temporary folders (not the system's), for nobody
	}
	self, err := os.ReadFile(os.Args[0]) // the test binary, in a folder only root reads
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "outdir.test")
	if err := os.WriteFile(bin, self, 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "-test.run=^"+test+"$", "-test.v")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "QCNLAB_AS_USER_DIR="+dir)
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		// A root that cannot become nobody (a user namespace without
		// that user, no CAP_SETUID) or a temporary folder nobody cannot
		// reach: the case cannot be run here.
		t.Skipf("cannot run as nobody here: %v", err)
	}
	if err := cmd.Wait(); err != nil || !strings.Contains(out.String(), "--- PASS") {
		t.Errorf("as nobody: %v\n%s", err, out.String())
	}
}

// A journal made read-only (the directory writable) is named as what
// cannot be written, not the directory.
func TestReadOnlyJournalNamed(t *testing.T) {
	asUser(t, "TestReadOnlyJournalNamed", func(t *testing.T, dir string) {
		dir = filepath.Join(dir, "out")
		d := mustOpen(t, dir)
		d.WriteFile("summary.json", []byte("a"))
		d.Finish()
		journal := filepath.Join(dir, JournalName)
		os.Chmod(journal, 0o444)
		_, err := Open(dir)
		if err == nil || !strings.HasPrefix(err.Error(), journal+": qcnlab's list of what it wrote there cannot be written") {
			t.Errorf("Open with a read-only journal: %v, want an error naming the journal", err)
		}
	})
}

func lockedFolderCase(t *testing.T, dir string) {
	dir = filepath.Join(dir, "out")
	d := mustOpen(t, dir)
	files := []string{"experiment.toml", "summary.json", "plots/a.png"}
	for _, f := range files {
		if err := d.WriteFile(f, []byte(f)); err != nil {
			t.Fatal(err)
		}
	}
	d.Finish()
	plots := filepath.Join(dir, "plots")
	if err := os.Chmod(plots, 0o555); err != nil {
		t.Fatal(err)
	}
	defer os.Chmod(plots, 0o755) // for the test's clean-up
	_, err := Open(dir)
	if err == nil || !IsRefusal(err) || !strings.Contains(err.Error(), filepath.Join(plots, "a.png")) {
		t.Errorf("Open with an earlier output in a write-protected folder: %v, want a refusal naming it", err)
	}
	for _, f := range files {
		if !exists(filepath.Join(dir, f)) {
			t.Errorf("%s was removed by a refused batch", f)
		}
	}
}

// Outputs written without the owner's write bit, under a umask of 0222,
// were not write-protected by the user since: the next batch replaces
// them as any earlier output.
func TestOutputsOfAReadOnlyUmaskAreNotRefused(t *testing.T) {
	dir := t.TempDir()
	d := mustOpen(t, dir)
	old := syscall.Umask(0o222) // the file alone: the journal, made at Open, stays writable for a user not root
	err := d.WriteFile("summary.json", []byte("a"))
	syscall.Umask(old)
	d.Finish()
	if err != nil {
		t.Fatal(err)
	}
	if info, err := os.Stat(filepath.Join(dir, "summary.json")); err != nil || info.Mode().Perm()&0o200 != 0 {
		t.Fatalf("the umask did not leave the file read-only: %v %v", info, err)
	}
	d, err = Open(dir)
	if err != nil {
		t.Fatalf("Open after a batch under a read-only umask: %v", err)
	}
	d.WriteFile("report.md", nil)
	d.Finish()
	if exists(filepath.Join(dir, "summary.json")) {
		t.Error("the earlier summary.json, written read-only by the umask, was not replaced")
	}
}
