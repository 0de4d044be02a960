// Package shard joins the slices of a batch run on several machines
// (qcnlab run --shard I/N) into the outputs one machine would have written.
package shard

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"qcnlab/experiments"
)

// Parse reads "I/N": the I-th (from 0) of N slices.
func Parse(s string) (experiments.Shard, error) {
	i, n, ok := strings.Cut(s, "/")
	index, err1 := strconv.Atoi(strings.TrimSpace(i))
	count, err2 := strconv.Atoi(strings.TrimSpace(n))
	if !ok || err1 != nil || err2 != nil || count < 1 || index < 0 || index >= count {
		return experiments.Shard{}, fmt.Errorf("--shard: %q is not I/N with 0 <= I < N (for example 0/4)", s)
	}
	return experiments.Shard{Index: index, Count: count}, nil
}

// slice is one shard directory, read and checked.
type slice struct {
	dir      string
	manifest experiments.ShardManifest
	result   experiments.Result
	toml     []byte
}

func read(dir string) (*slice, error) {
	s := &slice{dir: dir}
	data, err := os.ReadFile(filepath.Join(dir, experiments.ShardFile))
	if errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("%s: no %s: not the output of qcnlab run --shard I/N --out DIR", dir, experiments.ShardFile)
	}
	if err != nil {
		return nil, err
	}
	if err := json.Unmarshal(data, &s.manifest); err != nil {
		return nil, fmt.Errorf("%s: %w", filepath.Join(dir, experiments.ShardFile), err)
	}
	if data, err = os.ReadFile(filepath.Join(dir, "summary.json")); err != nil {
		return nil, err
	}
	if err := json.Unmarshal(data, &s.result); err != nil {
		return nil, fmt.Errorf("%s: %w", filepath.Join(dir, "summary.json"), err)
	}
	if s.toml, err = os.ReadFile(filepath.Join(dir, "experiment.toml")); err != nil {
		return nil, err
	}
	m := s.manifest
	if experiments.ExperimentHash(s.toml) != m.ExperimentSHA256 {
		return nil, fmt.Errorf("%s: experiment.toml does not match the hash in %s: it was changed after the run", dir, experiments.ShardFile)
	}
	if len(s.result.Runs) != len(m.Runs) {
		return nil, fmt.Errorf("%s: summary.json holds %d runs, %s lists %d", dir, len(s.result.Runs), experiments.ShardFile, len(m.Runs))
	}
	return s, nil
}

func (s *slice) name() string {
	return fmt.Sprintf("shard %d/%d (%s)", s.manifest.Shard, s.manifest.Shards, s.dir)
}

