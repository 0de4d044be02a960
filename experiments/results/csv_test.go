package results

import (
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"qcnlab/algos"
	"qcnlab/experiments"
	"qcnlab/experiments/batch"
	"qcnlab/experiments/metrics"
	"qcnlab/experiments/outdir"
	"qcnlab/units"
)

// results.csv holds one row per run, the swept values in base units, and
// every summary metric under a flat name, equal to summary.json's.
func TestResultsCSV(t *testing.T) {
	dir := t.TempDir()
	res, err := Execute(context.Background(), sweepExperiment(t), Options{OutDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	rows := readResults(t, dir)
	if len(rows) != 1+4 {
		t.Fatalf("%d rows, want a header and 4 runs", len(rows))
	}
	h := rows[0]
	if strings.Join(h[:5], ",") != "run,network.rtt_s,algorithm,seed,model" {
		t.Errorf("header starts %q", h[:5])
	}
	col := func(name string) int {
		k := slices.Index(h, name)
		if k < 0 {
			t.Fatalf("no column %s in %q", name, h)
		}
		return k
	}
	for _, name := range []string{"sw0_utilization", "sw0_queue_std_bytes", "sw0_q_eq_bytes", "src2_throughput_bps", "jain_fairness", "time_to_fairness_seconds", "wall_seconds"} {
		col(name)
	}
	last, r := rows[4], res.Runs[3]
	if last[0] != "3" || last[1] != "0.0003" || last[2] != "qcn" || last[3] != "2" {
		t.Errorf("last row starts %q", last[:4])
	}
	if v, _ := strconv.ParseFloat(last[col("sw0_queue_std_bytes")], 64); v != r.Bottlenecks[0].QueueStd {
		t.Errorf("queue std %v in results.csv, %v in the summary", v, r.Bottlenecks[0].QueueStd)
	}
	if v, _ := strconv.ParseFloat(last[col("src1_delivered_bytes")], 64); v != float64(r.Sources[1].DeliveredBytes) {
		t.Errorf("delivered bytes %v, summary %v", v, r.Sources[1].DeliveredBytes)
	}
}

func names(ns ...string) []cell {
	out := make([]cell, len(ns))
	for i, n := range ns {
		out[i].name = n
	}
	return out
}

func TestColumnOrderKeepsGroupsTogether(t *testing.T) {
	var o columnOrder
	o.merge(names("a", "src0_x", "src1_x", "jain"))
	o.merge(names("a", "src0_x", "src1_x", "src2_x", "jain", "z"))
	o.merge(names("first", "a"))
	if got := strings.Join(o.list(), ","); got != "first,a,src0_x,src1_x,src2_x,jain,z" {
		t.Errorf("%q", got)
	}
}

// results.csv is linear in its cells: 200,000 source columns over two
// runs, the second with more sources, are ordered at once (a slice insert
// per column took minutes), and a cancelled write stops and writes nothing.
func TestResultsFileLinearAndCancellable(t *testing.T) {
	var o columnOrder
	small, big := make([]cell, 100_000), make([]cell, 200_000)
	for i := range big {
		big[i].name = "src" + strconv.Itoa(i) + "_throughput_bps"
	}
	copy(small, big[100_000:])
	o.merge(small)
	o.merge(big)
	got := o.list()
	if len(got) != len(big) || got[0] != big[0].name || got[len(got)-1] != big[len(big)-1].name {
		t.Fatalf("%d columns, first %q, last %q", len(got), got[0], got[len(got)-1])
	}
	dir := t.TempDir()
	out, err := outdir.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res := &Result{Runs: []batch.RunSummary{{}}}
	if err := writeResults(ctx, out, experiments.Default(), res); !errors.Is(err, context.Canceled) {
		t.Errorf("a cancelled write: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "results.csv")); err == nil {
		t.Error("a cancelled write left results.csv")
	}
}

// Every metric of the registry is a column of results.csv, named by its
// Column, holding its Value, and empty where the value is missing.
func TestResultsCSVHoldsTheRegistry(t *testing.T) {
	dir := t.TempDir()
	e := sweepExperiment(t)
	e.Sources.Stop = units.Duration(algos.Millisecond) // stopped before the warm-up: never fair
	res, err := Execute(context.Background(), e, Options{OutDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	rows := readResults(t, dir)
	missing := 0
	for k, r := range res.Runs {
		for _, m := range metrics.All {
			for i := range m.Count(&r.Summary) {
				c := slices.Index(rows[0], m.Column(i))
				if c < 0 {
					t.Fatalf("no column %s", m.Column(i))
				}
				cell := rows[1+k][c]
				v, ok := m.Value(&r.Summary, i)
				if !ok {
					missing++
					if cell != "" {
						t.Errorf("run %d %s: %q, want empty for a missing value", k, m.Column(i), cell)
					}
					continue
				}
				if got, err := strconv.ParseFloat(cell, 64); err != nil || got != v {
					t.Errorf("run %d %s: %q, want %g", k, m.Column(i), cell, v)
				}
			}
		}
	}
	if missing == 0 {
		t.Error("no missing value was checked")
	}
}

// readResults reads dir's results.csv.
func readResults(t *testing.T, dir string) [][]string {
	t.Helper()
	f, err := os.Open(filepath.Join(dir, "results.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

// With several traffic classes, results.csv has each class's numbers over
// the ports, named by the class (class1_drops), on a fabric too, whose
// ports' own columns it leaves to ports.csv.gz; with one class, none.
func TestResultsCSVPerClass(t *testing.T) {
	text := `
name = "classes"
duration = "2ms"
algorithms = ["none"]
[network]
topology = "fat_tree"
k = 4
buffer = "30KB"
%s
[traffic]
pattern = "permutation"
[[flows]]
from = 1
to = 0
%s
`
	for _, classes := range []int{1, 2} {
		keys, class := "", ""
		if classes == 2 {
			keys, class = "classes = 2\nscheduler = \"dwrr\"", "class = 1"
		}
		dir := t.TempDir()
		res, err := Execute(context.Background(), mustParse(t, fmt.Sprintf(text, keys, class)), Options{OutDir: dir})
		if err != nil {
			t.Fatal(err)
		}
		rows := readResults(t, dir)
		h, row, sum := rows[0], rows[1], res.Runs[0].Summary
		var perClass []string
		for _, name := range h {
			if strings.HasPrefix(name, "class") || strings.HasPrefix(name, "sw") {
				perClass = append(perClass, name)
			}
		}
		if classes == 1 {
			if len(perClass) > 0 {
				t.Errorf("one class: columns %q", perClass)
			}
			continue
		}
		want := []string{"class0_throughput_bps_max", "class0_queue_max_bytes", "class0_drops", "class0_dropped_bytes", "class0_marked_frames",
			"class1_throughput_bps_max", "class1_queue_max_bytes", "class1_drops", "class1_dropped_bytes", "class1_marked_frames"}
		if !slices.Equal(perClass, want) {
			t.Fatalf("two classes: columns %q, want %q", perClass, want)
		}
		for c := range 2 {
			var drops int64
			var most float64
			for _, b := range sum.Bottlenecks {
				drops += b.Classes[c].Drops
				most = max(most, b.Classes[c].ThroughputBps)
			}
			if got := row[slices.Index(h, fmt.Sprintf("class%d_drops", c))]; got != strconv.FormatInt(drops, 10) {
				t.Errorf("class %d: %s drops in results.csv, %d over the summary's ports", c, got, drops)
			}
			if got, _ := strconv.ParseFloat(row[slices.Index(h, fmt.Sprintf("class%d_throughput_bps_max", c))], 64); got != most || most == 0 {
				t.Errorf("class %d: busiest port's throughput %g in results.csv, %g in the summary", c, got, most)
			}
		}
	}
}
