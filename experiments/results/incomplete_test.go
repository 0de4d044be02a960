package results

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"syscall"
	"testing"

	"qcnlab/experiments/outdir"
)

// readIncomplete reads summary.json's list of what the directory lacks.
func readIncomplete(t *testing.T, dir string) (runs int, incomplete []IncompleteOutput) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, "summary.json"))
	if err != nil {
		t.Fatal(err)
	}
	var back Result
	if err := json.Unmarshal(data, &back); err != nil {
		t.Fatal(err)
	}
	if back.Complete {
		t.Error("summary.json says complete")
	}
	return len(back.Runs), back.Incomplete
}

// A disk that fills during the first run leaves no part whole: the time
// series is not written as its header alone, which would read as runs of
// no rows; summary.json and the error name it, and every run's numbers
// are kept.
func TestFullDiskInTheFirstRunWritesNoHeaderAlone(t *testing.T) {
	testHookPart = (&fullDisk{whole: 0}).part
	defer func() { testHookPart = nil }()
	dir := t.TempDir()
	_, err := Execute(context.Background(), sweepExperiment(t), Options{Workers: 1, OutDir: dir})
	if err == nil || !strings.Contains(err.Error(), dir+" lacks: "+SeriesFile) {
		t.Errorf("error %v, want one saying %s lacks %s", err, dir, SeriesFile)
	}
	if _, serr := os.Stat(filepath.Join(dir, SeriesFile)); serr == nil {
		t.Errorf("%s is written with no run's rows", SeriesFile)
	}
	runs, incomplete := readIncomplete(t, dir)
	want := []IncompleteOutput{{File: SeriesFile, Written: false, Lacks: []int{0, 1, 2, 3}}}
	if runs != 4 || !reflect.DeepEqual(incomplete, want) {
		t.Errorf("summary.json: %d runs, incomplete_outputs %+v; want 4 runs, %+v", runs, incomplete, want)
	}
	if _, err := os.Stat(filepath.Join(dir, "results.csv")); err != nil {
		t.Error(err)
	}
}

// A time series that holds some of the runs says which it lacks; the
// runs' figures are one entry, and the sweep's figures, which gave way to
// the numbers, are named too.
func TestFullDiskNamesTheRunsAFileLacks(t *testing.T) {
	testHookPart = (&fullDisk{whole: 1}).part
	defer func() { testHookPart = nil }()
	dir := t.TempDir()
	_, err := Execute(context.Background(), sweepExperiment(t), Options{Workers: 1, OutDir: dir, Plot: "svg"})
	lacks := dir + " lacks: the rows of 3 runs (1 to 3) in " + SeriesFile + "; the figures of 3 runs (1 to 3); " +
		"the sweep's figures plots/sweep.svg, plots/queue-cdf_rtt=100us.svg, plots/queue-cdf_rtt=300us.svg"
	if err == nil || !strings.Contains(err.Error(), lacks) {
		t.Errorf("error %v\nwant one saying %q", err, lacks)
	}
	_, incomplete := readIncomplete(t, dir)
	all := []int{0, 1, 2, 3}
	want := []IncompleteOutput{
		{File: SeriesFile, Written: true, Lacks: []int{1, 2, 3}},
		{File: "plots/run*.svg", Written: false, Lacks: []int{1, 2, 3}},
		{File: "plots/sweep.svg", Lacks: all},
		{File: "plots/queue-cdf_rtt=100us.svg", Lacks: all},
		{File: "plots/queue-cdf_rtt=300us.svg", Lacks: all},
	}
	if !reflect.DeepEqual(incomplete, want) {
		t.Errorf("incomplete_outputs\n%+v\nwant\n%+v", incomplete, want)
	}
	for _, f := range want[2:] {
		if _, err := os.Stat(filepath.Join(dir, f.File)); err == nil {
			t.Errorf("%s is there", f.File)
		}
	}
	for i := 1; i <= 3; i++ {
		if m, _ := filepath.Glob(filepath.Join(dir, "plots", fmt.Sprintf("run%03d_*", i))); len(m) > 0 {
			t.Errorf("%s is there", m[0])
		}
	}
}

