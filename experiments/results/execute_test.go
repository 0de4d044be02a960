package results

import (
	"compress/gzip"
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"qcnlab/algos"
	"qcnlab/experiments"
	"qcnlab/experiments/batch"
	"qcnlab/experiments/outdir"
	"qcnlab/experiments/plots"
	"qcnlab/units"
)

// TestDefaultExperimentControlsTheQueue is the acceptance check: on
// the built-in default (4 sources, 10 Gbps), QCN keeps the queue near q_eq
// with utilization above 95% and no drops after warm-up.
func TestDefaultExperimentControlsTheQueue(t *testing.T) {
	e, err := experiments.Builtin(experiments.DefaultName)
	if err != nil {
		t.Fatal(err)
	}
	res, err := Execute(context.Background(), e, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Runs) != 1 || !res.Complete {
		t.Fatalf("%d runs, complete %v", len(res.Runs), res.Complete)
	}
	r := res.Runs[0]
	b := r.Bottlenecks[0]
	if b.Utilization < 0.95 {
		t.Errorf("utilization %.4f, want above 0.95", b.Utilization)
	}
	if b.Drops != 0 {
		t.Errorf("%d drops after warm-up", b.Drops)
	}
	if b.QEq != 33e3 || b.QueueMean < 0.8*b.QEq || b.QueueMean > 1.2*b.QEq || b.QueueStd > 0.25*b.QEq {
		t.Errorf("queue mean %.0f std %.0f, want near q_eq %.0f", b.QueueMean, b.QueueStd, b.QEq)
	}
	if b.QueueMax >= 150e3 || b.EmptyFraction > 0.01 {
		t.Errorf("queue max %.0f, empty %.3f", b.QueueMax, b.EmptyFraction)
	}
	if r.Frames == 0 || r.Events < r.Frames || r.SimSeconds != 0.1 || r.Algorithm != "qcn" || r.Model != "packet" {
		t.Errorf("run header %+v", r.Summary)
	}
}

// sweepExperiment is a small batch: two RTTs x two seeds of QCN.
func sweepExperiment(t *testing.T) *experiments.Experiment {
	return mustParse(t, `
name = "batch"
duration = "10ms"
algorithms = ["qcn"]
[sources]
count = 3
[params.qcn]
q_eq = "33KB"
[sweep]
network.rtt = ["100us", "300us"]
seed = [1, 2]
`)
}

