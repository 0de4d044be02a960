package reproduce

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

	"qcnlab/algos"
	"qcnlab/experiments"
	"qcnlab/experiments/batch"
	"qcnlab/experiments/metrics"
	"qcnlab/experiments/stability"
	"qcnlab/model"
	"qcnlab/units"
)

// Verdicts a rule gives.
const (
	Agrees  = "agrees"
	Partly  = "partly"
	Differs = "differs"
	// NotJudged is the verdict of a criterion (or claim) none of whose
	// statements could be judged: a stability criterion that finds no
	// boundary anywhere in the range.
	NotJudged = "not judged"
)

// Claim is one statement of a paper, the experiments that test it and the
// rule that judges it. The fields from Experiment to Probe are its main
// part; Also adds further experiments the rule reads by name.
type Claim struct {
	ID     string // "000-fig7"
	Ref    string // the reference, the seed paper: "000"
	Figure string // "figure 7"
	Text   string // the paper's claim, quoted or closely paraphrased

	Experiment string   // the built-in experiment
	Sets       []string // --set overrides that make it this claim's scenario
	// Edit changes what --set cannot (a finer sweep grid); nil for none.
	Edit  func(e *experiments.Experiment)
	Quick Quick // how --quick shortens the runs

	// Series keeps the time series and draws each run (rate curves, queue).
	Series bool
	// Search, if set, runs a stability search over the experiment instead
	// of its sweep.
	Search *Search
	// Probe, if set, watches each run for what its summary does not hold.
	Probe Probe

	// Also are further experiments of the claim, each with a name.
	Also []Part

	// Overlay, with Series, draws the rate curves of every value of this
	// swept key in one figure (the packet model against the convergence
	// model).
	Overlay string
	// Plot draws the summaries, e.g. a metric against the swept key; nil
	// for none.
	Plot *SweepPlot

	Rule Rule

	// Why says why the claim differs from the paper, where the project
	// knows: a reading of the paper, a setting it does not give, what the
	// model does. The report's notes give it whenever the verdict is not
	// agrees.
	Why string
	// Found is the verdict the full report gives, as last measured with
	// the paper's parameters (TestNeighbourSeeds -check-seeds compares it
	// with the full runs); a claim found to differ or to agree only partly
	// says Why (TestDifferingClaimsSayWhy).
	Found string

	// Corrections are documented settings under which the claim is judged
	// again, beside the paper's parameters.
	Corrections []Correction
}

// known records the full report's verdict of a claim built by a helper, and
// why it differs.
func (c Claim) known(found, why string) Claim {
	c.Found, c.Why = found, why
	return c
}

// Part is one experiment of a claim: a built-in, the settings that make it
// the claim's scenario, and how it runs (its sweep, a stability search, a
// probe).
type Part struct {
	Name       string // how the rule finds it; "" for the claim's main part
	Experiment string
	Sets       []string
	Edit       func(e *experiments.Experiment)
	Quick      Quick
	Series     bool
	Search     *Search
	Probe      Probe
}

// parts lists the claim's experiments, its main part first.
func (c Claim) parts() []Part {
	main := Part{Experiment: c.Experiment, Sets: c.Sets, Edit: c.Edit, Quick: c.Quick, Series: c.Series,
		Search: c.Search, Probe: c.Probe}
	return append([]Part{main}, c.Also...)
}

// Correction is a documented change of settings (a scheme switch, a lowered
// gain) that the report runs next to the paper's parameters, on every part
// of the claim.
type Correction struct {
	Name string   // what it is, in a few words
	Sets []string // --set overrides on top of the claim's
	// Edit changes what --set cannot, after the part's own Edit; nil for
	// none.
	Edit func(e *experiments.Experiment)
	Doc  string // why, with the seed's reference
	// Requires names the scheme parameters ("dsm.reaching_gain") the
	// correction sets: it is left out while a scheme lacks one.
	Requires []string
}

// available reports whether every parameter a correction sets exists.
func (c Correction) available() bool {
	for _, r := range c.Requires {
		scheme, key, _ := strings.Cut(r, ".")
		sc, err := algos.Lookup(scheme)
		if err != nil {
			return false
		}
		if _, ok := sc.Param(key); !ok {
			return false
		}
	}
	return true
}

// Quick says how --quick shortens a part's runs: a shorter duration and
// warm-up and at most Seeds values of the seed axis. Zero values keep the
// full setting; a claim whose quick settings change its runs keeps the same
// verdict as the full report (checked by TestQuickKeepsVerdicts).
type Quick struct {
	Duration, Warmup string
	Seeds            int
}

func (q Quick) zero() bool { return q == Quick{} }

// Rule judges a claim from its evidence.
type Rule func(ev *Evidence) Outcome

// Evidence is what a claim's parts produced: the runs of its sweeps (each
// run names its part) and its stability searches.
type Evidence struct {
	Runs     Runs
	Searches map[string]*stability.Report
}

