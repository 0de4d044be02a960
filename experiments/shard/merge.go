package shard

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"qcnlab/experiments"
	"qcnlab/experiments/batch"
	"qcnlab/experiments/cost"
	"qcnlab/experiments/outdir"
	"qcnlab/experiments/plots"
	"qcnlab/experiments/results"
	"qcnlab/experiments/userfile"
)

// Bounds on what merge reads, so that an edited or damaged shard cannot
// exhaust memory: the JSON files are read whole, the time series a line at a
// time.
const (
	maxManifest = 64 << 20 // shard.json: 10,000 runs take about 1 MB
	maxSummary  = 1 << 30  // summary.json
	maxHeader   = 8 << 20  // timeseries.csv's header line
	cellBytes   = 64       // the most a time-series cell takes: a float, or a swept value
)

// slice is one shard directory, read and checked.
type slice struct {
	dir      string
	manifest Manifest
	result   results.Result
	toml     []byte
}

// shardFile is what a shard's files are, in errors.
const shardFile = "a shard's file (a regular file qcnlab run wrote)"

// readBounded reads the regular file at path, at most limit bytes, and
// stops if ctx is cancelled.
func readBounded(ctx context.Context, path string, limit int64) ([]byte, error) {
	return userfile.Read(ctx, path, userfile.Limit{Max: limit, What: shardFile})
}

// decodeSummary decodes summary.json into res, returning as soon as ctx
// is cancelled (a summary of many sources takes seconds to decode). What
// it decodes is bounded before it decodes it: the runs one at a time, no
// more than most (what shard.json lists), and the whole no larger than
// its shape allows.
func decodeSummary(ctx context.Context, data []byte, most int, res *results.Result) error {
	if err := summaryShape.bound(data); err != nil {
		return err
	}
	done := make(chan error, 1)
	go func() { done <- decodeRuns(ctx, data, most, res) }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// decodeRuns decodes a summary as a stream: its runs one by one, stopping
// past the most a shard lists, and at ctx's cancellation.
func decodeRuns(ctx context.Context, data []byte, most int, res *results.Result) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	if t, err := dec.Token(); err != nil {
		return err
	} else if t != json.Delim('{') {
		return errors.New("not a JSON object")
	}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return err
		}
		switch key, _ := t.(string); key {
		case "experiment":
			err = dec.Decode(&res.Experiment)
		case "complete":
			err = dec.Decode(&res.Complete)
		case "runs":
			err = decodeList(ctx, dec, most, &res.Runs)
		default:
			var skip json.RawMessage
			err = dec.Decode(&skip)
		}
		if err != nil {
			return err
		}
	}
	if _, err := dec.Token(); err != nil { // the closing brace
		return err
	}
	if _, err := dec.Token(); err != io.EOF {
		return errors.New("more after the summary's object")
	}
	return nil
}

