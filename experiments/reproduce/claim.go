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
	"qcnlab/model"
	"qcnlab/units"
)

// Verdicts a rule gives.
const (
	Agrees  = "agrees"
	Partly  = "partly"
	Differs = "differs"
)

// Claim is one statement of a paper, the experiment that tests it and the
// rule that judges it.
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
	// Overlay, with Series, draws the rate curves of every value of this
	// swept key in one figure (the packet model against the convergence
	// model).
	Overlay string
	// Plot draws the summaries, e.g. a metric against the swept key; nil
	// for none.
	Plot *SweepPlot

	Rule Rule
	// Search, if set, runs a stability search over the experiment instead
	// of its sweep, and Judge judges the claim from it.
	Search *Search
	Judge  Judge

	// Corrections are documented settings under which the claim is judged
	// again, beside the paper's parameters.
	Corrections []Correction
}

// Correction is a documented change of settings (a scheme switch, a lowered
// gain) that the report runs next to the paper's parameters.
type Correction struct {
	Name string   // what it is, in a few words
	Sets []string // --set overrides on top of the claim's
	Doc  string   // why, with the seed's reference
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

// Quick says how --quick shortens a claim's runs: a shorter duration and
// warm-up and at most Seeds values of the seed axis. Zero values keep the
// full setting.
type Quick struct {
	Duration, Warmup string
	Seeds            int
}

// Rule judges a claim from its runs.
type Rule func(rs Runs) Outcome

// Outcome is a rule's judgement. Criteria lists the verdict under each
// criterion tried, where it depends on one; Verdict is then their
// combination (see combine).
type Outcome struct {
	Verdict   string
	Measured  string
	Criterion string // the rule, in words
	Criteria  []CriterionResult
	Notes     string
}

// CriterionResult is the verdict under one criterion.
type CriterionResult struct {
	Name     string `json:"name"`
	Verdict  string `json:"verdict"`
	Measured string `json:"measured"`
}

// combine gives the verdict over several criteria: agrees when all agree,
// differs when all differ, partly otherwise.
func combine(cs []CriterionResult) string {
	n := map[string]int{}
	for _, c := range cs {
		n[c.Verdict]++
	}
	switch {
	case len(cs) == 0:
		return Differs
	case n[Agrees] == len(cs):
		return Agrees
	case n[Differs] == len(cs):
		return Differs
	}
	return Partly
}

// combined sets the verdict and the measured summary from the criteria.
func (o Outcome) combined() Outcome {
	o.Verdict = combine(o.Criteria)
	o.Measured = summarizeCriteria(o.Criteria)
	return o
}

// grade turns a count of the claim's statements that hold into a verdict:
// all of them, some, none.
func grade(held, of int) string {
	switch {
	case held == of:
		return Agrees
	case held == 0:
		return Differs
	}
	return Partly
}

// Runs are the summaries of a claim's runs.
type Runs []batch.RunSummary

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

// Mean averages a metric over the runs (over seeds); NaN for none.
func (rs Runs) Mean(f Metric) float64 {
	if len(rs) == 0 {
		return math.NaN()
	}
	s := 0.0
	for _, r := range rs {
		s += f(r.Summary)
	}
	return s / float64(len(rs))
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

// Metric reads one number from a summary.
type Metric func(model.Summary) float64

// Metrics of the first bottleneck and of fairness.
var (
	queueStd    Metric = func(s model.Summary) float64 { return s.Bottlenecks[0].QueueStd }
	queueMean   Metric = func(s model.Summary) float64 { return s.Bottlenecks[0].QueueMean }
	emptyFrac   Metric = func(s model.Summary) float64 { return s.Bottlenecks[0].EmptyFraction }
	utilization Metric = func(s model.Summary) float64 { return s.Bottlenecks[0].Utilization }
	// timeToFair is time_to_fairness_seconds, the run's duration when the
	// rates never became fair for good (a lower bound).
	timeToFair Metric = func(s model.Summary) float64 {
		if s.TimeToFairness == nil {
			return s.SimSeconds
		}
		return *s.TimeToFairness
	}
)

// link returns a metric of bottleneck j.
func link(j int, f func(model.BottleneckSummary) float64) Metric {
	return func(s model.Summary) float64 { return f(s.Bottlenecks[j]) }
}

// stability is a criterion that tells an unstable run from a stable one.
type stabilityCriterion struct {
	name     string
	unstable func(s model.Summary) bool
}

// stabilityCriteria are the criteria the boundary claims are judged under:
// the queue's standard deviation above 20% of the scheme's target, above
// three frames (the threshold the built-ins of seed 000 were first judged
// by), the queue empty more than 1% of the time, utilization below 0.95.
func stabilityCriteria(frame float64) []stabilityCriterion {
	return []stabilityCriterion{
		{"queue std > 20% of target", func(s model.Summary) bool {
			b := s.Bottlenecks[0]
			return b.QueueStd > 0.2*b.QEq
		}},
		{fmt.Sprintf("queue std > 3 frames (%s)", units.FormatBytes(3*frame)), func(s model.Summary) bool {
			return s.Bottlenecks[0].QueueStd > 3*frame
		}},
		{"queue empty > 1% of the time", func(s model.Summary) bool { return s.Bottlenecks[0].EmptyFraction > 0.01 }},
		{"utilization < 0.95", func(s model.Summary) bool { return s.Bottlenecks[0].Utilization < 0.95 }},
	}
}

// unstableAt says whether most of the seeds at a point are unstable.
func (c stabilityCriterion) unstableAt(rs Runs) bool {
	n := 0
	for _, r := range rs {
		if c.unstable(r.Summary) {
			n++
		}
	}
	return 2*n > len(rs)
}
