package results

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"qcnlab/experiments"
	"qcnlab/experiments/batch"
	"qcnlab/experiments/outdir"
	"qcnlab/experiments/plots"
)

// smallBatch is a two-run sweep, named name and seeded with seed, so that
// two batches differ in every file.
func smallBatch(t *testing.T, name string, seed int) string {
	return fmt.Sprintf(`
name = %q
duration = "2ms"
seed = %d
algorithms = ["qcn"]
[sources]
count = 2
[sweep]
network.rtt = ["100us", "300us"]
`, name, seed)
}

// recordPart is a Part that writes a record of its own, as a shard does.
type recordPart struct{}

func (recordPart) Runs(n int) ([]int, error) {
	var all []int
	for i := range n {
		all = append(all, i)
	}
	return all, nil
}
func (recordPart) Files() []string { return []string{"part.json"} }
func (recordPart) Record(ctx context.Context, dir *outdir.Dir, w Written) error {
	return dir.WriteFile("part.json", []byte("{}\n"))
}

// readTree reads every file of dir but the journal, by path.
func readTree(t *testing.T, dir string) map[string]string {
	t.Helper()
	files := map[string]string{}
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || d.Name() == outdir.JournalName {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(dir, p)
		files[filepath.ToSlash(rel)] = string(data)
		return nil
	})
	return files
}

// Files is the one list of a batch's outputs: a batch writes nothing that
// is not on it.
func TestBatchWritesOnlyItsListedFiles(t *testing.T) {
	dir := t.TempDir()
	e := mustParse(t, smallBatch(t, "listed", 1))
	opt := Options{OutDir: dir, Plot: "svg", Part: recordPart{}}
	if _, err := Execute(context.Background(), e, opt); err != nil {
		t.Fatal(err)
	}
	names, err := Files(e, opt)
	if err != nil {
		t.Fatal(err)
	}
	for f := range readTree(t, dir) {
		if !slices.ContainsFunc(names, func(n string) bool { ok, _ := path.Match(n, f); return ok }) {
			t.Errorf("the batch wrote %s, which Files does not list (%v)", f, names)
		}
	}
}

// A batch stopped at any of its commits (a failed rename: a full disk, or
// where a kill would stop it) leaves the directory holding one batch's
// files: none of the earlier batch's remain beside the new batch's.
func TestBatchStoppedAtEachCommitNeverMixesTwoBatches(t *testing.T) {
	first := mustParse(t, smallBatch(t, "first", 1))
	second := mustParse(t, smallBatch(t, "second", 2))
	opt := Options{Workers: 1, Plot: "svg"}
	// The commits of the second batch, counted.
	commits := 0
	outdir.TestHookBeforeRename = func(string) error { commits++; return nil }
	defer func() { outdir.TestHookBeforeRename = nil }()
	opt.OutDir = t.TempDir()
	if _, err := Execute(context.Background(), second, opt); err != nil {
		t.Fatal(err)
	}
	if commits < 6 {
		t.Fatalf("%d commits, want one per output", commits)
	}
	for stop := range commits {
		dir := t.TempDir()
		opt.OutDir = dir
		outdir.TestHookBeforeRename = nil
		if _, err := Execute(context.Background(), first, opt); err != nil {
			t.Fatal(err)
		}
		earlier := readTree(t, dir)
		n := 0
		var stopped string
		outdir.TestHookBeforeRename = func(rel string) error {
			if n++; n > stop {
				if stopped == "" {
					stopped = rel
				}
				return errors.New("no space left on device")
			}
			return nil
		}
		if _, err := Execute(context.Background(), second, opt); err == nil {
			t.Fatalf("stopped at commit %d: no error", stop+1)
		}
		now := readTree(t, dir)
		if len(now) != stop {
			t.Errorf("stopped at commit %d (%s): %d files, want the %d committed before", stop+1, stopped, len(now), stop)
		}
		for f, data := range now {
			if earlier[f] == data {
				t.Errorf("stopped at commit %d (%s): the earlier batch's %s is still there", stop+1, stopped, f)
			}
		}
		if _, err := os.Stat(filepath.Join(dir, "summary.json")); err == nil && stopped != "" {
			t.Errorf("stopped at commit %d (%s): summary.json, which is written last, is there", stop+1, stopped)
		}
	}
}

// Every output name is checked before the runs: a symbolic link at
// summary.json is refused before any run starts, and nothing is written.
func TestOutputNamesCheckedBeforeTheRuns(t *testing.T) {
	for _, name := range []string{"summary.json", "results.csv", "timeseries.csv.gz", "part.json", "plots/sweep.svg", "plots/queue-cdf_rtt=100us.svg"} {
		dir := t.TempDir()
		os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755)
		if err := os.Symlink("/etc/passwd", filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
		ran := false
		res, err := Execute(context.Background(), mustParse(t, smallBatch(t, "b", 1)),
			Options{OutDir: dir, Plot: "svg", Part: recordPart{}, Progress: func(p batch.Progress) { ran = true }})
		if res != nil || !outdir.IsRefusal(err) || !strings.Contains(err.Error(), name+": is a symbolic link") {
			t.Errorf("%s a symbolic link: %v, want a refusal naming it", name, err)
		}
		if ran {
			t.Errorf("%s a symbolic link: refused only after the runs", name)
		}
		if _, err := os.Stat(filepath.Join(dir, "experiment.toml")); err == nil {
			t.Errorf("%s a symbolic link: experiment.toml was written", name)
		}
		// A refusal leaves nothing behind in the user's directory.
		if _, err := os.Lstat(filepath.Join(dir, outdir.JournalName)); err == nil {
			t.Errorf("%s a symbolic link: the refusal left %s behind", name, outdir.JournalName)
		}
	}
}

