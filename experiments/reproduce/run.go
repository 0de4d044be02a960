package reproduce

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"qcnlab/algos"
	"qcnlab/experiments"
	"qcnlab/experiments/batch"
	"qcnlab/experiments/outdir"
	"qcnlab/experiments/results"
	"qcnlab/experiments/stability"
	"qcnlab/units"
)

// Claims returns every claim the seeds support, by ID.
func Claims() []Claim {
	var cs []Claim
	for _, f := range []func() []Claim{claims000, claims002, claims003, claims004, claimsDynamic, claimsConext, claimsTransport} {
		cs = append(cs, f()...)
	}
	cs = slices.DeleteFunc(cs, func(c Claim) bool { return !hasBuiltin(c.Experiment) })
	for i := range cs {
		cs[i].Corrections = slices.DeleteFunc(slices.Clone(cs[i].Corrections), func(c Correction) bool { return !c.available() })
	}
	sort.SliceStable(cs, func(i, j int) bool { return natural(cs[i].ID) < natural(cs[j].ID) })
	return cs
}

// natural pads the numbers in an ID so that fig3 sorts before fig10.
func natural(id string) string {
	var b strings.Builder
	digits := ""
	flush := func() {
		if digits != "" {
			b.WriteString(strings.Repeat("0", max(0, 6-len(digits))) + digits)
			digits = ""
		}
	}
	for _, r := range id {
		if r >= '0' && r <= '9' {
			digits += string(r)
			continue
		}
		flush()
		b.WriteRune(r)
	}
	flush()
	return b.String()
}

// hasBuiltin reports whether a built-in experiment exists: a claim whose
// experiment is not (yet) in the library is left out, not judged.
func hasBuiltin(name string) bool { return slices.Contains(experiments.BuiltinNames(), name) }

// Select returns the claims with the given IDs (all if none), or an error
// naming the unknown ones.
func Select(ids []string) ([]Claim, error) {
	all := Claims()
	if len(ids) == 0 {
		return all, nil
	}
	var out []Claim
	var unknown []string
	for _, id := range ids {
		i := slices.IndexFunc(all, func(c Claim) bool { return c.ID == id })
		if i < 0 {
			unknown = append(unknown, id)
			continue
		}
		if !slices.ContainsFunc(out, func(c Claim) bool { return c.ID == id }) {
			out = append(out, all[i])
		}
	}
	if len(unknown) > 0 {
		var known []string
		for _, c := range all {
			known = append(known, c.ID)
		}
		return nil, fmt.Errorf("unknown claim %s (known: %s)", strings.Join(unknown, ", "), strings.Join(known, ", "))
	}
	return out, nil
}

// Options control a reproduction.
type Options struct {
	Quick   bool
	OutDir  string
	Workers int // simulations at once; 0 means one per CPU
	// Progress reports the experiments done, of all, and the fraction of
	// the estimated work.
	Progress func(batch.Progress)
	// Scale, if positive, multiplies every duration and warm-up (after
	// --quick): for tests that need a tiny real run.
	Scale float64
	// SeedOffset, if positive, adds to every seed of every experiment:
	// the neighbouring seeds a reviewer tries, to see whether a verdict
	// depends on the seeds drawn.
	SeedOffset uint64
}

// task is one experiment to execute; claims, parts and corrections that
// need the same experiment share it.
type task struct {
	exp      *experiments.Experiment
	key      string // the encoded experiment, its search and its probe
	settings []string
	series   bool
	dir      string      // for Series: its own output directory, in the report's
	out      *outdir.Dir // that directory, open
	cost     float64
	search   *Search
	probe    Probe
	runs     Runs // the finished runs of a sweep or probe, in run order
	complete bool
	stab     *stability.Report
	err      error
	wall     time.Duration
}

// job is one judgement: a claim, or a correction of it, and the task of
// each of its parts.
type job struct {
	claim      Claim
	correction *Correction
	parts      []Part
	tasks      []*task
}

// evidence gathers what the job's tasks produced, each run under its part.
func (j job) evidence() *Evidence {
	ev := &Evidence{Searches: map[string]*stability.Report{}}
	for i, t := range j.tasks {
		name := j.parts[i].Name
		if t.stab != nil {
			ev.Searches[name] = t.stab
		}
		for _, r := range t.runs {
			r.Part = name
			ev.Runs = append(ev.Runs, r)
		}
	}
	return ev
}

// complete says whether every task of the job finished.
func (j job) complete() bool {
	for _, t := range j.tasks {
		if !t.complete {
			return false
		}
	}
	return true
}

