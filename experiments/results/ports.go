package results

import (
	"context"
	"io"

	"qcnlab/experiments"
	"qcnlab/experiments/metrics"
)

// PortsFile holds every port's metrics of every run in long form: one row
// per run and port, named by the port (leaf0->spine1), not by its position,
// which on a fabric is a different port in different runs.
const PortsFile = "ports.csv.gz"

// PortColumns are ports.csv.gz's columns after a run's Identity: the port,
// its tier (empty on a chain) and traffic class, then each port metric of
// the registry (package metrics) by its name.
func PortColumns() []string {
	cols := []string{"port", "tier", "class"}
	for _, m := range metrics.All {
		if m.Scope == metrics.Bottleneck {
			cols = append(cols, m.Name)
		}
	}
	return cols
}

// renderPorts writes ports.csv.gz, from the runs' summaries, to w.
func renderPorts(ctx context.Context, w io.Writer, e *experiments.Experiment, res *Result) error {
	var b []byte
	b = append(b, csvRow(append(Identity(e), PortColumns()...), false)...)
	var linkMetrics []*metrics.Metric
	for _, m := range metrics.All {
		if m.Scope == metrics.Bottleneck {
			linkMetrics = append(linkMetrics, m)
		}
	}
	for _, r := range res.Runs {
		if err := ctx.Err(); err != nil {
			return err
		}
		id := identityCells(e, r.Run, r.Algorithm, r.Seed, func(key string) (string, bool) {
			v, ok := r.Point[key]
			return v, ok
		})
		for j, p := range r.Bottlenecks {
			row := append(append([]string(nil), id...), p.Name, p.Tier, "0")
			for _, m := range linkMetrics {
				v, ok := m.Value(&r.Summary, j)
				cell := ""
				if ok {
					cell = g(v)
				}
				row = append(row, cell)
			}
			b = append(b, csvRow(row, false)...)
		}
		if len(b) > 1<<20 {
			if err := Gzip(w, b); err != nil {
				return err
			}
			b = b[:0]
		}
	}
	return Gzip(w, b)
}