// decodeList decodes the runs array (or null), at most most of them.
func decodeList(ctx context.Context, dec *json.Decoder, most int, runs *[]batch.RunSummary) error {
	t, err := dec.Token()
	if err != nil || t == nil {
		return err
	}
	if t != json.Delim('[') {
		return errors.New(`"runs" is not a list`)
	}
	for dec.More() {
		if len(*runs) == most {
			return fmt.Errorf("holds more runs than the %d %s lists", most, File)
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		var r batch.RunSummary
		if err := dec.Decode(&r); err != nil {
			return err
		}
		*runs = append(*runs, r)
	}
	_, err = dec.Token()
	return err
}

func read(ctx context.Context, dir string) (*slice, error) {
	s := &slice{dir: dir}
	name := filepath.Join(dir, File)
	data, err := readBounded(ctx, name, maxManifest)
	if errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("%s: no %s: not the output of qcnlab run --shard I/N --out DIR", dir, File)
	}
	if err != nil {
		return nil, err
	}
	if err := manifestShape.bound(data); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if err := json.Unmarshal(data, &s.manifest); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	m := s.manifest
	// Every number against the others, before anything is allocated by it.
	switch {
	case m.Shards < 1 || m.Shard < 0 || m.Shard >= m.Shards:
		return nil, fmt.Errorf("%s: shard %d of %d: the index must be in [0, shards) and shards at least 1", name, m.Shard, m.Shards)
	case m.RunsTotal < 0 || m.RunsTotal > cost.MaxRuns:
		return nil, fmt.Errorf("%s: runs_total %d: a batch has 0 to %d runs", name, m.RunsTotal, cost.MaxRuns)
	case len(m.Runs) > m.RunsTotal:
		return nil, fmt.Errorf("%s: lists %d runs of a batch of %d", name, len(m.Runs), m.RunsTotal)
	}
	if data, err = readBounded(ctx, filepath.Join(dir, "summary.json"), maxSummary); err != nil {
		return nil, err
	}
	if err := decodeSummary(ctx, data, len(m.Runs), &s.result); err != nil {
		return nil, fmt.Errorf("%s: %w", filepath.Join(dir, "summary.json"), err)
	}
	if s.toml, err = readBounded(ctx, filepath.Join(dir, "experiment.toml"), experiments.MaxFileBytes); err != nil {
		return nil, err
	}
	if hash(s.toml) != m.ExperimentSHA256 {
		return nil, fmt.Errorf("%s: experiment.toml does not match the hash in %s: it was changed after the run", dir, File)
	}
	if len(s.result.Runs) != len(m.Runs) {
		return nil, fmt.Errorf("%s: summary.json holds %d runs, %s lists %d", dir, len(s.result.Runs), File, len(m.Runs))
	}
	return s, nil
}

func (s *slice) name() string {
	return fmt.Sprintf("shard %d/%d (%s)", s.manifest.Shard, s.manifest.Shards, s.dir)
}

// place is where one run of the batch is: its shard, its position there,
// and the run itself as the experiment defines it.
type place struct {
	s   *slice
	k   int
	run experiments.Run
}

// Options control a merge.
type Options struct {
	Plot plots.Options // the sweep's figures and the queue CDFs; Format "" for none
	// Force merges shards that different versions of qcnlab ran, which
	// Merge otherwise refuses; Warn, if set, is told of them.
	Force bool
	Warn  func(string)
}

// ErrVersions is the error of Merge on shards that different versions of
// qcnlab ran.
var ErrVersions = errors.New("different versions of qcnlab")