func mustParse(t testing.TB, text string) *experiments.Experiment {
	t.Helper()
	e, err := experiments.Parse("test.toml", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func TestSameNumbersWhateverTheWorkers(t *testing.T) {
	var outs []string
	for _, workers := range []int{1, 2, 4} {
		dir := t.TempDir()
		res, err := Execute(context.Background(), sweepExperiment(t), Options{Workers: workers, OutDir: dir})
		if err != nil {
			t.Fatal(err)
		}
		js, _ := json.Marshal(batch.ReproducibleRuns(res.Runs))
		series, err := os.ReadFile(filepath.Join(dir, "timeseries.csv.gz"))
		if err != nil {
			t.Fatal(err)
		}
		outs = append(outs, string(js)+string(series))
	}
	if outs[0] != outs[1] || outs[0] != outs[2] {
		t.Error("results differ with the number of workers")
	}
}

func TestOutputFiles(t *testing.T) {
	dir := t.TempDir()
	e := sweepExperiment(t)
	res, err := Execute(context.Background(), e, Options{OutDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Runs) != 4 {
		t.Fatalf("%d runs", len(res.Runs))
	}
	if p := res.Runs[3].Point; p["network.rtt"] != `"300us"` || p["seed"] != "2" || res.Runs[3].Seed != 2 {
		t.Errorf("last run point %v seed %d", p, res.Runs[3].Seed)
	}
	// summary.json is the result.
	var back Result
	data, _ := os.ReadFile(filepath.Join(dir, "summary.json"))
	if err := json.Unmarshal(data, &back); err != nil || len(back.Runs) != 4 || !back.Complete || back.Experiment != "batch" {
		t.Fatalf("summary.json: %v %+v", err, back)
	}
	for _, field := range []string{`"utilization"`, `"queue_mean_bytes"`, `"time_to_fairness_seconds"`, `"jain_fairness"`, `"throughput_bps"`} {
		if !strings.Contains(string(data), field) {
			t.Errorf("summary.json lacks %s", field)
		}
	}
	// timeseries.csv.gz: header, then 1000 samples per run, runs in order,
	// named as in results.csv: run, the swept values in base units,
	// algorithm, seed.
	rows := readSeries(t, dir)
	wantHeader := "run,network.rtt_s,algorithm,seed,time_s,queue_sw0_bytes,rate_0_bps,rate_1_bps,rate_2_bps,capacity_sw0_bps"
	if got := strings.Join(rows[0], ","); got != wantHeader {
		t.Errorf("header %q, want %q", got, wantHeader)
	}
	if len(rows) != 1+4*1000 {
		t.Fatalf("%d rows, want 4 runs x 1000 samples", len(rows)-1)
	}
	if c := rows[1][len(rows[1])-1]; c != "1e+10" {
		t.Errorf("capacity column %q, want the 10 Gbps in force", c)
	}
	if strings.Join(rows[1][:5], ",") != "0,0.0001,qcn,1,1e-05" || strings.Join(rows[4000][:5], ",") != "3,0.0003,qcn,2,0.01" {
		t.Errorf("first row %v, last row %v", rows[1], rows[4000])
	}
	// experiment.toml loads back to the same runs.
	saved, err := experiments.Load(filepath.Join(dir, "experiment.toml"))
	if err != nil {
		t.Fatal(err)
	}
	runs, _ := saved.Runs()
	if len(runs) != 4 {
		t.Errorf("saved experiment has %d runs", len(runs))
	}
	// No temporary files or parts are left: the outputs and the list of
	// them that lets the next batch clean up after this one.
	entries, _ := os.ReadDir(dir)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if want := ".qcnlab-outputs experiment.toml ports.csv.gz results.csv summary.json timeseries.csv.gz"; strings.Join(names, " ") != want {
		t.Errorf("output dir holds %v, want %s", names, want)
	}
}

// TestCancelledBatchKeepsFinishedRuns stops a batch after its second run
// finishes and checks that what finished is returned and written.
func TestCancelledBatchKeepsFinishedRuns(t *testing.T) {
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	opt := Options{Workers: 1, OutDir: dir, Progress: func(p batch.Progress) {
		if p.Done == 2 {
			cancel()
		}
	}}
	res, err := Execute(ctx, sweepExperiment(t), opt)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("error %v, want cancelled", err)
	}
	if res == nil || res.Complete || len(res.Runs) != 2 {
		t.Fatalf("result %+v", res)
	}
	var back Result
	data, _ := os.ReadFile(filepath.Join(dir, "summary.json"))
	if err := json.Unmarshal(data, &back); err != nil || len(back.Runs) != 2 || back.Complete {
		t.Fatalf("summary.json after cancel: %v %+v", err, back)
	}
	if n := len(readSeries(t, dir)); n != 1+2*1000 {
		t.Errorf("timeseries.csv.gz has %d lines, want the header and two runs", n)
	}
}

// readSeries reads an output directory's timeseries.csv.gz.
func readSeries(t *testing.T, dir string) [][]string {
	t.Helper()
	f, err := os.Open(filepath.Join(dir, SeriesFile))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	z, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(z).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

// --series none writes no time series; --series 1ms one row per
// millisecond, at the same times in every run.
func TestSeriesModes(t *testing.T) {
	dir := t.TempDir()
	none, _ := ParseSeries("none")
	if _, err := Execute(context.Background(), sweepExperiment(t), Options{OutDir: dir, Series: none}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, SeriesFile)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("--series none wrote a time series: %v", err)
	}
	every, err := ParseSeries("1ms")
	if err != nil || every.Every != algos.Millisecond {
		t.Fatalf("%+v %v", every, err)
	}
	if _, err := Execute(context.Background(), sweepExperiment(t), Options{OutDir: dir, Series: every}); err != nil {
		t.Fatal(err)
	}
	rows := readSeries(t, dir)
	if len(rows) != 1+4*11 {
		t.Fatalf("%d rows, want 4 runs x 11 (10 ms, one row per ms and the end)", len(rows)-1)
	}
	var times []string
	for _, r := range rows[1:12] {
		times = append(times, r[4])
	}
	if got := strings.Join(times, " "); got != "1e-05 0.001 0.002 0.003 0.004 0.005 0.006 0.007 0.008 0.009 0.01" {
		t.Errorf("times %s", got)
	}
	for _, bad := range []string{"0s", "fast", "-1ms", "never"} {
		if _, err := ParseSeries(bad); err == nil {
			t.Errorf("--series %s accepted", bad)
		}
	}
}

// The run column joins results.csv, timeseries.csv.gz and summary.json.
func TestRunColumnJoins(t *testing.T) {
	dir := t.TempDir()
	res, err := Execute(context.Background(), sweepExperiment(t), Options{OutDir: dir, Workers: 3})
	if err != nil {
		t.Fatal(err)
	}
	f, _ := os.Open(filepath.Join(dir, "results.csv"))
	defer f.Close()
	table, _ := csv.NewReader(f).ReadAll()
	series := readSeries(t, dir)
	for i, r := range res.Runs {
		if r.Run != i || table[1+i][0] != strconv.Itoa(i) {
			t.Errorf("run %d: summary says %d, results.csv %s", i, r.Run, table[1+i][0])
		}
		row := series[1+i*1000]
		if row[0] != strconv.Itoa(i) || row[1] != table[1+i][1] || row[2] != r.Algorithm || row[3] != strconv.FormatUint(r.Seed, 10) {
			t.Errorf("run %d: time series row %v, results.csv row %v", i, row[:4], table[1+i][:4])
		}
	}
}

func TestSummariesRepeatExactly(t *testing.T) {
	e, _ := experiments.Builtin(experiments.DefaultName)
	a, err1 := Execute(context.Background(), e, Options{})
	b, err2 := Execute(context.Background(), e.Clone(), Options{})
	if err1 != nil || err2 != nil {
		t.Fatal(err1, err2)
	}
	ja, _ := json.Marshal(batch.ReproducibleRuns(a.Runs))
	jb, _ := json.Marshal(batch.ReproducibleRuns(b.Runs))
	if string(ja) != string(jb) {
		t.Errorf("two runs of the same experiment differ:\n%s\n%s", ja, jb)
	}
}

func TestPlots(t *testing.T) {
	for _, format := range plots.Formats {
		dir := t.TempDir()
		e := sweepExperiment(t)
		if _, err := Execute(context.Background(), e, Options{OutDir: dir, Plot: format}); err != nil {
			t.Fatal(err)
		}
		files, _ := filepath.Glob(filepath.Join(dir, "plots", "run*."+format))
		if len(files) != 4 {
			t.Fatalf("%s: %d figures, want one per run: %v", format, len(files), files)
		}
		if filepath.Base(files[3]) != "run003_qcn_rtt=300us_seed=2."+format {
			t.Errorf("figure name %s", filepath.Base(files[3]))
		}
		// The sweep's figure and a queue CDF per point, the seeds pooled.
		files = append(files, filepath.Join(dir, "plots", "sweep."+format),
			filepath.Join(dir, "plots", "queue-cdf_rtt=100us."+format), filepath.Join(dir, "plots", "queue-cdf_rtt=300us."+format))
		for _, f := range files {
			data, _ := os.ReadFile(f)
			magic := map[string]string{"png": "\x89PNG", "svg": "<?xml", "pdf": "%PDF"}[format]
			if !strings.HasPrefix(string(data), magic) || len(data) < 1000 {
				t.Errorf("%s: not a %s figure (%d bytes)", f, format, len(data))
			}
		}
	}
	if _, err := Execute(context.Background(), sweepExperiment(t), Options{Plot: "png"}); err == nil {
		t.Error("plots without an output directory accepted")
	}
}

// Two batches into one directory at once: the second refuses before it
// writes anything, and the first finishes with all its runs.
func TestSecondBatchIntoABusyDirectoryRefuses(t *testing.T) {
	dir := t.TempDir()
	e := experiments.Default()
	e.Duration = units.Duration(2 * algos.Millisecond)
	started, release := make(chan struct{}), make(chan struct{})
	var first *Result
	var firstErr error
	done := make(chan struct{})
	go func() {
		defer close(done)
		var once sync.Once
		first, firstErr = Execute(context.Background(), e, Options{Workers: 1, OutDir: dir, Progress: func(batch.Progress) {
			once.Do(func() { close(started); <-release })
		}})
	}()
	select {
	case <-started:
	case <-done:
		t.Fatalf("the first batch ended before reporting progress: %v", firstErr)
	}
	_, err := Execute(context.Background(), e, Options{Workers: 1, OutDir: dir})
	close(release)
	<-done
	if !errors.Is(err, outdir.ErrBusy) || !strings.Contains(err.Error(), dir) {
		t.Errorf("the second batch: %v, want a refusal naming the busy directory", err)
	}
	if firstErr != nil || !first.Complete {
		t.Fatalf("the first batch: %v", firstErr)
	}
	if _, err := os.Stat(filepath.Join(dir, "summary.json")); err != nil {
		t.Error("the first batch's summary is missing")
	}
}
