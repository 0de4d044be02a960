package shard

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"qcnlab/experiments"
	"qcnlab/experiments/batch"
	"qcnlab/experiments/outdir"
	"qcnlab/experiments/plots"
	"qcnlab/experiments/results"
)

// sweep is a small sweep: 2 algorithms x 2 RTTs x 2 source counts x 2 seeds,
// 16 runs of which the source counts change the columns.
func sweep(t *testing.T) *experiments.Experiment {
	t.Helper()
	e, err := experiments.Parse("batch.toml", []byte(`
name = "batch"
duration = "4ms"
warmup = "1ms"
algorithms = ["qcn", "n-aimd"]
[output]
sample_interval = "20us"
[sweep]
network.rtt = ["60us", "200us"]
sources.count = [2, 3]
seed = [1, 2]
`))
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func run(t *testing.T, e *experiments.Experiment, dir string, part results.Part) {
	t.Helper()
	if _, err := results.Execute(context.Background(), e, results.Options{OutDir: dir, Part: part, Workers: 2}); err != nil {
		t.Fatal(err)
	}
}

var wall = regexp.MustCompile(`"wall_seconds": [0-9.e+-]+`)

// gunzip reads a gzip file whole.
func gunzip(t *testing.T, path string) []byte {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	z, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	data, err := io.ReadAll(z)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// readFile returns a file with the wall times, the one thing that differs
// between runs, blanked out.
func readFile(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s := wall.ReplaceAllString(string(data), `"wall_seconds": 0`)
	if filepath.Base(path) == "results.csv" {
		lines := strings.Split(s, "\n")
		k := strings.Index(","+lines[0]+",", ",wall_seconds,")
		col := strings.Count(lines[0][:k], ",")
		for i := 1; i < len(lines); i++ {
			cells := strings.Split(lines[i], ",")
			if len(cells) > col {
				cells[col] = ""
			}
			lines[i] = strings.Join(cells, ",")
		}
		s = strings.Join(lines, "\n")
	}
	return s
}

func TestShardsMergedEqualTheWhole(t *testing.T) {
	e := sweep(t)
	root := t.TempDir()
	whole := filepath.Join(root, "whole")
	run(t, e, whole, nil)
	var dirs []string
	for i := 2; i >= 0; i-- { // any order
		d := filepath.Join(root, "shard", string(rune('0'+i)))
		run(t, e, d, Slice{Index: i, Count: 3})
		dirs = append(dirs, d)
	}
	merged := filepath.Join(root, "merged")
	res, err := Merge(context.Background(), dirs, merged, Options{Plot: plots.Options{Format: "svg"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Runs) != 16 || !res.Complete {
		t.Fatalf("%d runs, complete %v", len(res.Runs), res.Complete)
	}
	for _, f := range []string{"experiment.toml", "summary.json", "results.csv", "timeseries.csv.gz"} {
		a, b := readFile(t, filepath.Join(whole, f)), readFile(t, filepath.Join(merged, f))
		if a != b {
			t.Errorf("%s: merged (%d bytes) differs from the whole run (%d bytes)", f, len(b), len(a))
		}
	}
	if _, err := os.Stat(filepath.Join(merged, "plots", "sweep.svg")); err != nil {
		t.Errorf("no sweep figure: %v", err)
	}
	raw := gunzip(t, filepath.Join(whole, "timeseries.csv.gz"))
	if n := bytes.Count(raw, []byte("\n")); n != 1+16*200 {
		t.Errorf("timeseries.csv.gz has %d lines, want 16 runs of 200 samples", n)
	}
}

func TestMergeRefusesBadSets(t *testing.T) {
	e := sweep(t)
	root := t.TempDir()
	dir := func(name string) string { return filepath.Join(root, name) }
	run(t, e, dir("a0"), Slice{Index: 0, Count: 2})
	run(t, e, dir("a1"), Slice{Index: 1, Count: 2})
	other := e.Clone()
	if err := other.Set("duration=5ms"); err != nil {
		t.Fatal(err)
	}
	run(t, other, dir("b1"), Slice{Index: 1, Count: 2})
	run(t, e, dir("c1"), Slice{Index: 1, Count: 3})
	os.MkdirAll(dir("plain"), 0o755)

	// A shard stopped half-way lists only the runs it finished.
	ctx, cancel := context.WithCancel(context.Background())
	results.Execute(ctx, e, results.Options{OutDir: dir("cut1"), Part: Slice{Index: 1, Count: 2}, Workers: 1,
		Progress: func(p batch.Progress) {
			if p.Done == 3 {
				cancel()
			}
		}})

	for _, c := range []struct {
		dirs []string
		want string
	}{
		{[]string{dir("a0")}, "shard 1/2 missing"},
		{[]string{dir("a0"), dir("a0")}, "shard 0/2 is given twice"},
		{[]string{dir("a0"), dir("b1")}, "different experiments"},
		{[]string{dir("a0"), dir("c1")}, "one of 2 shards"},
		{[]string{dir("a0"), dir("plain")}, "no shard.json"},
		{[]string{dir("a0"), dir("cut1")}, "did not finish run"},
		{[]string{dir("a0"), dir("a1")}, ""},
	} {
		_, err := Merge(context.Background(), c.dirs, dir("out"), Options{Plot: plots.Options{}})
		if (c.want == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), c.want)) {
			t.Errorf("%v: %v, want %q", c.dirs, err, c.want)
		}
	}
	// A changed experiment.toml is caught, and the output may not be a shard.
	os.WriteFile(filepath.Join(dir("a1"), "experiment.toml"), []byte("# edited\n"), 0o644)
	if _, err := Merge(context.Background(), []string{dir("a0"), dir("a1")}, dir("out"), Options{Plot: plots.Options{}}); err == nil || !strings.Contains(err.Error(), "changed after the run") {
		t.Errorf("edited experiment.toml: %v", err)
	}
	if _, err := Merge(context.Background(), []string{dir("a0")}, dir("a0"), Options{Plot: plots.Options{}}); err == nil || !strings.Contains(err.Error(), "is one of the shards") {
		t.Errorf("output into a shard: %v", err)
	}
}

func TestParse(t *testing.T) {
	if s, err := Parse("2/5"); err != nil || s != (Slice{Index: 2, Count: 5}) {
		t.Errorf("2/5: %v %v", s, err)
	}
	for _, bad := range []string{"5/5", "-1/3", "1", "a/b", "0/0", "1/2/3"} {
		if _, err := Parse(bad); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}

// tampered runs a two-shard batch into root/a0 and root/a1, applies edit to
// a copy of a1's files, and merges; it returns the error.
func tampered(t *testing.T, root string, edit func(dir string)) error {
	t.Helper()
	a0, a1 := filepath.Join(root, "a0"), filepath.Join(root, "a1")
	if _, err := os.Stat(a0); err != nil {
		e := sweep(t)
		run(t, e, a0, Slice{Index: 0, Count: 2})
		run(t, e, a1, Slice{Index: 1, Count: 2})
	}
	dir, err := os.MkdirTemp(root, "edited-")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"shard.json", "summary.json", "experiment.toml", "timeseries.csv.gz"} {
		data, err := os.ReadFile(filepath.Join(a1, f))
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(dir, f), data, 0o644)
	}
	edit(dir)
	out := filepath.Join(root, "out")
	os.RemoveAll(out)
	os.MkdirAll(out, 0o755)
	// A file of the user's (a file at an output name that qcnlab cannot
	// prove it wrote is refused before the merge: see outdir's tests).
	os.WriteFile(filepath.Join(out, "notes.txt"), []byte("the user's notes"), 0o644)
	_, err = Merge(context.Background(), []string{a0, dir}, out, Options{Plot: plots.Options{}})
	if err != nil {
		// A failing merge writes nothing beside older outputs.
		entries, _ := os.ReadDir(out)
		var names []string
		for _, e := range entries {
			if e.Name() != outdir.JournalName {
				names = append(names, e.Name())
			}
		}
		if data, _ := os.ReadFile(filepath.Join(out, "notes.txt")); len(names) != 1 || string(data) != "the user's notes" {
			t.Errorf("a failing merge left %v in the output", names)
		}
	}
	return err
}

// editJSON rewrites a JSON file of dir through f.
func editJSON(t *testing.T, path string, f func(m map[string]any)) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	f(m)
	data, _ = json.Marshal(m)
	os.WriteFile(path, data, 0o644)
}

