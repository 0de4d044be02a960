// Package shard spreads a batch over several machines: a Slice of its runs
// for each (qcnlab run --shard I/N), the manifest each slice writes beside
// its outputs (shard.json), and Merge, which joins the slices' directories
// into the outputs one machine would have written.
package shard

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"qcnlab/experiments/outdir"
	"qcnlab/experiments/results"
)

// Slice is the Index-th (from 0) of Count disjoint slices of a batch: run k
// of the batch, in run order, belongs to slice k mod Count (owner). Every
// slice of a sweep gets a share of each algorithm and point, and the slices
// together are the batch. A Slice is a results.Part.
type Slice struct {
	Index, Count int
	// Version is the qcnlab that runs the slice (qcnlab --version), for
	// its manifest.
	Version string
}

// owner is the slice of Count that run k belongs to: the one rule by which
// runs are dealt out, round robin.
func owner(k, count int) int { return k % count }

// Parse reads "I/N": the I-th (from 0) of N slices.
func Parse(s string) (Slice, error) {
	i, n, ok := strings.Cut(s, "/")
	index, err1 := strconv.Atoi(strings.TrimSpace(i))
	count, err2 := strconv.Atoi(strings.TrimSpace(n))
	if !ok || err1 != nil || err2 != nil || count < 1 || index < 0 || index >= count {
		return Slice{}, fmt.Errorf("--shard: %q is not I/N with 0 <= I < N (for example 0/4)", s)
	}
	return Slice{Index: index, Count: count}, nil
}

func (s Slice) String() string { return fmt.Sprintf("%d/%d", s.Index, s.Count) }

// Has reports whether run k of the batch belongs to the slice.
func (s Slice) Has(k int) bool { return owner(k, s.Count) == s.Index }

// Runs lists the indices, in run order, of the slice's runs among n.
func (s Slice) Runs(n int) ([]int, error) {
	if s.Count < 1 || s.Index < 0 || s.Index >= s.Count {
		return nil, fmt.Errorf("shard %s: the index must be in [0, %d)", s, s.Count)
	}
	var ids []int
	for k := 0; k < n; k++ {
		if s.Has(k) {
			ids = append(ids, k)
		}
	}
	return ids, nil
}

// Files lists what Record writes.
func (s Slice) Files() []string { return []string{File} }

// Record writes the slice's manifest, shard.json, beside its outputs.
func (s Slice) Record(ctx context.Context, dir *outdir.Dir, w results.Written) error {
	m := Manifest{Version: s.Version, Experiment: w.Experiment, ExperimentSHA256: hash(w.TOML), Series: w.Series.String(), Shard: s.Index, Shards: s.Count,
		RunsTotal: w.Total, Runs: []ManifestRun{}}
	for _, r := range w.Runs {
		m.Runs = append(m.Runs, ManifestRun{Index: r.Index, Label: r.Label, Rows: r.Rows, Flows: r.Flows})
	}
	data, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	return dir.WriteFile(File, append(data, '\n'))
}