// Run executes the claims' experiments and judges them. The report holds
// every claim whose runs finished; if ctx is cancelled, the others are
// listed as interrupted and Run returns the report with ctx's error.
func Run(ctx context.Context, claims []Claim, opt Options) (*Report, error) {
	start := time.Now()
	var tasks []*task
	var jobs []job
	byKey := map[string]*task{}
	for _, c := range claims {
		variants := []*Correction{nil}
		for i := range c.Corrections {
			variants = append(variants, &c.Corrections[i])
		}
		for _, corr := range variants {
			j := job{claim: c, correction: corr, parts: c.parts()}
			for _, p := range j.parts {
				t, err := plan(p, corr, opt)
				if err != nil {
					return nil, fmt.Errorf("%s: %w", c.ID, err)
				}
				if old, ok := byKey[t.key]; ok {
					old.series = old.series || t.series
					t = old
				} else {
					byKey[t.key] = t
					tasks = append(tasks, t)
				}
				j.tasks = append(j.tasks, t)
			}
			jobs = append(jobs, j)
		}
	}
	for i, t := range tasks {
		if t.series {
			t.dir = filepath.Join("runs", fmt.Sprintf("%02d-%s", i+1, t.exp.Name))
		}
	}
	var dir *outdir.Dir
	if opt.OutDir != "" {
		var err error
		if dir, err = outdir.Open(opt.OutDir); err != nil {
			return nil, err
		}
		defer dir.Close() // after Finish, nothing
		if err := openOutputs(dir, claims, tasks); err != nil {
			for _, t := range tasks {
				if t.out != nil {
					t.out.Close()
				}
			}
			dir.Abandon()
			return nil, err
		}
		for _, t := range tasks {
			if t.out != nil {
				defer t.out.Close()
			}
		}
	}
	execute(ctx, tasks, opt)

	rep := &Report{Quick: opt.Quick, Started: start.UTC(), Workers: batch.Workers(opt.Workers), SeedOffset: opt.SeedOffset}
	for _, j := range jobs {
		for _, t := range j.tasks {
			if t.err != nil && !errors.Is(t.err, context.Canceled) {
				return nil, fmt.Errorf("%s: %w", j.claim.ID, t.err)
			}
		}
		if !j.complete() {
			if j.correction == nil {
				rep.Interrupted = append(rep.Interrupted, j.claim.ID)
			}
			continue
		}
		rep.add(j)
	}
	rep.WallSeconds = time.Since(start).Seconds()
	if dir != nil {
		if err := rep.write(dir); err != nil {
			return rep, err
		}
		// What an earlier report wrote and this one did not goes.
		for _, t := range tasks {
			if t.out != nil {
				t.out.Finish()
			}
		}
		if err := dir.Finish(); err != nil {
			return rep, err
		}
	}
	return rep, ctx.Err()
}

// openOutputs checks every name the report writes into dir, and those of
// each series task's folder (opening it as t.out), before any run: a
// refusal comes first, not after minutes of runs. Then it removes the
// earlier report's files, its folders' included, so that wherever this
// one stops, dir holds one report's files.
func openOutputs(dir *outdir.Dir, claims []Claim, tasks []*task) error {
	names := []string{"report.md", "report.json"}
	for _, c := range claims {
		names = append(names, "plots/"+c.ID+"*.png")
	}
	if err := dir.CheckNames(names...); err != nil {
		return err
	}
	for _, t := range tasks {
		if !t.series {
			continue
		}
		var err error
		if t.out, err = dir.Sub(filepath.ToSlash(t.dir)); err != nil {
			return err
		}
		files, err := results.Files(t.exp, results.Options{Plot: "png"})
		if err != nil {
			return err
		}
		if err := t.out.CheckNames(files...); err != nil {
			return err
		}
	}
	if err := dir.Begin(); err != nil {
		return err
	}
	for _, t := range tasks {
		if t.out != nil {
			if err := t.out.Begin(); err != nil {
				return err
			}
		}
	}
	return nil
}

