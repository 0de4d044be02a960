package results

import (
	"fmt"
	"math"
	"strconv"

	"qcnlab/experiments/batch"
	"qcnlab/experiments/metrics"
	"qcnlab/experiments/stats"
	"qcnlab/model"
)

// minCISeeds is the fewest seeds whose confidence interval the text summary
// shows. Student's t at 95% is 12.7 for 2 seeds and 4.30 for 3: an interval
// that wide says more about the quantile than about the runs, and runs past
// what the metric can take (a utilization of 29.77% ± 325.25); the least and
// largest seed's values say what was measured.
const minCISeeds = 4

// seedsHeader explains, once per text summary, how a metric over seeds reads.
const seedsHeader = "mean over the seeds; in parentheses, with 2 or 3 seeds, the least and the largest seed's value; from 4 seeds on,\n" +
	"± the half-width of the 95% confidence interval of the mean (Student's t), or that interval clipped where it\n" +
	"passes a bound the metric cannot (a negative queue, a utilization above 100%)"

// spread is a metric over the seeds of one point: its sample statistics
// and the least and largest value.
type spread struct {
	stats.Sample
	lo, hi float64
}

// spreadOf summarises the values of the seeds that have one.
func spreadOf(xs []float64) spread {
	s := spread{Sample: stats.Of(xs), lo: math.NaN(), hi: math.NaN()}
	for _, x := range xs {
		if math.IsNaN(s.lo) || x < s.lo {
			s.lo = x
		}
		if math.IsNaN(s.hi) || x > s.hi {
			s.hi = x
		}
	}
	return s
}

// scaled is the spread in another unit: x/scale.
func (s spread) scaled(scale float64) spread {
	return spread{Sample: stats.Sample{N: s.N, Mean: s.Mean / scale, Std: s.Std / scale, CI95: s.CI95 / scale}, lo: s.lo / scale, hi: s.hi / scale}
}

// bounds are what a metric can take, in the unit it is written in.
type bounds struct{ floor, ceil float64 }

var (
	nonNegative = bounds{0, math.Inf(1)}
	percentage  = bounds{0, 100}
	fraction    = bounds{0, 1}
)

// text writes the spread, every number in format followed by unit: the
// mean alone when the seeds agree (or one has it), else the mean and, in
// parentheses, the seeds' range (fewer than minCISeeds), or ± the half-width
// of the 95% interval, clipped to b where it passes it.
func (s spread) text(format, unit string, b bounds) string {
	f := func(x float64) string { return fmt.Sprintf(format, x) + unit }
	same := func(x, y float64) bool { return fmt.Sprintf(format, x) == fmt.Sprintf(format, y) } // as written
	switch {
	case s.N == 0:
		return "none"
	case s.N == 1 || same(s.lo, s.hi):
		return f(s.Mean)
	case s.N < minCISeeds:
		return fmt.Sprintf("%s (%s to %s)", f(s.Mean), fmt.Sprintf(format, s.lo), f(s.hi))
	}
	lo, hi := max(s.Mean-s.CI95, b.floor), min(s.Mean+s.CI95, b.ceil)
	switch {
	case same(lo, hi):
		return f(s.Mean)
	case lo != s.Mean-s.CI95 || hi != s.Mean+s.CI95:
		return fmt.Sprintf("%s (95%% CI %s to %s)", f(s.Mean), fmt.Sprintf(format, lo), f(hi))
	}
	return f(s.Mean) + " ± " + f(s.CI95)
}

// num is a plain number's spread in format.
func num(s spread, format string, b bounds) string { return s.text(format, "", b) }

// count is a count's spread (or its mean over seeds), a whole value
// without decimals: "drops 0", "48.5 (0 to 97) pause frames".
func count(s spread) string {
	whole := func(x float64) bool { return x == math.Trunc(x) }
	if s.N > 0 && (s.N == 1 || s.lo == s.hi) && whole(s.Mean) {
		return strconv.FormatFloat(s.Mean, 'f', 0, 64)
	}
	if s.N > 1 && s.N < minCISeeds && whole(s.lo) && whole(s.hi) {
		return fmt.Sprintf("%.1f (%.0f to %.0f)", s.Mean, s.lo, s.hi)
	}
	return s.text("%.1f", "", nonNegative)
}

// pct is a fraction's spread in percent.
func pct(s spread, decimals int) string {
	return s.scaled(0.01).text("%."+strconv.Itoa(decimals)+"f", "%", percentage)
}