// Part returns the runs of one part ("" for the main one).
func (ev *Evidence) Part(name string) Runs {
	var out Runs
	for _, r := range ev.Runs {
		if r.Part == name {
			out = append(out, r)
		}
	}
	return out
}

// Search returns the stability search of one part ("" for the main one).
func (ev *Evidence) Search(name string) *stability.Report { return ev.Searches[name] }

// Outcome is a rule's judgement: the statements it checked, directly or
// under each of several criteria, and the verdict they give (see finish).
type Outcome struct {
	Verdict    string
	Criterion  string // the rule, in words
	Statements []Statement
	Criteria   []CriterionResult
	Notes      string
	// marks are the paper's values to draw on a search's figure, by part.
	marks map[string][]mark
}

// mark adds the paper's values of bounds to a part's search figure.
func (o *Outcome) mark(part string, bounds []bound) {
	if o.marks == nil {
		o.marks = map[string][]mark{}
	}
	o.marks[part] = append(o.marks[part], marksOf(bounds)...)
}

// CriterionResult is the verdict under one criterion, with its statements.
type CriterionResult struct {
	Name       string      `json:"name"`
	Verdict    string      `json:"verdict"`
	Measured   string      `json:"measured"` // which statements hold, by name
	Statements []Statement `json:"statements"`
}

// grade turns a count of the statements that hold into a verdict: all of
// them, some, none; none judged is not judged.
func grade(held, of int) string {
	switch {
	case of == 0:
		return NotJudged
	case held == of:
		return Agrees
	case held == 0:
		return Differs
	}
	return Partly
}

// gradeStatements grades the statements that count.
func gradeStatements(ss []Statement) string {
	held, of := 0, 0
	for _, s := range ss {
		if s.counts() {
			of++
			if s.holds() {
				held++
			}
		}
	}
	return grade(held, of)
}

// combine gives the verdict over several groups (criteria): agrees when
// every judged group agrees, differs when every one differs, partly
// otherwise; groups not judged do not count.
func combine(vs []string) string {
	n := map[string]int{}
	judged := 0
	for _, v := range vs {
		if v != NotJudged {
			n[v]++
			judged++
		}
	}
	switch {
	case judged == 0:
		return NotJudged
	case n[Agrees] == judged:
		return Agrees
	case n[Differs] == judged:
		return Differs
	}
	return Partly
}

// finish computes the verdicts: of each criterion from its statements, of
// the claim from its criteria and its own statements.
func (o Outcome) finish() Outcome {
	var vs []string
	for i := range o.Criteria {
		c := &o.Criteria[i]
		c.Verdict = gradeStatements(c.Statements)
		c.Measured = summarize(c.Statements)
		vs = append(vs, c.Verdict)
	}
	if len(o.Statements) > 0 {
		vs = append(vs, gradeStatements(o.Statements))
	}
	o.Verdict = combine(vs)
	return o
}

// Measured names the statements that hold and those that do not: the
// claim's own, then each criterion's verdict.
func (o Outcome) Measured() string {
	var parts []string
	if len(o.Statements) > 0 {
		parts = append(parts, summarize(o.Statements))
	}
	for _, c := range o.Criteria {
		parts = append(parts, c.Name+": "+c.Verdict)
	}
	return strings.Join(parts, "; ")
}

// summarize says how many statements hold and names the others.
func summarize(ss []Statement) string {
	held, of := 0, 0
	var not, unjudged []string
	for _, s := range ss {
		switch {
		case !s.counts():
			unjudged = append(unjudged, s.Text)
		case s.holds():
			held++
			of++
		default:
			of++
			not = append(not, s.Text)
		}
	}
	if of == 0 {
		return "no statement judged"
	}
	out := fmt.Sprintf("%d of %d statements hold", held, of)
	if of == 1 {
		out = map[bool]string{true: "the statement holds", false: "the statement does not hold"}[held == 1]
	}
	if len(not) > 0 {
		out += "; not: " + strings.Join(not, "; ")
	}
	if len(unjudged) > 0 {
		out += fmt.Sprintf(" (%d not judged)", len(unjudged))
	}
	return out
}

// ClaimRun is one run of a claim: its summary, the part it belongs to and what
// a probe measured on it.
type ClaimRun struct {
	batch.RunSummary
	Part  string
	Extra map[string]float64
}

// Runs are the runs of a claim.
type Runs []ClaimRun

// Of returns the runs of one algorithm (all if alg is empty) whose sweep
// point has every key=value given.
func (rs Runs) Of(alg string, point ...string) Runs {
	var out Runs
	for _, r := range rs {
		if alg != "" && r.Algorithm != alg {
			continue
		}
		ok := true
		for _, kv := range point {
			k, v, _ := strings.Cut(kv, "=")
			if strings.Trim(r.Point[k], `"`) != v {
				ok = false
				break
			}
		}
		if ok {
			out = append(out, r)
		}
	}
	return out
}