// plan builds the experiment of one part of a claim (or of a correction of
// it).
func plan(p Part, corr *Correction, opt Options) (*task, error) {
	if p.Series && p.Probe != nil {
		return nil, fmt.Errorf("part %q: a probed part keeps no series", p.Name)
	}
	e, err := experiments.Builtin(p.Experiment)
	if err != nil {
		return nil, err
	}
	settings := []string{"built-in " + p.Experiment}
	if p.Name != "" {
		settings[0] = p.Name + ": " + settings[0]
	}
	sets := slices.Clone(p.Sets)
	if corr != nil {
		sets = append(sets, corr.Sets...)
	}
	for _, s := range sets {
		if err := e.Set(s); err != nil {
			return nil, err
		}
		settings = append(settings, "--set "+s)
	}
	edits := []func(*experiments.Experiment){p.Edit}
	if corr != nil {
		edits = append(edits, corr.Edit)
	}
	for _, edit := range edits {
		if edit == nil {
			continue
		}
		before := e.Sweep
		edit(e)
		for _, a := range before {
			if !slices.ContainsFunc(e.Sweep, func(b experiments.Axis) bool { return b.Key == a.Key }) {
				settings = append(settings, "not swept: "+a.Key)
			}
		}
	}
	var quick []string // what --quick changed, for the report
	if opt.Quick {
		q := p.Quick
		for _, s := range []struct{ key, v string }{{"duration", q.Duration}, {"warmup", q.Warmup}} {
			if s.v == "" {
				continue
			}
			before := e.WarmupTime()
			if s.key == "duration" {
				before = algos.Time(e.Duration)
			}
			if err := e.Set(s.key + "=" + s.v); err != nil {
				return nil, err
			}
			after := e.WarmupTime()
			if s.key == "duration" {
				after = algos.Time(e.Duration)
			}
			if after != before {
				quick = append(quick, fmt.Sprintf("%s %s instead of %s", s.key, units.FormatDuration(after), units.FormatDuration(before)))
			}
		}
		if q.Seeds > 0 {
			for i, a := range e.Sweep {
				if a.Key == "seed" && len(a.Values) > q.Seeds {
					quick = append(quick, fmt.Sprintf("%d seeds instead of %d", q.Seeds, len(a.Values)))
					e.Sweep[i].Values = a.Values[:q.Seeds]
				}
			}
		}
	}
	if len(quick) > 0 {
		settings = append(settings, "--quick: "+strings.Join(quick, ", "))
	}
	if opt.SeedOffset > 0 {
		e.Seed += opt.SeedOffset
		for i, a := range e.Sweep {
			if a.Key != "seed" {
				continue
			}
			vs := slices.Clone(a.Values)
			for k, v := range vs {
				if x, err := strconv.ParseUint(v, 10, 64); err == nil {
					vs[k] = strconv.FormatUint(x+opt.SeedOffset, 10)
				}
			}
			e.Sweep[i].Values = vs
		}
		settings = append(settings, fmt.Sprintf("every seed moved up by %d", opt.SeedOffset))
	}
	if opt.Scale > 0 {
		w := e.WarmupTime()
		e.Duration = units.Duration(float64(e.Duration) * opt.Scale)
		e.Warmup = ptr(units.Duration(float64(w) * opt.Scale))
	}
	settings = append(settings, "duration "+units.FormatDuration(algos.Time(e.Duration))+", warm-up "+units.FormatDuration(e.WarmupTime()))
	if !slices.ContainsFunc(e.Sweep, func(a experiments.Axis) bool { return a.Key == "seed" }) {
		settings = append(settings, fmt.Sprintf("seed %d", e.Seed))
	}
	for _, a := range e.Sweep {
		if p.Search == nil || a.Key == "seed" { // a search holds the other swept keys at the file's value
			settings = append(settings, fmt.Sprintf("sweep %s = [%s]", a.Key, strings.Join(a.Values, ", ")))
		}
	}
	if err := e.Validate(); err != nil {
		return nil, err
	}
	var b bytes.Buffer
	if err := e.Encode(&b); err != nil {
		return nil, err
	}
	t := &task{exp: e, key: b.String(), settings: settings, series: p.Series, search: p.Search, probe: p.Probe}
	if p.Probe != nil {
		t.key += "\n# probe " + p.Probe.Name()
		t.settings = append(t.settings, "probe: "+p.Probe.Name())
	}
	runs, err := e.Runs()
	if err != nil {
		return nil, err
	}
	for _, r := range runs {
		t.cost += cost(r)
	}
	if s := p.Search; s != nil {
		t.key += fmt.Sprintf("\n# search %+v", *s)
		t.settings = append(t.settings, fmt.Sprintf("stability search along %s over %s (grid %d, then bisection)", s.Key, s.Range, cmpOr(s.Grid, 9)))
		// The grid and about four rounds of bisection, per algorithm and
		// seed, at the experiment's own cost per run.
		t.cost *= float64(cmpOr(s.Grid, 9)+4) / float64(max(1, len(runs)/len(e.Algorithms)/seedCount(e)))
	}
	return t, nil
}

// ptr returns a pointer to v.
func ptr[T any](v T) *T { return &v }

func cmpOr(x, def int) int {
	if x > 0 {
		return x
	}
	return def
}

// seedCount is the number of seeds the experiment sweeps (1 if none).
func seedCount(e *experiments.Experiment) int {
	for _, a := range e.Sweep {
		if a.Key == "seed" {
			return len(a.Values)
		}
	}
	return 1
}