// Merge joins the shard directories of one batch into out: the same
// experiment.toml, summary.json, results.csv and timeseries.csv as the
// batch run whole (the runs' wall times aside). It checks that the shards
// come from the same experiment, that each of the N shards is there once,
// and that every run of the batch finished in one of them. With a plot
// format ("png" or "svg") it also draws the sweep's figure and the queue
// CDFs into out/plots; the per-run figures, drawn from the time series as
// the runs go, stay in the shards' directories.
func Merge(dirs []string, out, plot string) (*experiments.Result, error) {
	if len(dirs) == 0 {
		return nil, errors.New("name the shard directories")
	}
	if plot != "" && !slices.Contains(experiments.PlotFormats, plot) {
		return nil, fmt.Errorf("--plot: %q is not one of %q", plot, experiments.PlotFormats)
	}
	var all []*slice
	for _, d := range dirs {
		if same(d, out) {
			return nil, fmt.Errorf("the output %s is one of the shards; write elsewhere", out)
		}
		s, err := read(d)
		if err != nil {
			return nil, err
		}
		all = append(all, s)
	}
	first := all[0]
	n, total := first.manifest.Shards, first.manifest.RunsTotal
	byIndex := make([]*slice, n)
	for _, s := range all {
		m := s.manifest
		if m.ExperimentSHA256 != first.manifest.ExperimentSHA256 {
			return nil, fmt.Errorf("%s and %s come from different experiments (their experiment.toml differ)", first.dir, s.dir)
		}
		if m.Shards != n || m.RunsTotal != total {
			return nil, fmt.Errorf("%s is one of %d shards of %d runs, %s one of %d of %d", first.dir, n, total, s.dir, m.Shards, m.RunsTotal)
		}
		if m.Shard < 0 || m.Shard >= n {
			return nil, fmt.Errorf("%s: shard %d is not in [0, %d)", s.dir, m.Shard, n)
		}
		if prev := byIndex[m.Shard]; prev != nil {
			return nil, fmt.Errorf("shard %d/%d is given twice: %s and %s", m.Shard, n, prev.dir, s.dir)
		}
		byIndex[m.Shard] = s
	}
	var missing []string
	for i, s := range byIndex {
		if s == nil {
			missing = append(missing, fmt.Sprintf("%d/%d", i, n))
		}
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("shard %s missing", strings.Join(missing, ", "))
	}

	// Every run of the batch, once: where it is and which it is.
	type place struct {
		s *slice
		k int // its position in the slice
	}
	runs := make([]*place, total)
	for _, s := range byIndex {
		for k, r := range s.manifest.Runs {
			if r.Index < 0 || r.Index >= total || r.Index%n != s.manifest.Shard {
				return nil, fmt.Errorf("%s lists run %d, which is not one of its runs", s.name(), r.Index)
			}
			if runs[r.Index] != nil {
				return nil, fmt.Errorf("%s lists run %d twice", s.name(), r.Index)
			}
			runs[r.Index] = &place{s, k}
		}
	}
	for i, p := range runs {
		if p == nil {
			s := byIndex[i%n]
			return nil, fmt.Errorf("%s did not finish run %d (and perhaps others): run that shard again", s.name(), i)
		}
	}

	if err := os.MkdirAll(out, 0o755); err != nil {
		return nil, err
	}
	if err := experiments.WriteFileAtomic(filepath.Join(out, "experiment.toml"), first.toml); err != nil {
		return nil, err
	}
	e, err := experiments.Load(filepath.Join(out, "experiment.toml"))
	if err != nil {
		return nil, err
	}
	if err := mergeSeries(byIndex, out, func(yield func(*slice, int) bool) {
		for _, p := range runs {
			if !yield(p.s, p.s.manifest.Runs[p.k].Rows) {
				return
			}
		}
	}); err != nil {
		return nil, err
	}
	res := &experiments.Result{Experiment: first.result.Experiment, Complete: true}
	for _, p := range runs {
		res.Runs = append(res.Runs, p.s.result.Runs[p.k])
	}
	if err := experiments.WriteSummaryFile(out, res); err != nil {
		return nil, err
	}
	if err := experiments.WriteResultsFile(out, e, res); err != nil {
		return nil, err
	}
	if plot != "" {
		if err := os.MkdirAll(filepath.Join(out, "plots"), 0o755); err != nil {
			return nil, err
		}
		if err := experiments.WriteSweepPlot(out, e, res, plot); err != nil {
			return nil, fmt.Errorf("plot: %w", err)
		}
		if err := experiments.WriteQueueCDFs(out, e, res, plot); err != nil {
			return nil, fmt.Errorf("plot: %w", err)
		}
	}
	return res, nil
}

// mergeSeries writes out/timeseries.csv: the header the shards share, then
// each run's rows in batch order, read in turn from its shard's file, so
// memory does not grow with the data.
func mergeSeries(shards []*slice, out string, order func(func(*slice, int) bool)) error {
	readers := map[*slice]*bufio.Reader{}
	var header []byte
	for _, s := range shards {
		f, err := os.Open(filepath.Join(s.dir, "timeseries.csv"))
		if err != nil {
			return err
		}
		defer f.Close()
		r := bufio.NewReaderSize(f, 1<<16)
		h, err := r.ReadBytes('\n')
		if err != nil {
			return fmt.Errorf("%s: timeseries.csv: %w", s.dir, err)
		}
		if header == nil {
			header = h
		} else if !bytes.Equal(h, header) {
			return fmt.Errorf("%s and %s: timeseries.csv headers differ", shards[0].dir, s.dir)
		}
		readers[s] = r
	}
	tmp, err := os.CreateTemp(out, ".timeseries-*.csv")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // after the rename there is nothing to remove
	w := bufio.NewWriterSize(tmp, 1<<16)
	w.Write(header)
	var copyErr error
	order(func(s *slice, rows int) bool {
		for ; rows > 0; rows-- {
			line, err := readers[s].ReadBytes('\n')
			if err != nil {
				copyErr = fmt.Errorf("%s: timeseries.csv has fewer rows than %s lists", s.dir, experiments.ShardFile)
				return false
			}
			w.Write(line)
		}
		return true
	})
	for _, s := range shards {
		if copyErr == nil {
			if _, err := readers[s].ReadByte(); err != io.EOF {
				copyErr = fmt.Errorf("%s: timeseries.csv has more rows than %s lists", s.dir, experiments.ShardFile)
			}
		}
	}
	if err := w.Flush(); err != nil && copyErr == nil {
		copyErr = err
	}
	if err := tmp.Close(); err != nil && copyErr == nil {
		copyErr = err
	}
	if copyErr != nil {
		return copyErr
	}
	os.Chmod(tmp.Name(), 0o644)
	return os.Rename(tmp.Name(), filepath.Join(out, "timeseries.csv"))
}

// same reports whether two paths name the same directory.
func same(a, b string) bool {
	fa, err1 := os.Stat(a)
	fb, err2 := os.Stat(b)
	if err1 == nil && err2 == nil {
		return os.SameFile(fa, fb)
	}
	return filepath.Clean(a) == filepath.Clean(b)
}
