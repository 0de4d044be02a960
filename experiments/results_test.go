package experiments

import (
	"context"
	"encoding/csv"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// results.csv holds one row per run, the swept values in base units, and
// every summary metric under a flat name, equal to summary.json's.
func TestResultsCSV(t *testing.T) {
	dir := t.TempDir()
	res, err := Execute(context.Background(), sweepExperiment(t), Options{OutDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(filepath.Join(dir, "results.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 1+4 {
		t.Fatalf("%d rows, want a header and 4 runs", len(rows))
	}
	h := rows[0]
	if strings.Join(h[:4], ",") != "network.rtt_s,algorithm,seed,model" {
		t.Errorf("header starts %q", h[:4])
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
	if last[0] != "0.0003" || last[1] != "qcn" || last[2] != "2" {
		t.Errorf("last row starts %q", last[:3])
	}
	if v, _ := strconv.ParseFloat(last[col("sw0_queue_std_bytes")], 64); v != r.Bottlenecks[0].QueueStd {
		t.Errorf("queue std %v in results.csv, %v in the summary", v, r.Bottlenecks[0].QueueStd)
	}
	if v, _ := strconv.ParseFloat(last[col("src1_delivered_bytes")], 64); v != float64(r.Sources[1].DeliveredBytes) {
		t.Errorf("delivered bytes %v, summary %v", v, r.Sources[1].DeliveredBytes)
	}
}

func TestMergeColumnsKeepsGroupsTogether(t *testing.T) {
	got := mergeColumns([]string{"a", "src0_x", "src1_x", "jain"}, []string{"a", "src0_x", "src1_x", "src2_x", "jain", "z"})
	if strings.Join(got, ",") != "a,src0_x,src1_x,src2_x,jain,z" {
		t.Errorf("%q", got)
	}
}
