package results

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"qcnlab/experiments"
	"qcnlab/experiments/metrics"
	"qcnlab/experiments/plots"
	"qcnlab/model"
)

// FCTFile holds the flow statistics by size of each sweep point and
// algorithm, its seeds pooled: the numbers of the FCT figure.
const FCTFile = "fct.csv"

// PooledFlows is the flows of one algorithm at one sweep point, its seeds
// pooled as if one run had made every flow (model.PoolFlows): the
// quantiles are over all the flows, not means of each seed's.
type PooledFlows struct {
	Algorithm string             `json:"algorithm"`
	Point     map[string]string  `json:"point,omitempty"` // the swept keys but the seed
	Runs      []int              `json:"runs"`
	Seeds     []uint64           `json:"seeds"`
	Flows     *model.FlowSummary `json:"flows"`
}

// PoolFlows pools each seed group's flows; nil when the runs have no flows
// or their histograms are gone (a result read back from summary.json).
func PoolFlows(res *Result) []PooledFlows {
	var out []PooledFlows
	for _, g := range seedGroups(res) {
		var fs []*model.FlowSummary
		for _, r := range g.runs {
			fs = append(fs, r.Flows)
		}
		pooled, ok := model.PoolFlows(fs)
		if !ok {
			continue
		}
		first := g.runs[0]
		p := PooledFlows{Algorithm: first.Algorithm, Flows: pooled}
		for k, v := range first.Point {
			if k != "seed" {
				if p.Point == nil {
					p.Point = map[string]string{}
				}
				p.Point[k] = v
			}
		}
		for _, r := range g.runs {
			p.Runs, p.Seeds = append(p.Runs, r.Run), append(p.Seeds, r.Seed)
		}
		out = append(out, p)
	}
	return out
}

// FCTColumns are fct.csv's columns after the swept keys (but the seed)
// and the algorithm: one row per size bucket, then one for all sizes
// (bucket "all", its bounds empty).
var FCTColumns = []string{"seeds", "bucket", "min_bytes", "max_bytes", "started", "completed",
	"fct_mean_s", "fct_p50_s", "fct_p95_s", "fct_p99_s",
	"slowdown_mean", "slowdown_p50", "slowdown_p95", "slowdown_p99"}

func writeFCTRows(w io.Writer, e *experiments.Experiment, pooled []PooledFlows) error {
	var header []string
	for _, key := range sweptKeys(e) {
		header = append(header, SweptColumn(key))
	}
	header = append(append(header, "algorithm"), FCTColumns...)
	if _, err := w.Write(csvRow(header, false)); err != nil {
		return err
	}
	for _, p := range pooled {
		var lead []string
		for _, key := range sweptKeys(e) {
			v, ok := p.Point[key]
			if ok {
				v = SweptValue(key, v)
			}
			lead = append(lead, v)
		}
		lead = append(lead, p.Algorithm, strconv.Itoa(len(p.Seeds)))
		f := p.Flows
		for i, b := range f.BySize {
			row := append(append([]string(nil), lead...), strconv.Itoa(i), g(b.MinBytes), "")
			if b.MaxBytes > 0 {
				row[len(row)-1] = g(b.MaxBytes)
			}
			row = append(row, fctCells(b.Started, b.Completed, b.FCTMean, b.FCTP50, b.FCTP95, b.FCTP99,
				b.SlowdownMean, b.SlowdownP50, b.SlowdownP95, b.SlowdownP99)...)
			if _, err := w.Write(csvRow(row, false)); err != nil {
				return err
			}
		}
		row := append(append([]string(nil), lead...), "all", "", "")
		row = append(row, fctCells(f.Started, f.Completed, f.FCTMean, f.FCTP50, f.FCTP95, f.FCTP99,
			f.SlowdownMean, f.SlowdownP50, f.SlowdownP95, f.SlowdownP99)...)
		if _, err := w.Write(csvRow(row, false)); err != nil {
			return err
		}
	}
	return nil
}

// fctCells are a bucket's counts and statistics; the statistics are empty
// where no flow completed.
func fctCells(started, completed int64, stats ...float64) []string {
	cells := []string{strconv.FormatInt(started, 10), strconv.FormatInt(completed, 10)}
	for _, x := range stats {
		if completed == 0 {
			x = math.NaN()
		}
		cells = append(cells, string(appendFloat(nil, x)))
	}
	return cells
}

