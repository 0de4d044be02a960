package stability

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/BurntSushi/toml"

	"qcnlab/algos"
	"qcnlab/experiments"
	"qcnlab/experiments/batch"
	"qcnlab/experiments/cost"
	"qcnlab/experiments/keys"
)

// Options shape a search.
type Options struct {
	Key   string // the dotted key to vary: network.rtt, sources.count, params.dsm.c, ...
	Range string // "LO:HI" with units ("60us:300us"); the search walks from LO to HI, which may be the larger
	// Seeds judged at each point; nil means the experiment's own: the
	// values of its [sweep] seed axis, else its seed.
	Seeds []uint64
	// SeedCount, if Seeds is nil and it is set, judges each point over
	// this many seeds from the experiment's (--seeds N): it must be
	// positive, and is checked against the batch limits before any seed is
	// listed.
	SeedCount *int
	Criteria  []Criterion // for every algorithm; nil means each scheme's own (CriteriaFor)
	Grid      int         // coarse grid points, both ends included, at least 2; 0 means 9
	// Resolution is the bracket width at which bisection stops, in base
	// units; 0 means a 64th of the range (the grid's step halved three
	// times). A whole-number key stops at adjacent values.
	Resolution float64
	Workers    int // runs at once; 0 means one per CPU
	// Progress reports the runs of each step of the search: its Stage and
	// Step are "grid" (0), then "bisection 1" (1)...
	Progress func(batch.Progress)
}

// Report is what a search found.
type Report struct {
	Experiment string `json:"experiment"`
	Key        string `json:"key"`
	// Unit of the values: "s", "bytes", "bits/s", "count", or "" for a
	// plain number.
	Unit       string     `json:"unit"`
	Range      [2]float64 `json:"range"`
	Resolution float64    `json:"resolution"`
	Seeds      []uint64   `json:"seeds"`
	// Judged says how seeds combine: each criterion's metric is averaged
	// over the seeds, and the mean is compared with the threshold.
	Judged          string  `json:"judged"`
	DurationSeconds float64 `json:"duration_seconds"` // simulated per run
	WarmupSeconds   float64 `json:"warmup_seconds"`
	Runs            int     `json:"runs"` // simulations the search ran
	// IgnoredSweep lists the keys the experiment sweeps that the search
	// held at one value instead: the experiment's own, after any --set.
	// Always in the JSON, empty when there are none, as HeldAt.
	IgnoredSweep []string `json:"ignored_sweep"`
	// HeldAt is the value each of them was held at, as TOML writes it;
	// a key the experiment leaves to its default is absent.
	HeldAt   map[string]string `json:"held_at"`
	Complete bool              `json:"complete"`
	Results  []Boundary        `json:"results"`
	axis     axis
}

// Boundary is where one algorithm stops being stable under one criterion.
type Boundary struct {
	Algorithm string `json:"algorithm"`
	Criterion string `json:"criterion"`
	// Boundary is the first value, walking from the range's start, judged
	// unstable; nil if every value judged was stable.
	Boundary *float64 `json:"boundary"`
	// Bracket is the last stable value before the boundary, and the
	// boundary: the loop turns unstable in between. The first is nil when
	// the range's start is already unstable.
	Bracket [2]*float64 `json:"bracket"`
	Note    string      `json:"note"`   // a start already unstable, or a stable value past the boundary; "" if none
	Points  []Point     `json:"points"` // every value judged, in walk order
}

// Point is one value judged: the criterion's metric (mean over seeds; for a
// "qeq" threshold, a multiple of q_eq) and the verdict.
type Point struct {
	Value    float64 `json:"value"`
	Metric   float64 `json:"metric"`
	Unstable bool    `json:"unstable"`
}

// Find returns the result for one algorithm and criterion (by its name as
// Criterion.String writes it), or nil.
func (r *Report) Find(algorithm, criterion string) *Boundary {
	for i := range r.Results {
		if r.Results[i].Algorithm == algorithm && r.Results[i].Criterion == criterion {
			return &r.Results[i]
		}
	}
	return nil
}

