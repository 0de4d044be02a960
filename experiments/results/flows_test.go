package results

import (
	"compress/gzip"
	"context"
	"encoding/csv"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// fctExperiment is a small FCT experiment: web-search flows at 30% load on
// a k = 4 fat-tree with PFC, arrivals stopped at 3 ms, two schemes, two
// seeds.
func fctExperiment(t *testing.T) string {
	return `
name = "fct"
duration = "20ms"
warmup = "0s"
algorithms = ["dcqcn", "qcn"]
[network]
topology = "fat_tree"
k = 4
capacity = "10Gbps"
buffer = "300KB"
pfc = true
[traffic]
pattern = "none"
load = 0.3
short_flow_sizes = "websearch"
stop = "3ms"
[sweep]
seed = [1, 2]
`
}

// readCSVGz reads a gzip-compressed CSV file whole, as pandas.read_csv
// does: a header line, then rows of as many cells.
func readCSVGz(t *testing.T, path string) (header []string, rows [][]string) {
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
	all, err := csv.NewReader(z).ReadAll()
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if len(all) == 0 {
		t.Fatalf("%s: empty", path)
	}
	return all[0], all[1:]
}

// flows.csv.gz has one row per flow of every run, with the summary's
// counts, its columns named as the README says.
func TestFlowsFileOneRowPerFlow(t *testing.T) {
	dir := t.TempDir()
	e := mustParse(t, fctExperiment(t))
	res, err := Execute(context.Background(), e, Options{OutDir: dir, Series: Series{None: true}, Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	header, rows := readCSVGz(t, filepath.Join(dir, FlowsFile))
	want := append([]string{"run", "algorithm", "seed"}, FlowColumns...)
	if !slices.Equal(header, want) {
		t.Fatalf("header %v, want %v", header, want)
	}
	col := map[string]int{}
	for i, h := range header {
		col[h] = i
	}
	type key struct{ run, flow string }
	seen := map[key]bool{}
	perRun := map[string]map[string]int{}
	for _, r := range rows {
		if len(r) != len(header) {
			t.Fatalf("row %v: %d cells of %d", r, len(r), len(header))
		}
		k := key{r[col["run"]], r[col["flow"]]}
		if seen[k] {
			t.Fatalf("run %s flow %s twice", k.run, k.flow)
		}
		seen[k] = true
		if perRun[k.run] == nil {
			perRun[k.run] = map[string]int{}
		}
		perRun[k.run][r[col["outcome"]]]++
		switch r[col["outcome"]] {
		case "completed":
			fct, _ := strconv.ParseFloat(r[col["fct_s"]], 64)
			slow, _ := strconv.ParseFloat(r[col["slowdown"]], 64)
			ideal, _ := strconv.ParseFloat(r[col["ideal_fct_s"]], 64)
			if fct <= 0 || slow < 1-1e-9 || ideal <= 0 || r[col["path_count"]] != "1" {
				t.Errorf("completed row %v", r)
			}
		default:
			if r[col["fct_s"]] != "" || r[col["finish_s"]] != "" || r[col["slowdown"]] != "" {
				t.Errorf("row %v: a flow that did not complete has no FCT", r)
			}
		}
		if start, _ := strconv.ParseFloat(r[col["start_s"]], 64); start >= 3e-3 {
			t.Errorf("row %v: arrived after traffic.stop", r)
		}
	}
	if len(res.Runs) != 4 {
		t.Fatalf("%d runs", len(res.Runs))
	}
	for _, run := range res.Runs {
		got := perRun[strconv.Itoa(run.Run)]
		fs := run.Flows
		if int64(got["completed"]) != fs.Completed || int64(got["lost"]) != fs.Lost ||
			int64(got["unfinished"]) != fs.Unfinished || fs.Started < 5 {
			t.Errorf("run %d: rows %v, summary %+v", run.Run, got, fs)
		}
		if run.SimSeconds >= 0.02 && fs.Unfinished == 0 {
			t.Errorf("run %d drained at %g s, yet ran to its end", run.Run, run.SimSeconds)
		}
	}
}

// fct.csv pools each algorithm's seeds: one row per size bucket and one
// for all sizes, the counts the runs' sums; the text summary says so.
func TestFCTFilePoolsTheSeeds(t *testing.T) {
	dir := t.TempDir()
	e := mustParse(t, fctExperiment(t)+`
[output]
fct_buckets = ["50%", "1MB"]
`)
	res, err := Execute(context.Background(), e, Options{OutDir: dir, Series: Series{None: true}})
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(filepath.Join(dir, FCTFile))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	all, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	header := all[0]
	if want := append([]string{"algorithm"}, FCTColumns...); !slices.Equal(header, want) {
		t.Fatalf("header %v, want %v", header, want)
	}
	if len(all) != 1+2*4 { // two algorithms, three buckets and all
		t.Fatalf("%d rows: %v", len(all)-1, all)
	}
	started := map[string]int64{}
	for _, r := range res.Runs {
		started[r.Algorithm] += r.Flows.Started
	}
	for _, row := range all[1:] {
		if row[2] != "all" {
			continue
		}
		n, _ := strconv.ParseInt(row[5], 10, 64)
		if row[1] != "2" || n != started[row[0]] {
			t.Errorf("row %v: want %d flows over 2 seeds", row, started[row[0]])
		}
	}
	// The 50th percentile of web-search sizes is the first bucket's edge.
	if row := all[1]; row[2] != "0" || row[3] != "0" || row[4] == "" || row[4] == "1e+06" {
		t.Errorf("first bucket %v", row)
	}
	if len(res.FlowsPooled) != 2 || res.FlowsPooled[0].Flows.Started != started[res.FlowsPooled[0].Algorithm] {
		t.Errorf("pooled %+v", res.FlowsPooled)
	}
	var b strings.Builder
	WriteText(&b, res)
	if !strings.Contains(b.String(), "flows, seeds pooled") || !strings.Contains(b.String(), "slowdown p50") {
		t.Errorf("text:\n%s", b.String())
	}
}

// On a fabric, ports.csv.gz names each port, one row per run and port,
// each name in the same tier in every run; results.csv keeps the runs'
// scalars and tiers, and no column per port position.
func TestPortsFileNamesThePorts(t *testing.T) {
	dir := t.TempDir()
	e := mustParse(t, fctExperiment(t))
	res, err := Execute(context.Background(), e, Options{OutDir: dir, Series: Series{None: true}})
	if err != nil {
		t.Fatal(err)
	}
	header, rows := readCSVGz(t, filepath.Join(dir, PortsFile))
	if want := append([]string{"run", "algorithm", "seed"}, PortColumns()...); !slices.Equal(header, want) {
		t.Fatalf("header %v, want %v", header, want)
	}
	if !slices.Contains(header, "marked_frames") || !slices.Contains(header, "utilization") {
		t.Errorf("header %v", header)
	}
	tier := map[string]string{}
	perRun := map[string][]string{}
	for _, r := range rows {
		run, port, tr := r[0], r[3], r[4]
		if tr == "" {
			t.Errorf("row %v: no tier", r)
		}
		if old, ok := tier[port]; ok && old != tr {
			t.Errorf("port %s: tier %q in one run, %q in another", port, old, tr)
		}
		tier[port] = tr
		perRun[run] = append(perRun[run], port)
	}
	for _, r := range res.Runs {
		var want []string
		for _, b := range r.Bottlenecks {
			want = append(want, b.Name)
		}
		if got := perRun[strconv.Itoa(r.Run)]; !slices.Equal(got, want) {
			t.Errorf("run %d: ports %v, summary %v", r.Run, got, want)
		}
	}
	csvRows := readResults(t, dir)
	for _, h := range csvRows[0] {
		if strings.HasPrefix(h, "sw") {
			t.Fatalf("results.csv has a port position column %s on a fabric", h)
		}
	}
	for _, h := range []string{"tiers0_tier", "tiers0_utilization_mean", "flows_slowdown_p95", "flows_by_size0_slowdown_p99"} {
		if !slices.Contains(csvRows[0], h) {
			t.Errorf("results.csv lacks %s: %v", h, csvRows[0])
		}
	}
}
