package results

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"syscall"
	"testing"

	"qcnlab/experiments/batch"
	"qcnlab/experiments/outdir"
)

// fullDisk is a disk that takes the first parts whole and fails every
// write of the later ones with ENOSPC.
type fullDisk struct {
	mu    sync.Mutex
	whole int // the parts it takes
	parts int // the parts begun
}

func (d *fullDisk) part(f io.Writer) io.Writer {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.parts++
	if d.parts <= d.whole {
		return f
	}
	return failingWriter{}
}

type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) {
	return 0, &os.PathError{Op: "write", Path: ".parts-x/000001.csv.gz", Err: syscall.ENOSPC}
}

// A batch whose disk fills keeps the numbers of every run: on stdout, in
// summary.json and results.csv (small, they may still fit), and says what
// it lost by the outputs' own names. The runs that start after the disk
// filled run without their files.
func TestFullDiskKeepsEveryRunsNumbers(t *testing.T) {
	disk := &fullDisk{whole: 1}
	testHookPart = disk.part
	defer func() { testHookPart = nil }()
	dir := t.TempDir()
	res, err := Execute(context.Background(), sweepExperiment(t), Options{Workers: 1, OutDir: dir, Part: recordPart{}})
	if err == nil {
		t.Fatal("no error")
	}
	msg := err.Error()
	for _, want := range []string{
		runLabel(t, 1) + ": its rows of " + filepath.Join(dir, SeriesFile) + ": no space left on device",
		dir + ": no space left on device, found writing run 1's files; so the 2 runs (2 to 3) that started after it ran without theirs",
		"the numbers of the 4 finished runs are in summary.json",
		filepath.Join(dir, "part.json") + ": not written",
	} {
		if !strings.Contains(msg, want) {
			t.Errorf("error %q\nsays nothing of %q", msg, want)
		}
	}
	if strings.Contains(msg, ".tmp") || strings.Contains(msg, ".parts") {
		t.Errorf("error %q names a temporary file", msg)
	}
	if disk.parts != 2 {
		t.Errorf("%d runs began a part after the disk filled, want none", disk.parts-2)
	}
	if res == nil || len(res.Runs) != 4 || res.Complete {
		t.Fatalf("%s, want 4 runs, incomplete", described(res))
	}
	var text bytes.Buffer
	WriteText(&text, res)
	if !strings.Contains(text.String(), "every run finished, but some of their files could not be written") {
		t.Errorf("the summary does not say what was lost:\n%s", &text)
	}
	var back Result
	data, _ := os.ReadFile(filepath.Join(dir, "summary.json"))
	if err := json.Unmarshal(data, &back); err != nil || len(back.Runs) != 4 || back.Complete {
		t.Errorf("summary.json: %v, %d runs, complete %v; want 4 runs, incomplete", err, len(back.Runs), back.Complete)
	}
	if csv, err := os.ReadFile(filepath.Join(dir, "results.csv")); err != nil || bytes.Count(csv, []byte("\n")) != 5 {
		t.Errorf("results.csv %v:\n%s", err, csv)
	}
	// Run 0's rows, whole, and no one else's.
	rows := readSeries(t, dir)
	if len(rows) != 1+1000 || rows[len(rows)-1][0] != "0" {
		t.Errorf("timeseries.csv.gz: %d lines, the last of run %s; want the header and run 0's 1000", len(rows), rows[len(rows)-1][0])
	}
	if _, err := os.Stat(filepath.Join(dir, "part.json")); err == nil {
		t.Error("a part whose runs lack their files is recorded as one to merge")
	}
}

// runLabel is the label of run i of sweepExperiment.
func runLabel(t *testing.T, i int) string {
	runs, err := sweepExperiment(t).Runs()
	if err != nil {
		t.Fatal(err)
	}
	return runs[i].Label()
}