// kbCI is a size's spread, in the unit the mean reads in.
func kbCI(s spread) string {
	if s.N == 0 {
		return "none"
	}
	name, scale, format := sizeUnit(s.Mean)
	return s.scaled(scale).text(format, name, nonNegative)
}

// secondsCI is a time's spread, in the unit the mean reads in, to three
// figures.
func secondsCI(s spread) string {
	if s.N == 0 {
		return "none"
	}
	name, scale := timeUnit(s.Mean)
	t := s.scaled(scale)
	fig := func(x float64) string { return threeFigures(x) + " " + name }
	switch {
	case t.N == 1 || threeFigures(t.lo) == threeFigures(t.hi):
		return fig(t.Mean)
	case t.N < minCISeeds:
		return fmt.Sprintf("%s (%s to %s)", fig(t.Mean), threeFigures(t.lo), fig(t.hi))
	}
	if lo := t.Mean - t.CI95; lo < 0 {
		return fmt.Sprintf("%s (95%% CI 0 to %s)", fig(t.Mean), fig(t.Mean+t.CI95))
	}
	return fig(t.Mean) + " ± " + fig(t.CI95)
}

// over is a metric of the runs over their seeds; a run without a value is
// left out.
func over(runs []*batch.RunSummary, f func(r *batch.RunSummary) (float64, bool)) spread {
	xs := make([]float64, 0, len(runs))
	for _, r := range runs {
		if v, ok := f(r); ok && !math.IsNaN(v) {
			xs = append(xs, v)
		}
	}
	return spreadOf(xs)
}

// groupPort is one port of a point's seeds, found by its name: on a fabric
// a position is a different port in different seeds (the ports listed are
// those that carried traffic), so the seeds' values of a port are taken
// where each run lists that name.
type groupPort struct {
	name string
	at   map[*model.Summary]int // the port's index in each run's list that has it
}

// seedSummaries are the summaries of a point's seeds that the text
// summary reads ports from: the runs' own, or one phase's (nil for a run
// without it).
type seedSummaries []*model.Summary

// phaseOf is phase k of each run.
func phaseOf(runs []*batch.RunSummary, k int) seedSummaries {
	out := make(seedSummaries, len(runs))
	for i, r := range runs {
		if k < len(r.Phases) {
			out[i] = metrics.InPhase(&r.Phases[k])
		}
	}
	return out
}

// wholeRuns are the runs' own summaries.
func wholeRuns(runs []*batch.RunSummary) seedSummaries {
	out := make(seedSummaries, len(runs))
	for i, r := range runs {
		out[i] = &r.Summary
	}
	return out
}

// ports lists the ports of the summaries, in the order the first summary
// that has each lists them.
func (ss seedSummaries) ports() []*groupPort {
	var ports []*groupPort
	byName := map[string]*groupPort{}
	for _, s := range ss {
		if s == nil {
			continue
		}
		for j, b := range s.Bottlenecks {
			p := byName[b.Name]
			if p == nil {
				p = &groupPort{name: b.Name, at: map[*model.Summary]int{}}
				byName[b.Name] = p
				ports = append(ports, p)
			}
			if _, dup := p.at[s]; !dup {
				p.at[s] = j
			}
		}
	}
	return ports
}

// hottest picks the ports the text summary shows, as hottest does for one
// run, ranking the ports by their totals over the seeds.
func (ss seedSummaries) hottest(ports []*groupPort, fabric bool) []*groupPort {
	totals := make([]model.BottleneckSummary, len(ports))
	for i, p := range ports {
		for _, s := range ss {
			if j, ok := p.at[s]; ok {
				b := &s.Bottlenecks[j]
				totals[i].Drops += b.Drops
				totals[i].PauseFrames += b.PauseFrames
				totals[i].QueueMean += b.QueueMean
			}
		}
	}
	var out []*groupPort
	for _, i := range hottest(totals, fabric) {
		out = append(out, ports[i])
	}
	return out
}

// value is a port metric of the registry over the seeds that list the port.
func (ss seedSummaries) value(p *groupPort, m *metrics.Metric) spread {
	xs := make([]float64, 0, len(ss))
	for _, s := range ss {
		if j, ok := p.at[s]; ok {
			if v, ok := m.Value(s, j); ok && !math.IsNaN(v) {
				xs = append(xs, v)
			}
		}
	}
	return spreadOf(xs)
}

// seen says in how many of the seeds the port carried traffic, when not
// in all: its values are over those seeds only.
func (p *groupPort) seen(runs int) string {
	if len(p.at) == runs {
		return ""
	}
	return fmt.Sprintf(" (carried traffic in %d of %d seeds; over those)", len(p.at), runs)
}