// size writes a flow size to three figures in the unit that suits it:
// flows run from one byte to gigabytes.
func size(bytes float64) string {
	for _, u := range []struct {
		name  string
		scale float64
	}{{"GB", 1e9}, {"MB", 1e6}, {"KB", 1e3}} {
		if bytes >= u.scale {
			return strconv.FormatFloat(bytes/u.scale, 'g', 3, 64) + u.name
		}
	}
	return strconv.FormatFloat(bytes, 'g', 3, 64) + "B"
}

func g(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }

// writeFlowsText writes the flows' lines of a run's or a point's block:
// counts, then FCT and slowdown quantiles by size.
func writeFlowsText(tw io.Writer, f *model.FlowSummary, pooled string) {
	run := &model.Summary{Flows: f} // the run's flow metrics read it
	v := func(m *metrics.Metric) float64 { x, _ := m.Value(run, 0); return x }
	n := func(m *metrics.Metric) int64 { return int64(v(m)) }
	fmt.Fprintf(tw, "  flows%s\t%d started, %d completed, %d lost, %d unfinished; mean size %s\n", pooled,
		n(metrics.FlowsStarted), n(metrics.FlowsCompleted), n(metrics.FlowsLost), n(metrics.FlowsUnfinished), size(v(metrics.FlowsSizeMean)))
	line := func(name string, completed int64, fctMean, fct50, fct95, fct99, slowMean, slow50, slow95, slow99 float64) {
		if completed == 0 {
			fmt.Fprintf(tw, "  %s\tnone completed\n", name)
			return
		}
		fmt.Fprintf(tw, "  %s\tslowdown p50 %.3g, p95 %.3g, p99 %.3g, mean %.3g; FCT p50 %s, p99 %s (%d flows)\n", name,
			slow50, slow95, slow99, slowMean, seconds(fct50), seconds(fct99), completed)
	}
	line("FCT, all sizes", n(metrics.FlowsCompleted), v(metrics.FCTMean), v(metrics.FCTP50), v(metrics.FCTP95), v(metrics.FCTP99),
		v(metrics.SlowdownMean), v(metrics.SlowdownP50), v(metrics.SlowdownP95), v(metrics.SlowdownP99))
	for _, b := range f.BySize {
		if b.Started == 0 {
			continue
		}
		line("  "+bucketName(b), b.Completed, b.FCTMean, b.FCTP50, b.FCTP95, b.FCTP99, b.SlowdownMean, b.SlowdownP50, b.SlowdownP95, b.SlowdownP99)
	}
}

// bucketName names a size bucket: "<= 100 KB", "100 KB - 1 MB", "> 10 MB".
func bucketName(b model.FlowSizeBucket) string {
	switch {
	case b.MinBytes == 0:
		return "<= " + plots.SizeLabel(b.MaxBytes)
	case b.MaxBytes == 0:
		return "> " + plots.SizeLabel(b.MinBytes)
	}
	return plots.SizeLabel(b.MinBytes) + " - " + plots.SizeLabel(b.MaxBytes)
}

// groupFlows is the pooled flows of a seed group, if they could be pooled.
func groupFlows(g *seedGroup) (*model.FlowSummary, bool) {
	var fs []*model.FlowSummary
	for _, r := range g.runs {
		fs = append(fs, r.Flows)
	}
	return model.PoolFlows(fs)
}

// fctLines are the FCT figure's lines: a scheme at a point of the sweep
// each, named by the swept keys other than the seed.
func fctLines(e *experiments.Experiment, pooled []PooledFlows) []plots.FCTLine {
	var out []plots.FCTLine
	for _, p := range pooled {
		name := p.Algorithm
		for _, key := range sweptKeys(e) {
			if v, ok := p.Point[key]; ok {
				name += " " + e.ShortKey(key) + "=" + strings.Trim(v, `"`)
			}
		}
		out = append(out, plots.FCTLine{Name: name, Seeds: len(p.Seeds), Flows: p.Flows})
	}
	return out
}