// An edited or damaged shard is refused with the file and what is wrong,
// before anything is allocated by its numbers or written to the output.
func TestMergeRefusesTamperedShards(t *testing.T) {
	root := t.TempDir()
	manifest := func(key string, v any) func(string) {
		return func(dir string) {
			editJSON(t, filepath.Join(dir, "shard.json"), func(m map[string]any) { m[key] = v })
		}
	}
	runs := func(f func(rs []any)) func(string) {
		return func(dir string) {
			editJSON(t, filepath.Join(dir, "summary.json"), func(m map[string]any) { f(m["runs"].([]any)) })
		}
	}
	series := func(f func(lines []string) []string) func(string) {
		return func(dir string) {
			path := filepath.Join(dir, "timeseries.csv.gz")
			lines := strings.SplitAfter(string(gunzip(t, path)), "\n")
			var b bytes.Buffer
			results.Gzip(&b, []byte(strings.Join(f(lines), "")))
			os.WriteFile(path, b.Bytes(), 0o644)
		}
	}
	for _, c := range []struct {
		name string
		edit func(string)
		want string
	}{
		{"runs_total 1e11", manifest("runs_total", 1e11), "runs_total 100000000000: a batch has 0 to 10000 runs"},
		{"shards 1e12", manifest("shards", 1e12), "one of 1000000000000 of 16"},
		{"negative shards", manifest("shards", -2), "shards at least 1"},
		{"negative runs_total", manifest("runs_total", -1), "runs_total -1"},
		{"negative rows", func(dir string) {
			editJSON(t, filepath.Join(dir, "shard.json"), func(m map[string]any) {
				m["runs"].([]any)[0].(map[string]any)["rows"] = -5
			})
		}, "has -5 time-series rows"},
		{"huge rows", func(dir string) {
			editJSON(t, filepath.Join(dir, "shard.json"), func(m map[string]any) {
				m["runs"].([]any)[0].(map[string]any)["rows"] = 1e15
			})
		}, "the run takes at most 201 samples"},
		{"swapped runs", runs(func(rs []any) { rs[0], rs[1] = rs[1], rs[0] }), "summary.json: its run 1 (run 1 of the batch)"},
		{"a run set to null", runs(func(rs []any) { rs[2] = nil }), "it is no run (null)"},
		{"a reversed time series", series(func(ls []string) []string {
			body := ls[1 : len(ls)-1]
			for i, j := 0, 199; i < j; i, j = i+1, j-1 {
				body[i], body[j] = body[j], body[i]
			}
			return ls
		}), "timeseries.csv.gz:3: time"},
		{"another run's rows", series(func(ls []string) []string {
			return append(append([]string{ls[0]}, ls[201:401]...), append(ls[1:201], ls[401:]...)...)
		}), "timeseries.csv.gz:2: the row is not of run 1"},
		{"a line far too long", series(func(ls []string) []string {
			ls[5] = strings.Repeat("9", 1<<20) + "\n"
			return ls
		}), "timeseries.csv.gz:6: a line longer than"},
		{"a truncated file", series(func(ls []string) []string {
			return append(ls[:100], "qcn,60us,2,1,0.0")
		}), "timeseries.csv.gz:101: the last line has no end"},
		{"a cut gzip stream", func(dir string) {
			path := filepath.Join(dir, "timeseries.csv.gz")
			data, _ := os.ReadFile(path)
			os.WriteFile(path, data[:len(data)/2], 0o644)
		}, "unexpected EOF"},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := tampered(t, root, c.edit)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("%v, want %q", err, c.want)
			}
		})
	}
	if err := tampered(t, root, func(string) {}); err != nil {
		t.Errorf("the untampered copy: %v", err)
	}
}