// Search finds, for each algorithm of the experiment and each criterion,
// where along opt.Key the loop stops being stable. Each value is applied
// as --set would apply it, so the key's bounds and errors are the same. The
// experiment's [sweep] is not run: its seed values become the seeds (unless
// opt.Seeds is set), and other swept keys keep the file's own value (the
// report lists them). Runs go in parallel over
// opt.Workers; the result does not depend on their number. On cancellation
// Search returns what it has measured, Complete false, and ctx's error.
func Search(ctx context.Context, e *experiments.Experiment, opt Options) (*Report, error) {
	if opt.Key == "seed" {
		return nil, errors.New("--vary seed: the seeds are not searched; --seeds N judges each point over N of them")
	}
	if opt.SeedCount != nil && *opt.SeedCount < 1 {
		return nil, fmt.Errorf("--seeds must be positive (got %d)", *opt.SeedCount)
	}
	if opt.Grid < 0 || opt.Grid == 1 {
		return nil, fmt.Errorf("--grid must be at least 2 (got %d)", opt.Grid)
	}
	kind, err := keys.NumericKind(opt.Key)
	if err != nil {
		return nil, err
	}
	// A scheme's parameter moves only that scheme's runs: along one that
	// no algorithm of the experiment runs, nothing would change.
	if rest, ok := strings.CutPrefix(opt.Key, "params."); ok {
		if scheme, _, _ := strings.Cut(rest, "."); !slices.Contains(e.Algorithms, scheme) {
			return nil, fmt.Errorf("%s: the experiment runs no %s (algorithms: %s): nothing would change along it",
				opt.Key, scheme, strings.Join(e.Algorithms, ", "))
		}
	}
	ax := newAxis(opt.Key, kind)
	loText, hiText, ok := strings.Cut(opt.Range, ":")
	if !ok {
		return nil, fmt.Errorf("--range: %q is not LO:HI (for example %q)", opt.Range, "60us:300us")
	}
	lo, err := ax.parse(loText)
	if err != nil {
		return nil, err
	}
	hi, err := ax.parse(hiText)
	if err != nil {
		return nil, err
	}
	if lo == hi {
		return nil, fmt.Errorf("--range: %s: the range %s is empty", opt.Key, opt.Range)
	}
	base := e.Clone()
	seeds := opt.Seeds
	if seeds == nil && opt.SeedCount != nil {
		n := *opt.SeedCount
		if runs := float64(n) * float64(max(2, cmpOr(opt.Grid, 9))); runs > cost.MaxRuns {
			return nil, fmt.Errorf("--seeds %d: %d seeds at the coarse grid's %d points make %.0f runs; the most is %d",
				n, n, cmpOr(opt.Grid, 9), runs, cost.MaxRuns)
		}
		for i := range n {
			seeds = append(seeds, e.Seed+uint64(i))
		}
	}
	ignored := []string{}
	for _, a := range e.Sweep {
		switch a.Key {
		case opt.Key:
		case "seed":
			if seeds == nil {
				for _, v := range a.Values {
					s, err := strconv.ParseUint(v, 10, 64)
					if err != nil {
						return nil, fmt.Errorf("sweep.seed: %q is not a seed", v)
					}
					seeds = append(seeds, s)
				}
			}
		default:
			ignored = append(ignored, a.Key)
		}
	}
	base.Sweep = nil
	if seeds == nil {
		seeds = []uint64{e.Seed}
	}
	criteria := make([][]Criterion, len(e.Algorithms))
	for a, alg := range e.Algorithms {
		criteria[a] = opt.Criteria
		if criteria[a] == nil {
			criteria[a] = CriteriaFor(alg)
		}
	}
	res := opt.Resolution
	if res <= 0 {
		res = math.Abs(hi-lo) / 64
	}
	switch kind {
	case algos.Count:
		res = max(res, ax.step)
	case algos.Duration:
		res = max(ax.snap(res), 1e-12) // whole picoseconds
	}
	j := &judge{base: base, axis: ax, seeds: seeds, criteria: criteria, algs: e.Algorithms,
		points: map[float64]*experiments.Experiment{}, opt: opt}
	// Both ends must be values the experiment accepts.
	for _, x := range []float64{lo, hi} {
		if _, err := j.at(x); err != nil {
			return nil, err
		}
	}
	if err := j.fits(lo, hi); err != nil {
		return nil, err
	}
	if err := boundSearch(j, cmpOr(opt.Grid, 9), lo, hi); err != nil {
		return nil, err
	}
	s := &searcher{algs: e.Algorithms, criteria: criteria, judge: j.measure, overBuffer: j.overBuffer,
		plan: plan{lo: lo, hi: hi, grid: cmpOr(opt.Grid, 9), resolution: res, snap: ax.snap, format: ax.format}}
	err = s.run(ctx, func(step int) { j.step = step })
	rep := &Report{Experiment: e.Name, Key: opt.Key, Unit: ax.unit(), Range: [2]float64{lo, hi}, Resolution: res,
		Seeds: seeds, Judged: "mean over seeds", DurationSeconds: algos.Time(base.Duration).Seconds(),
		WarmupSeconds: base.WarmupTime().Seconds(), Runs: j.runs, IgnoredSweep: ignored, HeldAt: heldAt(base, ignored),
		Complete: err == nil, axis: ax}
	if s.seen != nil {
		for a := range s.algs {
			for c := range criteria[a] {
				rep.Results = append(rep.Results, s.boundary(a, c))
			}
		}
	}
	return rep, err
}

