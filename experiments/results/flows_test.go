package results

import (
	"compress/gzip"
	"context"
	"encoding/csv"
	"os"
	"path/filepath"
	"slices"
	"strconv"
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