// Mean averages a metric over the runs that have it; NaN for none.
func (rs Runs) Mean(m Metric) float64 {
	s, n := 0.0, 0
	for i := range rs {
		if x, ok := m.Value(&rs[i]); ok {
			s += x
			n++
		}
	}
	if n == 0 {
		return math.NaN()
	}
	return s / float64(n)
}

// Values returns the distinct values of a sweep key, in the order of their
// numeric value when they have units.
func (rs Runs) Values(key string) []string {
	var vs []string
	for _, r := range rs {
		v := strings.Trim(r.Point[key], `"`)
		if !slices.Contains(vs, v) {
			vs = append(vs, v)
		}
	}
	sort.SliceStable(vs, func(i, j int) bool { return numeric(vs[i]) < numeric(vs[j]) })
	return vs
}

// Algorithms lists the algorithms of the runs in their order.
func (rs Runs) Algorithms() []string {
	var as []string
	for _, r := range rs {
		if !slices.Contains(as, r.Algorithm) {
			as = append(as, r.Algorithm)
		}
	}
	return as
}

// numeric reads a sweep value in base units (seconds, bytes, bits/s) or as
// a plain number.
func numeric(v string) float64 {
	v = strings.Trim(v, `"`)
	if x, err := strconv.ParseFloat(v, 64); err == nil {
		return x
	}
	if d, err := units.ParseDuration(v); err == nil {
		return d.Seconds()
	}
	if r, err := units.ParseRate(v); err == nil {
		return r
	}
	if b, err := units.ParseBytes(v); err == nil {
		return b
	}
	return math.NaN()
}

// Metric reads one number from a run: a metric of the registry (package
// metrics) at one element, or a quantity of the claim's own. ok is false
// when the run has none; for a time to fairness (TTF) that means the run
// never became fair, and never counts as fair within any time.
type Metric struct {
	Name  string
	Unit  unit
	TTF   bool
	Value func(r *ClaimRun) (float64, bool)
}

// registryUnits says how a registry unit reads in the report.
var registryUnits = map[string]unit{"seconds": seconds, "bytes": kilobyte, "fraction": share, "bits/s": bps, "frames": count}

// reg is metric m of the registry on element i (a bottleneck or source;
// ignored for a run metric).
func reg(m *metrics.Metric, i int) Metric {
	return Metric{Name: m.Column(i), Unit: registryUnits[m.Unit], TTF: m == metrics.TimeToFairness,
		Value: func(r *ClaimRun) (float64, bool) { return m.Value(&r.Summary, i) }}
}

// as is the metric written in another unit (a fraction as a percentage).
func (m Metric) as(u unit) Metric { m.Unit = u; return m }

// inPhase is metric m of the registry on element i over the phase that
// starts at start seconds; a run without the phase has no value.
func inPhase(start float64, m *metrics.Metric, i int) Metric {
	return Metric{Name: fmt.Sprintf("%s in the phase from %gs", m.Column(i), start), Unit: registryUnits[m.Unit],
		Value: func(r *ClaimRun) (float64, bool) {
			p := phase(r.Summary, start)
			if p == nil {
				return 0, false
			}
			s := model.Summary{Bottlenecks: p.Bottlenecks, Sources: p.Sources, JainFairness: p.JainFairness}
			return m.Value(&s, i)
		}}
}

// extra is a value a probe measured, by name.
func extra(name string, u unit) Metric {
	return Metric{Name: name, Unit: u, Value: func(r *ClaimRun) (float64, bool) {
		x, ok := r.Extra[name]
		return x, ok && !math.IsNaN(x)
	}}
}

// custom is a metric computed from a summary.
func custom(name string, u unit, f func(s *model.Summary) float64) Metric {
	return Metric{Name: name, Unit: u, Value: func(r *ClaimRun) (float64, bool) {
		x := f(&r.Summary)
		return x, !math.IsNaN(x)
	}}
}

// The metrics of the first bottleneck and of fairness, from the registry.
var (
	queueStd    = reg(metrics.QueueStd, 0)
	queueMean   = reg(metrics.QueueMean, 0)
	queueTarget = reg(metrics.QueueTarget, 0)
	emptyFrac   = reg(metrics.EmptyFraction, 0).as(percent)
	utilization = reg(metrics.Utilization, 0)
	timeToFair  = reg(metrics.TimeToFairness, 0)
)

// phase returns the summary of the phase that starts at start seconds, or
// nil.
func phase(s model.Summary, start float64) *model.PhaseSummary {
	for i := range s.Phases {
		if math.Abs(s.Phases[i].Start-start) < 1e-9 {
			return &s.Phases[i]
		}
	}
	return nil
}