// boundSearch refuses a coarse grid whose runs exceed the limits of one
// batch (cost.MaxRuns, MaxBatchEvents) before any is planned:
// --grid and --seeds multiply.
func boundSearch(j *judge, grid int, lo, hi float64) error {
	runs := float64(grid) * float64(len(j.seeds)) * float64(max(1, len(j.algs)))
	if runs > cost.MaxRuns {
		return fmt.Errorf("--grid %d x %d seeds x %d algorithms makes %.0f runs; the most is %d",
			grid, len(j.seeds), len(j.algs), runs, cost.MaxRuns)
	}
	events := 0.0
	for _, x := range []float64{lo, hi} {
		if pt, err := j.at(x); err == nil {
			events = max(events, pt.Cost().Events)
		}
	}
	if runs*events > cost.MaxBatchEvents {
		return fmt.Errorf("the coarse grid's %.0f runs would need ~%.2g events, many hours of computing (the most is %.0g); fewer --grid points or --seeds, or a shorter duration",
			runs, runs*events, float64(cost.MaxBatchEvents))
	}
	return nil
}

func cmpOr(x, def int) int {
	if x > 0 {
		return x
	}
	return def
}

// judge runs the simulations behind a batch of requests.
type judge struct {
	base     *experiments.Experiment
	axis     axis
	seeds    []uint64
	criteria [][]Criterion // per algorithm
	algs     []string
	points   map[float64]*experiments.Experiment // the experiment at each value
	opt      Options
	step     int
	runs     int
}

// at is the experiment with the key set to x, as --set sets it.
func (j *judge) at(x float64) (*experiments.Experiment, error) {
	if p, ok := j.points[x]; ok {
		return p, nil
	}
	p := j.base.Clone()
	text := j.axis.text(x)
	if err := p.Set(j.axis.key + "=" + text); err != nil {
		return nil, fmt.Errorf("--range: %s=%s: %w", j.axis.key, text, err)
	}
	if err := p.Validate(); err != nil {
		return nil, fmt.Errorf("--range: %s=%s: %w", j.axis.key, text, err)
	}
	j.points[x] = p
	return p, nil
}

func (j *judge) measure(ctx context.Context, reqs []request) ([][]float64, error) {
	var runs []experiments.Run
	for _, r := range reqs {
		p, err := j.at(r.x)
		if err != nil {
			return nil, err
		}
		for _, seed := range j.seeds {
			x := p.Clone()
			x.Seed = seed
			runs = append(runs, experiments.Run{Algorithm: j.algs[r.alg], Exp: x, Point: []experiments.Assignment{
				{Key: j.axis.key, Value: j.axis.text(r.x)}, {Key: "seed", Value: strconv.FormatUint(seed, 10)}}})
		}
	}
	opt := batch.Options{Workers: j.opt.Workers}
	if j.opt.Progress != nil {
		stage := "grid"
		if j.step > 0 {
			stage = fmt.Sprintf("bisection %d", j.step)
		}
		opt.Progress = func(p batch.Progress) {
			p.Stage, p.Step = stage, j.step
			j.opt.Progress(p)
		}
	}
	sums, err := batch.Runs(ctx, runs, opt)
	if err != nil {
		return nil, err
	}
	j.runs += len(runs)
	out := make([][]float64, len(reqs))
	var errs []error
	for i, r := range reqs {
		band, err := j.band(r)
		if err != nil {
			return nil, err
		}
		out[i] = make([]float64, len(j.criteria[r.alg]))
		for c, crit := range j.criteria[r.alg] {
			sum := 0.0
			for k := range j.seeds {
				v, err := crit.MeasureIn(&sums[i*len(j.seeds)+k].Summary, band)
				if err != nil {
					errs = append(errs, err)
				}
				sum += v
			}
			out[i][c] = sum / float64(len(j.seeds))
		}
	}
	if len(errs) > 0 {
		return nil, errs[0] // the same for every point: one is enough
	}
	return out, nil
}