// A cancelled merge stops, removes its temporary file and writes nothing.
func TestMergeStopsWhenCancelled(t *testing.T) {
	root := t.TempDir()
	e := sweep(t)
	run(t, e, filepath.Join(root, "a0"), Slice{Index: 0, Count: 1})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	out := filepath.Join(root, "out")
	if _, err := Merge(ctx, []string{filepath.Join(root, "a0")}, out, Options{Plot: plots.Options{}}); !errors.Is(err, context.Canceled) {
		t.Fatalf("%v, want context.Canceled", err)
	}
	entries, _ := os.ReadDir(out)
	for _, e := range entries {
		if e.Name() != outdir.JournalName {
			t.Errorf("a cancelled merge left %s", e.Name())
		}
	}
}

// Shards without a time series merge into outputs without one; shards
// that disagree on --series are refused.
func TestMergeSeriesModes(t *testing.T) {
	e := sweep(t)
	root := t.TempDir()
	dir := func(name string) string { return filepath.Join(root, name) }
	for i, series := range []string{"none", "none", "1ms"} {
		s, err := results.ParseSeries(series)
		if err != nil {
			t.Fatal(err)
		}
		slice := Slice{Index: i % 2, Count: 2}
		if _, err := results.Execute(context.Background(), e, results.Options{OutDir: dir(fmt.Sprint(i)), Part: slice, Series: s}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := Merge(context.Background(), []string{dir("0"), dir("1")}, dir("out"), Options{Plot: plots.Options{}}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir("out"), results.SeriesFile)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a merge of shards without a time series wrote one: %v", err)
	}
	if _, err := Merge(context.Background(), []string{dir("0"), dir("2")}, dir("out2"), Options{Plot: plots.Options{}}); err == nil || !strings.Contains(err.Error(), "--series none") {
		t.Errorf("shards of different --series merged: %v", err)
	}
}

// The flows of a sharded FCT batch merge into the whole run's
// flows.csv.gz, row for row, and its ports.csv.gz.
func TestShardsMergeTheFlows(t *testing.T) {
	e, err := experiments.Parse("fct.toml", []byte(`
name = "fct"
duration = "5ms"
warmup = "0s"
algorithms = ["dcqcn", "qcn"]
[network]
topology = "fat_tree"
k = 4
[traffic]
pattern = "none"
load = 0.3
[sweep]
seed = [1, 2]
`))
	if err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	whole := filepath.Join(root, "whole")
	run(t, e, whole, nil)
	var dirs []string
	for i := range 3 {
		d := filepath.Join(root, "shard", string(rune('0'+i)))
		run(t, e, d, Slice{Index: i, Count: 3})
		dirs = append(dirs, d)
	}
	merged := filepath.Join(root, "merged")
	if _, err := Merge(context.Background(), dirs, merged, Options{}); err != nil {
		t.Fatal(err)
	}
	// A shard's flows.csv.gz that is a FIFO is refused, not opened: the
	// merge would wait for a writer forever.
	fifo := filepath.Join(dirs[2], results.FlowsFile)
	os.Remove(fifo)
	if err := syscall.Mkfifo(fifo, 0o600); err == nil {
		done := make(chan error, 1)
		go func() {
			_, err := Merge(context.Background(), dirs, filepath.Join(root, "fifo"), Options{})
			done <- err
		}()
		select {
		case err := <-done:
			if err == nil || !strings.Contains(err.Error(), "not a regular file") {
				t.Errorf("flows.csv.gz a FIFO: %v, want a refusal", err)
			}
		case <-time.After(time.Minute):
			t.Fatal("flows.csv.gz a FIFO: the merge blocks")
		}
	}
	for _, f := range []string{results.FlowsFile, results.PortsFile} {
		a, b := gunzip(t, filepath.Join(whole, f)), gunzip(t, filepath.Join(merged, f))
		if !bytes.Equal(a, b) || bytes.Count(a, []byte("\n")) < 10 {
			t.Errorf("%s: merged (%d bytes) differs from the whole run (%d bytes)", f, len(b), len(a))
		}
	}
}