// Merge joins the shard directories of one batch into out: the same
// experiment.toml, summary.json, results.csv and timeseries.csv.gz as the
// batch run whole (the runs' wall times aside). It checks that the shards
// come from the same experiment, that each of the N shards is there once,
// that every run of the batch finished in one of them, and that each run's
// summary and time series are the run the experiment says is at that index;
// it writes nothing into out until all of that holds (and leaves no out
// behind if it made it and failed). Shards that different versions of
// qcnlab ran are refused (ErrVersions) unless opt.Force. With a plot format
// it also draws the sweep's figure and the queue CDFs into out/plots; the
// per-run figures stay in the shards' directories. If ctx is cancelled it
// stops, removes its temporary files and returns ctx's error.
func Merge(ctx context.Context, dirs []string, out string, opt Options) (*results.Result, error) {
	plot := opt.Plot
	if len(dirs) == 0 {
		return nil, errors.New("name the shard directories")
	}
	if err := plot.Check(); err != nil {
		return nil, err
	}
	runs, e, first, err := check(ctx, dirs, out, opt)
	if err != nil {
		return nil, err
	}
	dir, err := outdir.Open(out)
	if err != nil {
		return nil, err
	}
	defer dir.Close()
	names := []string{"experiment.toml"}
	if first.manifest.Series != "none" {
		names = append(names, results.SeriesFile)
	}
	if err := dir.CheckNames(append(names, results.FinishFiles(plot)...)...); err != nil {
		dir.Abandon()
		return nil, err
	}
	var tmp *outdir.Temp
	if first.manifest.Series != "none" {
		if tmp, err = dir.CreateTemp(".", results.SeriesFile); err != nil {
			dir.Abandon()
			return nil, err
		}
		if err := mergeSeries(ctx, e, runs, tmp); err != nil {
			dir.Discard(tmp)
			dir.Abandon()
			return nil, err
		}
	}
	// Every input is valid: now the outputs, the earlier batch's files
	// removed before the first (outdir's Begin).
	res := results.NewResult(e)
	res.Experiment = first.result.Experiment
	for _, p := range runs {
		res.Runs = append(res.Runs, p.s.result.Runs[p.k])
	}
	res.FlowsPooled = results.PoolFlows(res) // from the histograms check gave the summaries
	if tmp != nil {
		if err := dir.Commit(tmp, results.SeriesFile); err != nil {
			return nil, err
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if err := dir.WriteFile("experiment.toml", first.toml); err != nil {
		return nil, err
	}
	if err := mergeFlows(ctx, e, runs, dir); err != nil {
		return nil, err
	}
	if err := results.Finish(ctx, dir, e, res, plot); results.IsFigureError(err) {
		// Every other output is written: the merge is, but for figures.
		return res, errors.Join(err, dir.Finish())
	} else if err != nil {
		return nil, err
	}
	return res, dir.Finish()
}

// check reads the shards and returns every run of the batch in order, where
// each is, the experiment and the first shard.
func check(ctx context.Context, dirs []string, out string, opt Options) ([]place, *experiments.Experiment, *slice, error) {
	var all []*slice
	for _, d := range dirs {
		if same(d, out) {
			return nil, nil, nil, fmt.Errorf("the output %s is one of the shards; write elsewhere", out)
		}
		s, err := read(ctx, d)
		if err != nil {
			return nil, nil, nil, err
		}
		all = append(all, s)
	}
	first := all[0]
	n, total := first.manifest.Shards, first.manifest.RunsTotal
	listed := 0
	for _, s := range all {
		m := s.manifest
		if m.ExperimentSHA256 != first.manifest.ExperimentSHA256 {
			return nil, nil, nil, fmt.Errorf("%s and %s come from different experiments (their experiment.toml differ)", first.dir, s.dir)
		}
		if m.Shards != n || m.RunsTotal != total {
			return nil, nil, nil, fmt.Errorf("%s is one of %d shards of %d runs, %s one of %d of %d", first.dir, n, total, s.dir, m.Shards, m.RunsTotal)
		}
		if m.Series != first.manifest.Series {
			return nil, nil, nil, fmt.Errorf("%s has --series %s, %s --series %s: run the shards with the same", first.dir, first.manifest.Series, s.dir, m.Series)
		}
		if m.Version != first.manifest.Version {
			err := fmt.Errorf("%w ran the shards: %s by %s, %s by %s", ErrVersions,
				first.dir, versionOf(first.manifest), s.dir, versionOf(m))
			if !opt.Force {
				return nil, nil, nil, fmt.Errorf("%w; run them again with one version, or merge anyway with --force", err)
			}
			if opt.Warn != nil {
				opt.Warn(err.Error() + "; merged anyway (--force)")
			}
		}
		listed += len(m.Runs)
	}
	given := map[int]*slice{} // n may be anything a file says: nothing is sized by it yet
	for _, s := range all {
		m := s.manifest
		if prev := given[m.Shard]; prev != nil {
			return nil, nil, nil, fmt.Errorf("shard %d/%d is given twice: %s and %s", m.Shard, n, prev.dir, s.dir)
		}
		given[m.Shard] = s
	}
	if n > len(all) {
		var missing []string
		for i := 0; len(missing) < 8 && i < n; i++ {
			if given[i] == nil {
				missing = append(missing, fmt.Sprintf("%d/%d", i, n))
			}
		}
		if more := n - len(all) - len(missing); more > 0 {
			missing = append(missing, fmt.Sprintf("and %d more", more))
		}
		return nil, nil, nil, fmt.Errorf("shard %s missing", strings.Join(missing, ", "))
	}
	byIndex := make([]*slice, n) // n == len(dirs) now: bounded by the arguments
	for i, s := range given {
		byIndex[i] = s
	}
	e, err := experiments.Parse(filepath.Join(first.dir, "experiment.toml"), first.toml)
	if err != nil {
		return nil, nil, nil, err
	}
	batch, err := e.Runs()
	if err != nil {
		return nil, nil, nil, err
	}
	if len(batch) != total {
		return nil, nil, nil, fmt.Errorf("%s: the experiment makes %d runs, %s says %d", first.dir, len(batch), File, total)
	}
	runs := make([]place, total) // total is the experiment's own run count
	found := make([]bool, total)
	for _, s := range byIndex {
		for k, r := range s.manifest.Runs {
			if r.Index < 0 || r.Index >= total || !(Slice{Index: s.manifest.Shard, Count: n}).Has(r.Index) {
				return nil, nil, nil, fmt.Errorf("%s lists run %d, which is not one of its runs", s.name(), r.Index)
			}
			if found[r.Index] {
				return nil, nil, nil, fmt.Errorf("%s lists run %d twice", s.name(), r.Index)
			}
			found[r.Index] = true
			want := batch[r.Index]
			if r.Label != want.Label() {
				return nil, nil, nil, fmt.Errorf("%s: run %d is labelled %q in %s; the experiment's run %d is %q",
					s.name(), r.Index, r.Label, File, r.Index, want.Label())
			}
			if err := sameRun(s.result.Runs[k], r.Index, want); err != nil {
				return nil, nil, nil, fmt.Errorf("%s: summary.json: its run %d (run %d of the batch): %w", s.name(), k+1, r.Index, err)
			}
			if flows := s.result.Runs[k].Flows; flows != nil {
				// The histograms summary.json lacks, for the statistics
				// pooled over seeds.
				if err := flows.SetHistograms(r.Flows); err != nil {
					return nil, nil, nil, fmt.Errorf("%s: run %d: %s: %w", s.name(), r.Index, File, err)
				}
			}
			if most := maxRows(want.Exp); r.Rows < 0 || r.Rows > most {
				return nil, nil, nil, fmt.Errorf("%s: run %d has %d time-series rows in %s; the run takes at most %d samples",
					s.name(), r.Index, r.Rows, File, most)
			}
			runs[r.Index] = place{s: s, k: k, run: want}
		}
	}
	for i, ok := range found {
		if !ok {
			s := byIndex[owner(i, n)]
			return nil, nil, nil, fmt.Errorf("%s did not finish run %d (and perhaps others): run that shard again", s.name(), i)
		}
	}
	if listed != total {
		return nil, nil, nil, fmt.Errorf("the shards list %d runs of a batch of %d", listed, total)
	}
	return runs, e, first, nil
}

// versionOf names the qcnlab that ran a shard.
func versionOf(m Manifest) string {
	if m.Version == "" {
		return "a qcnlab that did not record its version"
	}
	return m.Version
}

// sameRun checks that a summary is of the run the experiment has at index.
func sameRun(got batch.RunSummary, index int, want experiments.Run) error {
	if got.Algorithm != want.Algorithm || got.Seed != want.Exp.Seed {
		return fmt.Errorf("it is %s with seed %d, not %s with seed %d", orNone(got.Algorithm), got.Seed, want.Algorithm, want.Exp.Seed)
	}
	if got.Run != index {
		return fmt.Errorf("it is run %d, not run %d", got.Run, index)
	}
	point := map[string]string{}
	for _, a := range want.Point {
		point[a.Key] = a.Value
	}
	if len(got.Point) != len(point) {
		return fmt.Errorf("its sweep point %v is not the run's %v", got.Point, point)
	}
	for k, v := range point {
		if got.Point[k] != v {
			return fmt.Errorf("its sweep point %v is not the run's %v", got.Point, point)
		}
	}
	return nil
}

func orNone(s string) string {
	if s == "" {
		return "no run (null)"
	}
	return s
}

// maxRows is the most time-series rows a run of e writes: a sample every
// sample interval up to the duration.
func maxRows(e *experiments.Experiment) int {
	return int(min(float64(e.Duration)/float64(max(e.Output.SampleInterval, 1)), 1e12)) + 1
}

// mergeSeries writes the time series of every run, in batch order, into w
// as timeseries.csv.gz: the header the shards share, then each run's rows
// read in turn from its shard's file, so memory does not grow with the data,
// each compressed as one gzip member as the batch run whole writes it. Each
// line is checked as it is copied: no longer than its columns allow,
// starting with its run's identity (run, swept values, algorithm, seed),
// its time after the row before.
func mergeSeries(ctx context.Context, e *experiments.Experiment, runs []place, w io.Writer) error {
	type source struct {
		r    *bufio.Reader
		name string
		line int
	}
	readers := map[*slice]*source{}
	var header []byte
	for _, p := range runs {
		s := p.s
		if readers[s] != nil {
			continue
		}
		name := filepath.Join(s.dir, results.SeriesFile)
		f, err := userfile.Open(name, shardFile)
		if err != nil {
			return err
		}
		defer f.Close()
		z, err := gzip.NewReader(bufio.NewReaderSize(results.ContextReader(ctx, f), 1<<16))
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		src := &source{r: bufio.NewReaderSize(z, 1<<16), name: name}
		h, err := readLine(src.r, maxHeader)
		src.line++
		if err != nil {
			return fmt.Errorf("%s:%d: %w", name, src.line, err)
		}
		if header == nil {
			header = slices.Clone(h)
		} else if !bytes.Equal(h, header) {
			return fmt.Errorf("%s and %s: %s headers differ", runs[0].s.dir, s.dir, results.SeriesFile)
		}
		readers[s] = src
	}
	maxLine := cellBytes * (bytes.Count(header, []byte(",")) + 1)
	bw := bufio.NewWriterSize(w, 1<<16)
	if err := results.Gzip(bw, header); err != nil {
		return err
	}
	for i, p := range runs {
		src := readers[p.s]
		prefix := results.SeriesPrefix(e, i, p.run)
		last := math.Inf(-1)
		z, _ := gzip.NewWriterLevel(bw, results.SeriesLevel)
		for rows := p.s.manifest.Runs[p.k].Rows; rows > 0; rows-- {
			line, err := readLine(src.r, maxLine)
			src.line++
			switch {
			case errors.Is(err, io.EOF):
				return fmt.Errorf("%s: has fewer rows than %s lists (run %d)", src.name, File, i)
			case err != nil:
				return fmt.Errorf("%s:%d: %w", src.name, src.line, err)
			case !bytes.HasPrefix(line, prefix):
				return fmt.Errorf("%s:%d: the row is not of run %d (%s), which %s places there",
					src.name, src.line, i, p.run.Label(), File)
			}
			cell, _, _ := bytes.Cut(line[len(prefix):], []byte(","))
			t, err := strconv.ParseFloat(string(cell), 64)
			if err != nil || !(t > last) {
				return fmt.Errorf("%s:%d: time %q does not follow the row before (%g s)", src.name, src.line, cell, last)
			}
			last = t
			if _, err := z.Write(line); err != nil {
				return err
			}
		}
		if err := z.Close(); err != nil {
			return err
		}
	}
	for s, src := range readers {
		if _, err := src.r.ReadByte(); err != io.EOF {
			if err == nil {
				err = fmt.Errorf("has more rows than %s lists", File)
			}
			return fmt.Errorf("%s: %s: %w", s.dir, results.SeriesFile, err)
		}
	}
	return bw.Flush()
}

// readLine reads one line, its newline included, refusing one longer than
// limit bytes instead of growing a buffer to hold it.
func readLine(r *bufio.Reader, limit int) ([]byte, error) {
	var line []byte
	for {
		chunk, err := r.ReadSlice('\n')
		if len(line)+len(chunk) > limit {
			return nil, fmt.Errorf("a line longer than %d bytes, more than its columns can hold", limit)
		}
		line = append(line, chunk...)
		switch {
		case err == nil:
			return line, nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case errors.Is(err, io.EOF) && len(line) > 0:
			return nil, errors.New("the last line has no end (a truncated file?)")
		default:
			return nil, err
		}
	}
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