// overBuffer is the key of the algorithm's setpoint when it is at or
// above the buffer at x (keys.SetpointAbove), "" when it is not.
func (j *judge) overBuffer(alg int, x float64) string {
	p, err := j.at(x)
	if err != nil {
		return ""
	}
	key, _, _ := strings.Cut(keys.SetpointAbove(float64(p.Network.Buffer), p.BufferModel(), j.algs[alg], p.ParamValues), " = ")
	return key
}

// band is the marking band of the request's algorithm at its value: its
// scheme's QueueBand on the parameters the run resolves (K_min, K_max
// scale with the capacity), the zero Band for a scheme with a set point.
func (j *judge) band(r request) (Band, error) {
	p, err := j.at(r.x)
	if err != nil {
		return Band{}, err
	}
	cfg, err := p.Config(j.algs[r.alg])
	if err != nil {
		return Band{}, err
	}
	if cfg.Scheme == nil || cfg.Scheme.QueueBand == nil {
		return Band{}, nil
	}
	lo, hi := cfg.Scheme.QueueBand(cfg.Params)
	if lo >= hi {
		return Band{}, nil
	}
	return Band{lo, hi}, nil
}

// fits refuses, before any run, a criterion an algorithm cannot be judged
// by at either end of the range: a threshold per queue target for a scheme
// without one, or per marking band for a scheme without a band. Measured,
// it would stop the search at its first step.
func (j *judge) fits(lo, hi float64) error {
	for a, alg := range j.algs {
		for _, c := range j.criteria[a] {
			if c.Per == "" {
				continue
			}
			for _, x := range []float64{lo, hi} {
				p, err := j.at(x)
				if err != nil {
					return err
				}
				cfg, err := p.Config(alg)
				if err != nil {
					return err
				}
				if c.PerQEq && cfg.Scheme.QueueTarget(cfg.Params) <= 0 {
					return fmt.Errorf("--criteria: %s: %s has no queue target to take a multiple of (a size such as %s judges it)", c.Name, alg, c.Metric+">4.5KB")
				}
				if band, err := j.band(request{a, x}); err != nil {
					return err
				} else if !c.PerQEq && band.per(c.Per) <= 0 {
					return fmt.Errorf("--criteria: %s: %s has no marking band at %s=%s (kmin, kmax and band are DCQCN's K_min, K_max and K_max - K_min; qeq is a set point's)",
						c.Name, alg, j.axis.key, j.axis.text(x))
				}
			}
		}
	}
	return nil
}

// heldAt reads the values the swept keys in keys are held at from the
// experiment as it would be saved (after any --set).
func heldAt(e *experiments.Experiment, keys []string) map[string]string {
	out := map[string]string{}
	if len(keys) == 0 {
		return out
	}
	var buf bytes.Buffer
	if err := e.Encode(&buf); err != nil {
		return out
	}
	var doc map[string]any
	if _, err := toml.Decode(buf.String(), &doc); err != nil {
		return out
	}
	for _, k := range keys {
		var v any = doc
		for _, part := range strings.Split(k, ".") {
			m, ok := v.(map[string]any)
			if !ok {
				v = nil
				break
			}
			v = m[part]
		}
		if v != nil {
			out[k] = tomlText(v)
		}
	}
	return out
}

// tomlText writes a decoded TOML value back as TOML would.
func tomlText(v any) string {
	var buf bytes.Buffer
	if err := toml.NewEncoder(&buf).Encode(map[string]any{"v": v}); err != nil {
		return fmt.Sprint(v)
	}
	return strings.TrimSpace(strings.TrimPrefix(buf.String(), "v = "))
}