// A batch whose directory is removed while it runs keeps every run's
// numbers (the printed summary is all that holds them) and says the
// directory is gone.
func TestRemovedDirectoryKeepsEveryRunsNumbers(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	opt := Options{Workers: 1, OutDir: dir, Progress: func(p batch.Progress) {
		if p.Done == 1 {
			os.RemoveAll(dir)
		}
	}}
	res, err := Execute(context.Background(), sweepExperiment(t), opt)
	if err == nil || !strings.Contains(err.Error(), dir+": the directory is gone") ||
		!strings.Contains(err.Error(), "the numbers of the 4 finished runs are only in the printed summary") {
		t.Errorf("error %v, want one saying the directory is gone and where the numbers are", err)
	}
	if res == nil || len(res.Runs) != 4 || res.Complete {
		t.Fatalf("%s, want 4 runs, incomplete", described(res))
	}
}

// described says how many runs a result holds, and if it is complete.
func described(res *Result) string {
	if res == nil {
		return "no result"
	}
	return fmt.Sprintf("%d runs, complete %v", len(res.Runs), res.Complete)
}

// The flows of a given size go the same way: the run whose part fails
// keeps its summary, flows.csv.gz holds the whole parts only, and fct.csv,
// from the summaries, holds every run.
func TestFullDiskKeepsTheFlowStatistics(t *testing.T) {
	disk := &fullDisk{whole: 1}
	testHookPart = disk.part
	defer func() { testHookPart = nil }()
	dir := t.TempDir()
	res, err := Execute(context.Background(), mustParse(t, fctExperiment(t)), Options{Workers: 1, OutDir: dir, Series: Series{None: true}})
	if err == nil || !strings.Contains(err.Error(), "its rows of "+filepath.Join(dir, FlowsFile)+": no space left on device") {
		t.Errorf("error %v, want one naming %s", err, FlowsFile)
	}
	if res == nil || len(res.Runs) != 4 || res.Complete {
		t.Fatalf("%s, want 4 runs, incomplete", described(res))
	}
	_, rows := readCSVGz(t, filepath.Join(dir, FlowsFile))
	if len(rows) == 0 || rows[0][0] != "0" || rows[len(rows)-1][0] != "0" {
		t.Errorf("flows.csv.gz holds %d rows, want run 0's only", len(rows))
	}
	if _, err := os.Stat(filepath.Join(dir, FCTFile)); err != nil {
		t.Error(err)
	}
}

// Once the disk is full, the sweep's figures give way to the numbers:
// summary.json gets what room is left, and the error says so.
func TestFullDiskLeavesTheRoomToTheNumbers(t *testing.T) {
	disk := &fullDisk{whole: 1}
	testHookPart = disk.part
	defer func() { testHookPart = nil }()
	dir := t.TempDir()
	_, err := Execute(context.Background(), sweepExperiment(t), Options{Workers: 1, OutDir: dir, Plot: "svg"})
	if err == nil || !strings.Contains(err.Error(), filepath.Join(dir, "plots")+": the sweep's figures are not drawn") {
		t.Errorf("error %v, want one saying the sweep's figures are not drawn", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "plots", "sweep.svg")); err == nil {
		t.Error("the sweep's figure is drawn on a full disk")
	}
	if _, err := os.Stat(filepath.Join(dir, "summary.json")); err != nil {
		t.Error(err)
	}
}

// An output that fails is named, not the temporary file it was written
// through.
func TestFailedWriteNamesTheOutput(t *testing.T) {
	err := fmt.Errorf("%s: %w", "out/summary.json", &os.PathError{Op: "write", Path: "out/.summary.json.0123456789ab.tmp", Err: syscall.ENOSPC})
	got := withoutTemp(err)
	if got.Error() != "out/summary.json: no space left on device" || !errors.Is(got, syscall.ENOSPC) {
		t.Errorf("%q (ENOSPC %v), want out/summary.json named", got, errors.Is(got, syscall.ENOSPC))
	}
}