// A sweep's figure that Finish cannot write is named in summary.json and
// in what the directory lacks.
func TestFailedSweepFigureIsNamed(t *testing.T) {
	outdir.TestHookBeforeRename = func(rel string) error {
		if rel == "plots/sweep.svg" {
			return syscall.ENOSPC
		}
		return nil
	}
	defer func() { outdir.TestHookBeforeRename = nil }()
	dir := t.TempDir()
	_, err := Execute(context.Background(), sweepExperiment(t), Options{Workers: 1, OutDir: dir, Plot: "svg"})
	if err == nil || !strings.Contains(err.Error(), dir+" lacks: the sweep's figure plots/sweep.svg") {
		t.Errorf("error %v, want one saying %s lacks plots/sweep.svg", err, dir)
	}
	_, incomplete := readIncomplete(t, dir)
	want := []IncompleteOutput{{File: "plots/sweep.svg", Lacks: []int{0, 1, 2, 3}}}
	if !reflect.DeepEqual(incomplete, want) {
		t.Errorf("incomplete_outputs %+v, want %+v", incomplete, want)
	}
}

// flows.csv.gz goes the same way as the time series.
func TestFullDiskWritesNoFlowsHeaderAlone(t *testing.T) {
	testHookPart = (&fullDisk{whole: 0}).part
	defer func() { testHookPart = nil }()
	dir := t.TempDir()
	_, err := Execute(context.Background(), mustParse(t, fctExperiment(t)), Options{Workers: 1, OutDir: dir, Series: Series{None: true}})
	if err == nil || !strings.Contains(err.Error(), dir+" lacks: "+FlowsFile) {
		t.Errorf("error %v, want one saying %s lacks %s", err, dir, FlowsFile)
	}
	if _, serr := os.Stat(filepath.Join(dir, FlowsFile)); serr == nil {
		t.Errorf("%s is written with no run's rows", FlowsFile)
	}
	_, incomplete := readIncomplete(t, dir)
	if len(incomplete) != 1 || incomplete[0].File != FlowsFile || incomplete[0].Written || len(incomplete[0].Lacks) != 4 {
		t.Errorf("incomplete_outputs %+v, want %s, not written, lacking the 4 runs", incomplete, FlowsFile)
	}
}

// A disk that fills as timeseries.csv.gz is joined: the file is named once,
// by its path, and not after the directory's name again ("DIR: DIR/...").
func TestFullDiskAtTheJoinNamesTheFileOnce(t *testing.T) {
	outdir.TestHookBeforeRename = func(rel string) error {
		if rel == SeriesFile {
			return syscall.ENOSPC
		}
		return nil
	}
	defer func() { outdir.TestHookBeforeRename = nil }()
	dir := t.TempDir()
	_, err := Execute(context.Background(), sweepExperiment(t), Options{Workers: 1, OutDir: dir})
	if err == nil {
		t.Fatal("no error")
	}
	msg, file := err.Error(), filepath.Join(dir, SeriesFile)
	if strings.Contains(msg, dir+": "+dir) || strings.Count(msg, file) != 1 || !strings.Contains(msg, file+": no space left on device") {
		t.Errorf("error %q\nwant %s named once, as %q", msg, SeriesFile, file+": no space left on device")
	}
	for _, want := range []string{"the numbers of the 4 finished runs are in summary.json, results.csv and the printed summary", dir + " lacks: " + SeriesFile} {
		if !strings.Contains(msg, want) {
			t.Errorf("error %q\nsays nothing of %q", msg, want)
		}
	}
}

// A write to an output's temporary that fails is named by the output,
// not by nothing: "write DIR/.results.csv.RANDOM.tmp: no space left on
// device" alone said "no space left on device".
func TestFailedWriteOfATemporaryNamesTheOutput(t *testing.T) {
	err := &os.PathError{Op: "write", Path: filepath.Join("out", ".results.csv.0123456789ab.tmp"), Err: syscall.ENOSPC}
	if got := withoutTemp(err); got.Error() != filepath.Join("out", "results.csv")+": no space left on device" {
		t.Errorf("%q, want out/results.csv named", got)
	}
}