// cost estimates a run's work in frames simulated (a fluid or convergence
// run counts its steps as a tenth and a hundredth of a frame).
func cost(r experiments.Run) float64 {
	e := r.Exp
	d := algos.Time(e.Duration).Seconds()
	switch e.Model {
	case "fluid":
		return d * 1e5
	case "convergence":
		return d * 1e3
	}
	return float64(e.LinkCount()) * float64(e.Network.Capacity) * d / (8 * float64(e.Network.FrameSize))
}

// execute runs the tasks on one pool of workers, the cheapest first (so
// that Ctrl-C keeps as many judged claims as possible), each with as many
// workers as it has runs, up to the pool's size: the long experiments,
// which have many runs, keep every worker busy by themselves. Progress
// weighs each task by its estimated cost.
func execute(ctx context.Context, tasks []*task, opt Options) {
	order := slices.Clone(tasks)
	sort.SliceStable(order, func(i, j int) bool { return order[i].cost < order[j].cost })
	tracker := batch.NewTracker(len(order), func(k int) float64 { return order[k].cost }, opt.Progress)
	pool := newTokens(batch.Workers(opt.Workers))
	var wg sync.WaitGroup
	for k, t := range order {
		runs, _ := t.exp.Runs()
		n := min(len(runs), pool.size)
		if t.search != nil {
			n = pool.size
		}
		if !pool.acquire(ctx, n) {
			break
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer pool.release(n)
			o := results.Options{Workers: n, Progress: func(p batch.Progress) { tracker.Update(k, p.Fraction) }}
			if t.out != nil {
				o.Out, o.Plot = t.out, "png"
			}
			began := time.Now()
			switch {
			case t.search != nil:
				t.stab, t.err = runSearch(ctx, t, n, func(f float64) { tracker.Update(k, f) })
				t.complete = t.stab != nil && t.stab.Complete
			case t.probe != nil:
				t.runs, t.complete, t.err = runProbed(ctx, t, n, func(f float64) { tracker.Update(k, f) })
			default:
				var res *results.Result
				res, t.err = results.Execute(ctx, t.exp, o)
				if res != nil {
					t.complete = res.Complete
					for _, r := range res.Runs {
						t.runs = append(t.runs, ClaimRun{RunSummary: r})
					}
				}
			}
			t.wall = time.Since(began)
			tracker.Finish(k)
		}()
	}
	wg.Wait()
}

// runSearch runs a task's stability search on n workers.
func runSearch(ctx context.Context, t *task, n int, progress func(float64)) (*stability.Report, error) {
	criteria, err := t.search.criteria(float64(t.exp.Network.FrameSize))
	if err != nil {
		return nil, err
	}
	return stability.Search(ctx, t.exp, stability.Options{Key: t.search.Key, Range: t.search.Range, Grid: t.search.Grid,
		Criteria: criteria, Workers: n, Progress: func(p batch.Progress) {
			// The grid is most of the work; each round of bisection less.
			progress(min(0.95, (float64(p.Step)+p.Fraction)/5))
		}})
}

// runProbed runs a probed task's sweep on n workers, with its probe on
// every run.
func runProbed(ctx context.Context, t *task, n int, progress func(float64)) (Runs, bool, error) {
	runs, err := t.exp.Runs()
	if err != nil {
		return nil, false, err
	}
	sink := &probeSink{probe: t.probe}
	summaries, errs := batch.Execute(ctx, runs, nil, batch.Options{Workers: n, Sink: sink,
		Progress: func(p batch.Progress) { progress(p.Fraction) }})
	if err := batch.Failures(runs, errs); err != nil {
		return nil, false, err
	}
	var out Runs
	complete := true
	for i, s := range summaries {
		if s == nil {
			complete = false
			continue
		}
		out = append(out, ClaimRun{RunSummary: *s, Extra: sink.extra[i]})
	}
	return out, complete, ctx.Err()
}

// tokens is a counting semaphore handed out in order: a task waiting for
// many tokens is not overtaken by later, smaller ones.
type tokens struct {
	mu   sync.Mutex
	cond *sync.Cond
	free int
	size int
}

func newTokens(n int) *tokens {
	t := &tokens{free: n, size: n}
	t.cond = sync.NewCond(&t.mu)
	return t
}

// acquire takes n tokens, waiting for them; false if ctx ends first.
func (t *tokens) acquire(ctx context.Context, n int) bool {
	stop := context.AfterFunc(ctx, func() {
		t.mu.Lock()
		t.cond.Broadcast()
		t.mu.Unlock()
	})
	defer stop()
	t.mu.Lock()
	defer t.mu.Unlock()
	for t.free < n && ctx.Err() == nil {
		t.cond.Wait()
	}
	if ctx.Err() != nil {
		return false
	}
	t.free -= n
	return true
}

func (t *tokens) release(n int) {
	t.mu.Lock()
	t.free += n
	t.cond.Broadcast()
	t.mu.Unlock()
}
