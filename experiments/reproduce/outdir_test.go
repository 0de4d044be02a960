package reproduce

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"qcnlab/experiments/batch"
	"qcnlab/experiments/outdir"
)

// linkTree makes to a copy of the tree from: the journals copied, every
// other file a hard link to the same file (its inode, size and time, as
// the journals record them), so that a file of from found in to later is
// known by its inode, whatever its content.
func linkTree(t *testing.T, from, to string) {
	t.Helper()
	err := filepath.Walk(from, func(p string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(from, p)
		dst := filepath.Join(to, rel)
		switch {
		case info.IsDir():
			return os.MkdirAll(dst, 0o755)
		case info.Name() == outdir.JournalName:
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			return os.WriteFile(dst, data, 0o644)
		}
		return os.Link(p, dst)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// A report stopped at a commit (the first, of its runs' folder; one in
// the middle; the first and the last of the report's own files) leaves
// none of the earlier report's files beside its own. (Every commit of a
// batch is tested in package results, of a merge in package shard.)
func TestReportStoppedAtItsCommitsNeverMixes(t *testing.T) {
	claims, err := Select([]string{"002-fig8"})
	if err != nil {
		t.Fatal(err)
	}
	var commits []string
	outdir.TestHookBeforeRename = func(rel string) error { commits = append(commits, rel); return nil }
	defer func() { outdir.TestHookBeforeRename = nil }()
	earlier := t.TempDir()
	if _, err := Run(context.Background(), claims, Options{OutDir: earlier, Scale: 0.02, Workers: 1}); err != nil {
		t.Fatal(err)
	}
	n := len(commits)
	if n < 4 || commits[n-1] != "report.md" {
		t.Fatalf("commits %v", commits)
	}
	for _, stop := range []int{0, n / 2, n - 3, n - 1} {
		dir := filepath.Join(t.TempDir(), "out")
		linkTree(t, earlier, dir)
		k := 0
		outdir.TestHookBeforeRename = func(string) error {
			if k++; k > stop {
				return errors.New("no space left on device")
			}
			return nil
		}
		if _, err := Run(context.Background(), claims, Options{OutDir: dir, Scale: 0.01, Workers: 1}); err == nil {
			t.Fatalf("stopped at commit %d (%s): no error", stop+1, commits[stop])
		}
		filepath.Walk(earlier, func(p string, info os.FileInfo, err error) error {
			if err != nil || !info.Mode().IsRegular() || info.Name() == outdir.JournalName {
				return err
			}
			rel, _ := filepath.Rel(earlier, p)
			if now, err := os.Stat(filepath.Join(dir, rel)); err == nil && os.SameFile(now, info) {
				t.Errorf("stopped at commit %d (%s): the earlier report's %s is still there", stop+1, commits[stop], rel)
			}
			return nil
		})
	}
}

// Every name the report writes is checked before any run: a symbolic link
// at report.md, or at a file of a run's folder, is refused at once.
func TestReportNamesCheckedBeforeTheRuns(t *testing.T) {
	claims, err := Select([]string{"002-fig8"})
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"report.md", "plots/002-fig8.png", "runs/01-qcn-convergence-model/summary.json"} {
		dir := t.TempDir()
		os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755)
		os.Symlink("/etc/passwd", filepath.Join(dir, name))
		ran := false
		_, err := Run(context.Background(), claims, Options{OutDir: dir, Scale: 0.01, Workers: 1,
			Progress: func(p batch.Progress) { ran = ran || p.Done > 0 }})
		if !outdir.IsRefusal(err) || ran {
			t.Errorf("%s a symbolic link: %v (ran: %v), want a refusal before the runs", name, err, ran)
		}
	}
}

// A report whose claims draw no figure leaves no plots folder: not an empty
// one made before the earlier report's files were removed (made by every
// other report into the same directory, the one that found none there).
func TestReportWithoutFiguresLeavesNoPlotsFolder(t *testing.T) {
	claims, err := Select([]string{"000-capacity-drop"})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for i := range 3 {
		if _, err := Run(context.Background(), claims, Options{OutDir: dir, Quick: true, Workers: 1}); err != nil {
			t.Fatal(err)
		}
		if _, err := os.Lstat(filepath.Join(dir, "plots")); err == nil {
			t.Errorf("report %d: a plots folder without figures", i+1)
		}
	}
}