// A batch stopped before any run finished writes "runs": [], not null.
func TestSummaryOfNoRunsIsAnEmptyList(t *testing.T) {
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	Execute(ctx, mustParse(t, smallBatch(t, "none", 1)), Options{OutDir: dir})
	data, err := os.ReadFile(filepath.Join(dir, "summary.json"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), `"runs": []`) {
		t.Errorf("summary.json of no runs:\n%s", data)
	}
}

// A plotted batch stopped before any run finished keeps what it has (no
// runs) and reports the cancellation: no figure of its runs is drawn and
// none fails.
func TestPlottedBatchStoppedBeforeAnyRun(t *testing.T) {
	for _, format := range []string{"png", "svg"} {
		dir := t.TempDir()
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		res, err := Execute(ctx, mustParse(t, smallBatch(t, "none", 1)), Options{OutDir: dir, Plot: format, Series: Series{None: format == "svg"}})
		if !errors.Is(err, context.Canceled) || res == nil || len(res.Runs) != 0 || res.Complete {
			t.Fatalf("%s: %v, %+v; want cancelled with no runs", format, err, res)
		}
		if _, err := os.Stat(filepath.Join(dir, "summary.json")); err != nil {
			t.Errorf("%s: no summary.json: %v", format, err)
		}
	}
}

// Every name a batch writes is one the journal may have removed by the
// next batch (outdir.OutputName): otherwise an earlier batch's file would
// stay beside the next one's.
func TestEveryOutputIsAnOutputName(t *testing.T) {
	for _, name := range experiments.BuiltinNames() {
		e, err := experiments.Builtin(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, format := range plots.Formats {
			files, err := Files(e, Options{Plot: format})
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range files {
				if !outdir.OutputName(f, false) {
					t.Errorf("%s: %s is not an outdir.OutputName", name, f)
				}
				if dir := path.Dir(f); dir != "." && !outdir.OutputName(dir, true) {
					t.Errorf("%s: the folder of %s is not an outdir.OutputName", name, f)
				}
			}
		}
	}
}

// A sweep whose labels are longer than a file name may be still writes
// every run's data and figure (the figure's name cut short).
func TestLongLabelsLoseNoRun(t *testing.T) {
	dir := t.TempDir()
	long := strings.Repeat("a", 300)
	e := mustParse(t, smallBatch(t, "long", 1)+fmt.Sprintf("name = [%q, \"b\"]\n", long))
	res, err := Execute(context.Background(), e, Options{OutDir: dir, Plot: "svg", Series: Series{None: true}})
	if err != nil || len(res.Runs) != 4 {
		t.Fatalf("%v; %d runs, want 4 and no error", err, len(res.Runs))
	}
	figures, _ := filepath.Glob(filepath.Join(dir, "plots", "run*.svg"))
	if len(figures) != 4 {
		t.Errorf("%d run figures, want 4: %v", len(figures), figures)
	}
}

// A run's figure that cannot be written fails the batch (exit 1), but the
// run's data stays in summary.json and results.csv; so does a failed
// sweep figure, and the error names the output directory.
func TestFailedFigureKeepsTheData(t *testing.T) {
	for _, fail := range []string{"plots/run000", "plots/sweep", "plots/queue-cdf"} {
		dir := t.TempDir()
		outdir.TestHookBeforeRename = func(rel string) error {
			if strings.HasPrefix(rel, fail) {
				return errors.New("no space left on device")
			}
			return nil
		}
		res, err := Execute(context.Background(), mustParse(t, smallBatch(t, "fig", 1)), Options{OutDir: dir, Plot: "svg", Workers: 1})
		outdir.TestHookBeforeRename = nil
		if err == nil || !strings.Contains(err.Error(), filepath.Join(dir, fail)) || !strings.Contains(err.Error(), "no space left") {
			t.Errorf("%s failing: error %v, want one naming %s", fail, err, filepath.Join(dir, fail))
		}
		if outdir.IsRefusal(err) || errors.Is(err, context.Canceled) {
			t.Errorf("%s failing: %v is not a failed run", fail, err)
		}
		if res == nil || len(res.Runs) != 2 {
			t.Fatalf("%s failing: %+v, want both runs", fail, res)
		}
		data, err := os.ReadFile(filepath.Join(dir, "summary.json"))
		if err != nil || strings.Count(string(data), `"run": `) != 2 {
			t.Errorf("%s failing: summary.json %v:\n%s", fail, err, data)
		}
		csv, err := os.ReadFile(filepath.Join(dir, "results.csv"))
		if err != nil || strings.Count(string(csv), "\n") != 3 { // the header and a row per run
			t.Errorf("%s failing: results.csv lost a run: %v\n%s", fail, err, csv)
		}
	}
}
