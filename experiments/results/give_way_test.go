package results

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"

	"qcnlab/experiments/outdir"
)

// summaryNeverFits fails every write of summary.json with ENOSPC, and says
// that free is the disk's free space (an error: it cannot be read; nil: the
// real disk's, with room to spare).
func summaryNeverFits(t *testing.T, free func() (int64, error)) {
	testHookSummaryWritten = func() error { return syscall.ENOSPC }
	testHookFreeSpace = free
	t.Cleanup(func() { testHookSummaryWritten, testHookFreeSpace = nil, nil })
}

// joinedFilesKept runs fctExperiment into a directory where summary.json
// never fits, and checks that the joined files, written whole, are kept:
// discarded, they would free room for nothing.
func joinedFilesKept(t *testing.T) {
	t.Helper()
	dir := t.TempDir()
	_, err := Execute(context.Background(), mustParse(t, fctExperiment(t)), Options{Workers: 1, OutDir: dir})
	if err == nil {
		t.Fatal("no error, want summary.json not written")
	}
	if strings.Contains(err.Error(), "to leave its room") {
		t.Errorf("error %q: a joined file gave way", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "summary.json")); err == nil {
		t.Fatal("summary.json is there")
	}
	for _, name := range []string{SeriesFile, FlowsFile} {
		if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
			t.Errorf("%s, written whole, was discarded and freed room for nothing: %v", name, err)
		}
	}
}

// A full disk whose free space, with the joined files' room, is still less
// than summary.json needs (the disk is held by another program, or by the
// runs' figures): the joined files stay.
func TestJoinedFilesNotDiscardedWhenTheirRoomCannotMakeTheNumbersFit(t *testing.T) {
	summaryNeverFits(t, func() (int64, error) { return 0, nil })
	joinedFilesKept(t)
}

// A disk that says it has room for summary.json, yet refuses it (a quota
// is full, not the disk): their room would not help.
func TestJoinedFilesNotDiscardedWhenTheDiskSaysItHasRoom(t *testing.T) {
	summaryNeverFits(t, nil)
	joinedFilesKept(t)
}

// A disk whose free space cannot be read: nothing says that their room
// would help.
func TestJoinedFilesNotDiscardedWhenTheFreeSpaceIsUnknown(t *testing.T) {
	summaryNeverFits(t, func() (int64, error) { return 0, errors.New("statfs: not supported") })
	joinedFilesKept(t)
}

// failResultsOnce fails results.csv's first rename with ENOSPC.
func failResultsOnce(t *testing.T) {
	failed := false
	outdir.TestHookBeforeRename = func(rel string) error {
		if rel == "results.csv" && !failed {
			failed = true
			return syscall.ENOSPC
		}
		return nil
	}
	t.Cleanup(func() { outdir.TestHookBeforeRename = nil })
}

// noSweepFigures runs sweepExperiment with figures, and checks that its
// sweep figures are not drawn but named as lacking, summary.json written.
func noSweepFigures(t *testing.T) (dir string) {
	t.Helper()
	dir = t.TempDir()
	_, err := Execute(context.Background(), sweepExperiment(t), Options{Workers: 1, OutDir: dir, Plot: "svg"})
	if want := filepath.Join(dir, "plots") + ": the sweep's figures are not drawn"; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("error %v\nwant one saying %q", err, want)
	}
	if m, _ := filepath.Glob(filepath.Join(dir, "plots", "queue-cdf*")); len(m) > 0 {
		t.Errorf("%s drawn into the room the numbers need", m)
	}
	_, incomplete := readIncomplete(t, dir)
	for _, name := range []string{"plots/queue-cdf_rtt=100us.svg", "plots/queue-cdf_rtt=300us.svg", "plots/sweep.svg"} {
		if !slices.ContainsFunc(incomplete, func(f IncompleteOutput) bool { return f.File == name && !f.Written }) {
			t.Errorf("incomplete_outputs %+v does not name %s", incomplete, name)
		}
	}
	return dir
}

// Once the time series has given way to a file of the numbers at the
// batch's end, the sweep's figures are not drawn into the room that
// summary.json, still to write, needs.
func TestNoSweepFiguresAfterTheSeriesGaveWay(t *testing.T) {
	failResultsOnce(t)
	testHookFreeSpace = func() (int64, error) { return 0, nil } // the series' room lets results.csv fit
	defer func() { testHookFreeSpace = nil }()
	dir := noSweepFigures(t)
	if _, err := os.Stat(filepath.Join(dir, SeriesFile)); err == nil {
		t.Errorf("%s is there: it did not give way", SeriesFile)
	}
	if _, err := os.Stat(filepath.Join(dir, "results.csv")); err != nil {
		t.Error(err)
	}
}

// Nor once a file of the numbers failed at the batch's end, nothing
// having given way.
func TestNoSweepFiguresAfterANumbersFileFailed(t *testing.T) {
	failResultsOnce(t)
	dir := noSweepFigures(t)
	if _, err := os.Stat(filepath.Join(dir, SeriesFile)); err != nil {
		t.Errorf("%s gave way on a disk with room: %v", SeriesFile, err)
	}
}
