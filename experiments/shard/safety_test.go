package shard

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"qcnlab/experiments/outdir"
	"qcnlab/experiments/plots"
	"qcnlab/experiments/results"
)

// twoShards runs the sweep as two shards into root/s0 and root/s1, with
// the versions given, once per root.
func twoShards(t *testing.T, root string, versions ...string) []string {
	t.Helper()
	dirs := []string{filepath.Join(root, "s0"), filepath.Join(root, "s1")}
	if _, err := os.Stat(dirs[0]); err != nil {
		e := sweep(t)
		for i, d := range dirs {
			run(t, e, d, Slice{Index: i, Count: 2, Version: versions[i]})
		}
	}
	return dirs
}

// copyShard copies a shard's files into a new folder of root.
func copyShard(t *testing.T, root, from string) string {
	t.Helper()
	dir, err := os.MkdirTemp(root, "copy-")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{File, "summary.json", "experiment.toml", results.SeriesFile} {
		data, err := os.ReadFile(filepath.Join(from, f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, f), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// Shards record the qcnlab that ran them; merge refuses shards of two
// versions unless forced, and then says so.
func TestMergeRefusesShardsOfDifferentVersions(t *testing.T) {
	root := t.TempDir()
	dirs := twoShards(t, root, "qcnlab v1.0.0 (revision aaa), go1.25", "qcnlab v1.1.0 (revision bbb), go1.25")
	var m Manifest
	data, _ := os.ReadFile(filepath.Join(dirs[1], File))
	if !strings.Contains(string(data), `"qcnlab_version": "qcnlab v1.1.0 (revision bbb), go1.25"`) {
		t.Errorf("shard.json records no version:\n%s", data)
	}
	_ = m
	out := filepath.Join(root, "out")
	_, err := Merge(context.Background(), dirs, out, Options{})
	if !errors.Is(err, ErrVersions) || !strings.Contains(err.Error(), "v1.0.0") || !strings.Contains(err.Error(), "v1.1.0") ||
		!strings.Contains(err.Error(), "--force") {
		t.Fatalf("shards of two versions: %v", err)
	}
	if _, err := os.Stat(out); !errors.Is(err, os.ErrNotExist) {
		t.Error("a refused merge made its --out")
	}
	var warned string
	if _, err := Merge(context.Background(), dirs, out, Options{Force: true, Warn: func(s string) { warned = s }}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(warned, "v1.1.0") {
		t.Errorf("a forced merge did not warn: %q", warned)
	}
}

// A shard file that is a FIFO, or a link to one, is refused before it is
// opened: the merge neither blocks nor waits for a writer.
func TestMergeRefusesFIFOs(t *testing.T) {
	root := t.TempDir()
	dirs := twoShards(t, root, "v", "v")
	for _, c := range []struct{ file, how string }{
		{File, "fifo"}, {"summary.json", "fifo"}, {"experiment.toml", "link"}, {results.SeriesFile, "fifo"}, {results.SeriesFile, "link"},
	} {
		dir := copyShard(t, root, dirs[1])
		path := filepath.Join(dir, c.file)
		os.Remove(path)
		fifo := path
		if c.how == "link" {
			fifo = filepath.Join(root, "fifo-"+filepath.Base(dir))
			if err := os.Symlink(fifo, path); err != nil {
				t.Fatal(err)
			}
		}
		if err := syscall.Mkfifo(fifo, 0o600); err != nil {
			t.Skip("no FIFOs here:", err)
		}
		done := make(chan error, 1)
		go func() {
			_, err := Merge(context.Background(), []string{dirs[0], dir}, filepath.Join(root, "out"), Options{})
			done <- err
		}()
		select {
		case err := <-done:
			if err == nil || !strings.Contains(err.Error(), "not a regular file") {
				t.Errorf("%s a %s: %v, want a refusal", c.file, c.how, err)
			}
		case <-time.After(time.Minute): // hung: the merge blocks on the FIFO
			t.Fatalf("%s a %s: the merge blocks", c.file, c.how)
		}
	}
}

// A tampered summary.json is refused before it is decoded into more than
// a bounded multiple of its size: a list of empty objects, whether runs
// or a run's bottlenecks.
func TestMergeBoundsWhatSummaryDecodesTo(t *testing.T) {
	root := t.TempDir()
	dirs := twoShards(t, root, "v", "v")
	const n = 3 << 20 // 9 MB of "{},"
	empties := strings.Repeat("{},", n-1) + "{}"
	for _, c := range []struct{ name, summary, want string }{
		{"runs", `{"experiment":"batch","complete":true,"runs":[` + empties + `]}`, "would take more than"},
		{"runs past the manifest's", `{"experiment":"batch","complete":true,"runs":[` + strings.Repeat("{},", 1000) + `{}]}`, "holds more runs than the 8 shard.json lists"},
		{"bottlenecks", `{"experiment":"batch","complete":true,"runs":[{"bottlenecks":[` + empties + `]}]}`, "would take more than"},
		{"phases", `{"experiment":"batch","runs":[{"phases":[{"sources":[` + empties + `]}]}]}`, "would take more than"},
		{"unknown key", `{"experiment":"batch","runs":[{"mine":[[` + strings.Repeat("[],", n) + `[]]]}]}`, "would take more than"},
		{"shard.json's runs", `{"shard":1,"shards":2,"runs_total":16,"runs":[` + empties + `]}`, "shard.json: its lists would take more than"},
	} {
		dir := copyShard(t, root, dirs[1])
		file := "summary.json"
		if strings.HasPrefix(c.name, "shard.json") {
			file = File
		}
		if err := os.WriteFile(filepath.Join(dir, file), []byte(c.summary), 0o644); err != nil {
			t.Fatal(err)
		}
		runtime.GC()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		_, err := Merge(context.Background(), []string{dirs[0], dir}, filepath.Join(root, "out"), Options{})
		runtime.ReadMemStats(&after)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
		// Reading the file is 9 MB; decoding 3 million elements would be
		// hundreds.
		if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 64<<20 {
			t.Errorf("%s: the merge allocated %d MB on a %d MB summary", c.name, alloc>>20, len(c.summary)>>20)
		}
	}
}

// A summary qcnlab wrote is well within the bound.
func TestBoundShapeAcceptsRealSummaries(t *testing.T) {
	root := t.TempDir()
	dirs := twoShards(t, root, "v", "v")
	data, err := os.ReadFile(filepath.Join(dirs[0], "summary.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := summaryShape.bound(data); err != nil {
		t.Error(err)
	}
	sizes := summaryShape.elementBytes
	if sizes["runs"] == 0 || sizes["bottlenecks"] == 0 || sizes["sources"] == 0 || summaryShape.largest < sizes["runs"] {
		t.Errorf("element sizes %v, largest %d", sizes, summaryShape.largest)
	}
	if data, err = os.ReadFile(filepath.Join(dirs[0], File)); err != nil {
		t.Fatal(err)
	}
	if err := manifestShape.bound(data); err != nil || manifestShape.elementBytes["runs"] == 0 {
		t.Errorf("shard.json: %v, element sizes %v", err, manifestShape.elementBytes)
	}
}

// A merge that fails on its inputs after it opened --out (a time series
// that does not match its manifest) leaves no --out behind when it made
// it.
func TestFailedMergeLeavesNoOut(t *testing.T) {
	root := t.TempDir()
	dirs := twoShards(t, root, "v", "v")
	dir := copyShard(t, root, dirs[1])
	data, _ := os.ReadFile(filepath.Join(dirs[0], results.SeriesFile))
	os.WriteFile(filepath.Join(dir, results.SeriesFile), data, 0o644)
	out := filepath.Join(root, "new", "out")
	if _, err := Merge(context.Background(), []string{dirs[0], dir}, out, Options{}); err == nil {
		t.Fatal("a shard with another shard's time series merged")
	}
	if _, err := os.Stat(filepath.Join(root, "new")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a failed merge left its --out: %v", err)
	}
}

// A merge stopped at any of its commits leaves none of the earlier
// merge's files beside its own.
func TestMergeStoppedAtEachCommitNeverMixes(t *testing.T) {
	root := t.TempDir()
	dirs := twoShards(t, root, "v", "v")
	other := sweep(t)
	other.Name = "other"
	if err := other.Set("duration=3ms"); err != nil {
		t.Fatal(err)
	}
	otherDir := filepath.Join(root, "other")
	run(t, other, otherDir, Slice{Index: 0, Count: 1})
	opt := Options{Plot: plots.Options{Format: "svg"}}
	commits := 0
	outdir.TestHookBeforeRename = func(string) error { commits++; return nil }
	defer func() { outdir.TestHookBeforeRename = nil }()
	if _, err := Merge(context.Background(), dirs, filepath.Join(root, "count"), opt); err != nil {
		t.Fatal(err)
	}
	for stop := range commits {
		out := filepath.Join(root, "out", string(rune('a'+stop)))
		outdir.TestHookBeforeRename = nil
		if _, err := Merge(context.Background(), []string{otherDir}, out, opt); err != nil {
			t.Fatal(err)
		}
		earlier := map[string][]byte{}
		filepath.Walk(out, func(p string, info os.FileInfo, err error) error {
			if err == nil && info.Mode().IsRegular() && info.Name() != outdir.JournalName {
				earlier[p], _ = os.ReadFile(p)
			}
			return nil
		})
		n := 0
		outdir.TestHookBeforeRename = func(string) error {
			if n++; n > stop {
				return errors.New("no space left on device")
			}
			return nil
		}
		if _, err := Merge(context.Background(), dirs, out, opt); err == nil {
			t.Fatalf("stopped at commit %d: no error", stop+1)
		}
		for p, data := range earlier {
			if now, err := os.ReadFile(p); err == nil && string(now) == string(data) {
				t.Errorf("stopped at commit %d: the earlier merge's %s is still there", stop+1, p)
			}
		}
	}
}

// A shard's record is a name the journal may have removed by the next
// batch (outdir.OutputName).
func TestShardFileIsAnOutputName(t *testing.T) {
	if !outdir.OutputName(File, false) {
		t.Errorf("%s is not an outdir.OutputName", File)
	}
}