// A disk with room for every output, but not for the runs' parts beside
// them: each part's room goes to the outputs after its file is joined, so
// results.csv and summary.json, written last, fit. (The parts used to stay
// to the batch's end, and summary.json was refused for want of their room.)
func TestJoinedPartsLeaveTheirRoomToTheNumbers(t *testing.T) {
	e := mustParse(t, fctExperiment(t))
	spare := t.TempDir()
	if _, err := Execute(context.Background(), e, Options{Workers: 1, OutDir: spare}); err != nil {
		t.Fatal(err)
	}
	// Every output, on a disk with room to spare, and a little more: the
	// wall times' digits vary.
	room := usedBytes(t, spare) + 1024
	if info, err := os.Stat(filepath.Join(spare, SeriesFile)); err != nil || info.Size() < 4*1024 {
		t.Fatalf("%s: %v; want parts larger than the slack", SeriesFile, err)
	}
	dir := t.TempDir()
	outdir.TestHookBeforeRename = func(string) error {
		if usedBytes(t, dir) > room { // the file to commit is written whole by now
			return syscall.ENOSPC
		}
		return nil
	}
	defer func() { outdir.TestHookBeforeRename = nil }()
	res, err := Execute(context.Background(), e, Options{Workers: 1, OutDir: dir})
	if err != nil {
		t.Errorf("a disk with room for every output: %v", err)
	}
	if res == nil || !res.Complete {
		t.Errorf("%s, want complete", described(res))
	}
	for _, name := range []string{SeriesFile, FlowsFile, "results.csv", "summary.json"} {
		if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
			t.Error(err)
		}
	}
}

// usedBytes is what the files in dir hold, its temporaries and parts
// included, the journal not (its size varies as it is written).
func usedBytes(t *testing.T, dir string) int64 {
	var n int64
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || d.Name() == outdir.JournalName {
			return err
		}
		info, err := d.Info()
		if err == nil {
			n += info.Size()
		}
		return err
	})
	if err != nil {
		t.Error(err)
	}
	return n
}

// A disk with room for the runs' numbers, but not beside the time series as
// well: the time series gives way, and results.csv and summary.json, which
// hold every run's numbers, are written.
func TestTheTimeSeriesGivesWayToTheNumbers(t *testing.T) {
	e := mustParse(t, fctExperiment(t))
	spare := t.TempDir()
	if _, err := Execute(context.Background(), e, Options{Workers: 1, OutDir: spare}); err != nil {
		t.Fatal(err)
	}
	series, err := os.Stat(filepath.Join(spare, SeriesFile))
	if err != nil {
		t.Fatal(err)
	}
	room := usedBytes(t, spare) - series.Size()/2
	dir := t.TempDir()
	full := func() error {
		if usedBytes(t, dir) > room {
			return syscall.ENOSPC
		}
		return nil
	}
	// A disk refuses a write, not a rename: each file's room is checked
	// once it is written, summary.json's before the joined files'
	// renames, and the rest at their own (the joined files' room, taken as
	// they were written, at the next).
	testHookSummaryWritten = full
	outdir.TestHookBeforeRename = func(rel string) error {
		if rel == SeriesFile || rel == FlowsFile || rel == "summary.json" {
			return nil
		}
		return full()
	}
	testHookFreeSpace = func() (int64, error) { return room - usedBytes(t, dir), nil }
	defer func() { outdir.TestHookBeforeRename, testHookSummaryWritten, testHookFreeSpace = nil, nil, nil }()
	res, err := Execute(context.Background(), e, Options{Workers: 1, OutDir: dir})
	if want := filepath.Join(dir, SeriesFile) + ": not written, to leave its room to the runs' numbers"; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("error %v\nwant one saying %q", err, want)
	}
	if res == nil || len(res.Runs) != 4 || res.Complete {
		t.Fatalf("%s, want 4 runs, incomplete", described(res))
	}
	if _, err := os.Stat(filepath.Join(dir, SeriesFile)); err == nil {
		t.Errorf("%s is there", SeriesFile)
	}
	for _, name := range []string{"results.csv", FlowsFile} {
		if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
			t.Error(err)
		}
	}
	runs, incomplete := readIncomplete(t, dir)
	want := []IncompleteOutput{{File: SeriesFile, Written: false, Lacks: []int{0, 1, 2, 3}}}
	if runs != 4 || !reflect.DeepEqual(incomplete, want) {
		t.Errorf("summary.json: %d runs, incomplete_outputs %+v; want 4 runs, %+v", runs, incomplete, want)
	}
}
