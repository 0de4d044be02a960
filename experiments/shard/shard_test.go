package shard

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"qcnlab/experiments"
)

// batch is a small sweep: 2 algorithms x 2 RTTs x 2 source counts x 2 seeds,
// 16 runs of which the source counts change the columns.
func batch(t *testing.T) *experiments.Experiment {
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

func run(t *testing.T, e *experiments.Experiment, dir string, s experiments.Shard) {
	t.Helper()
	if _, err := experiments.Execute(context.Background(), e, experiments.Options{OutDir: dir, Shard: s, Workers: 2}); err != nil {
		t.Fatal(err)
	}
}

var wall = regexp.MustCompile(`"wall_seconds": [0-9.e+-]+`)

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
	e := batch(t)
	root := t.TempDir()
	whole := filepath.Join(root, "whole")
	run(t, e, whole, experiments.Shard{})
	var dirs []string
	for i := 2; i >= 0; i-- { // any order
		d := filepath.Join(root, "shard", string(rune('0'+i)))
		run(t, e, d, experiments.Shard{Index: i, Count: 3})
		dirs = append(dirs, d)
	}
	merged := filepath.Join(root, "merged")
	res, err := Merge(context.Background(), dirs, merged, "svg")
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Runs) != 16 || !res.Complete {
		t.Fatalf("%d runs, complete %v", len(res.Runs), res.Complete)
	}
	for _, f := range []string{"experiment.toml", "summary.json", "results.csv", "timeseries.csv"} {
		a, b := readFile(t, filepath.Join(whole, f)), readFile(t, filepath.Join(merged, f))
		if a != b {
			t.Errorf("%s: merged (%d bytes) differs from the whole run (%d bytes)", f, len(b), len(a))
		}
	}
	if _, err := os.Stat(filepath.Join(merged, "plots", "sweep.svg")); err != nil {
		t.Errorf("no sweep figure: %v", err)
	}
	raw, _ := os.ReadFile(filepath.Join(whole, "timeseries.csv"))
	if n := bytes.Count(raw, []byte("\n")); n != 1+16*200 {
		t.Errorf("timeseries.csv has %d lines, want 16 runs of 200 samples", n)
	}
}

func TestMergeRefusesBadSets(t *testing.T) {
	e := batch(t)
	root := t.TempDir()
	dir := func(name string) string { return filepath.Join(root, name) }
	run(t, e, dir("a0"), experiments.Shard{Index: 0, Count: 2})
	run(t, e, dir("a1"), experiments.Shard{Index: 1, Count: 2})
	other := e.Clone()
	if err := other.Set("duration=5ms"); err != nil {
		t.Fatal(err)
	}
	run(t, other, dir("b1"), experiments.Shard{Index: 1, Count: 2})
	run(t, e, dir("c1"), experiments.Shard{Index: 1, Count: 3})
	os.MkdirAll(dir("plain"), 0o755)

	// A shard stopped half-way lists only the runs it finished.
	ctx, cancel := context.WithCancel(context.Background())
	experiments.Execute(ctx, e, experiments.Options{OutDir: dir("cut1"), Shard: experiments.Shard{Index: 1, Count: 2}, Workers: 1,
		Progress: func(p experiments.Progress) {
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
		_, err := Merge(context.Background(), c.dirs, dir("out"), "")
		if (c.want == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), c.want)) {
			t.Errorf("%v: %v, want %q", c.dirs, err, c.want)
		}
	}
	// A changed experiment.toml is caught, and the output may not be a shard.
	os.WriteFile(filepath.Join(dir("a1"), "experiment.toml"), []byte("# edited\n"), 0o644)
	if _, err := Merge(context.Background(), []string{dir("a0"), dir("a1")}, dir("out"), ""); err == nil || !strings.Contains(err.Error(), "changed after the run") {
		t.Errorf("edited experiment.toml: %v", err)
	}
	if _, err := Merge(context.Background(), []string{dir("a0")}, dir("a0"), ""); err == nil || !strings.Contains(err.Error(), "is one of the shards") {
		t.Errorf("output into a shard: %v", err)
	}
}

func TestParse(t *testing.T) {
	if s, err := Parse("2/5"); err != nil || s != (experiments.Shard{Index: 2, Count: 5}) {
		t.Errorf("2/5: %v %v", s, err)
	}
	for _, bad := range []string{"5/5", "-1/3", "1", "a/b", "0/0", "1/2/3"} {
		if _, err := Parse(bad); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}
