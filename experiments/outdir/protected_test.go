package outdir

import (
	"os"
	"path/filepath"
	"strings"
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
