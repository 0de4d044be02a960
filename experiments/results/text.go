package results

import (
	"cmp"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"qcnlab/algos"
	"qcnlab/experiments/batch"
	"qcnlab/experiments/metrics"
	"qcnlab/model"
	"qcnlab/printable"
	"qcnlab/units"
)

// WriteText writes a summary for people. A batch whose points ran over
// several seeds gets one block per point and algorithm: each metric's mean
// over the seeds and its spread (spread.text). Otherwise one block per run. Either way the blocks list
// the phases of an experiment that has them.
func WriteText(w io.Writer, res *Result) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	groups := seedGroups(res)
	several := slices.ContainsFunc(groups, func(g *seedGroup) bool { return len(g.runs) > 1 })
	if several {
		fmt.Fprintln(tw, seedsHeader)
		for _, g := range groups {
			fmt.Fprintln(tw)
			writeGroup(tw, g)
		}
	} else {
		for i := range res.Runs {
			if i > 0 {
				fmt.Fprintln(tw)
			}
			writeRun(tw, &res.Runs[i])
		}
	}
	switch {
	case res.Complete:
	case res.stopped:
		fmt.Fprintln(tw, "\n(incomplete: the batch was stopped)")
	case res.outputsLost && !res.runsLost:
		fmt.Fprintln(tw, "\n(every run finished, but some of their files could not be written, as reported on stderr)")
	default:
		fmt.Fprintln(tw, "\n(incomplete: some runs failed, as reported on stderr)")
	}
	return tw.Flush()
}

// seedGroup is the runs of one algorithm at one point of the sweep, the
// seed apart.
type seedGroup struct {
	label string
	runs  []*batch.RunSummary
}

// seedGroups groups the runs by algorithm and point without the seed, in
// the order of their first run.
func seedGroups(res *Result) []*seedGroup {
	var groups []*seedGroup
	byLabel := map[string]*seedGroup{}
	for i := range res.Runs {
		r := &res.Runs[i]
		label := pointLabel(res, r, false)
		g := byLabel[label]
		if g == nil {
			g = &seedGroup{label: label}
			byLabel[label] = g
			groups = append(groups, g)
		}
		g.runs = append(g.runs, r)
	}
	return groups
}

// pointLabel names a run by its algorithm and point, short keys in the
// sweep's order, with or without its seed.
func pointLabel(res *Result, r *batch.RunSummary, seed bool) string {
	parts := []string{r.Algorithm}
	if res.exp != nil {
		for _, a := range res.exp.Sweep {
			if v, ok := r.Point[a.Key]; ok && (seed || a.Key != "seed") {
				parts = append(parts, res.exp.ShortKey(a.Key)+"="+strings.Trim(v, `"`))
			}
		}
		return strings.Join(parts, " ")
	}
	fields := strings.Fields(r.Label) // a result without its experiment: the label's words
	if len(fields) > 0 {
		fields = fields[1:]
	}
	for _, part := range fields {
		if seed || !strings.HasPrefix(part, "seed=") {
			parts = append(parts, part)
		}
	}
	return strings.Join(parts, " ")
}

func writeRun(tw io.Writer, r *batch.RunSummary) {
	label := r.Label
	if label == "" {
		label = r.Algorithm
	}
	fmt.Fprintf(tw, "%s  (run %d, seed %d): %s simulated in %.3f s wall, %s\n", printable.Text(label), r.Run, r.Seed,
		units.FormatDuration(algos.Seconds(r.SimSeconds)), r.WallSeconds, runWork(r))
	writeTiers(tw, &r.Summary)
	shown := hottest(r.Bottlenecks, len(r.Tiers) > 0)
	for _, j := range shown {
		b := func(m *metrics.Metric) float64 { v, _ := m.Value(&r.Summary, j); return v }
		fmt.Fprintf(tw, "  %s %s\tutilization %.2f%%, drops %d, empty %.1f%% of the time\n", printable.Text(r.Bottlenecks[j].Name),
			units.FormatRate(b(metrics.Capacity)), 100*b(metrics.Utilization), int64(b(metrics.Drops)), 100*b(metrics.EmptyFraction))
		fmt.Fprintf(tw, "  queue\tmean %s, std %s, min %s, max %s%s\n", kb(b(metrics.QueueMean)), kb(b(metrics.QueueStd)),
			kb(b(metrics.QueueMin)), kb(b(metrics.QueueMax)), target(b(metrics.QueueTarget)))
		if b(metrics.PauseFrames) > 0 || b(metrics.HeldFraction) > 0 {
			fmt.Fprintf(tw, "  PFC\t%d pause frames, pausing its feeders %.1f%% of the time, paused %.1f%%\n",
				int64(b(metrics.PauseFrames)), 100*b(metrics.PausingFraction), 100*b(metrics.HeldFraction))
		}
	}
	if more := len(r.Bottlenecks) - len(shown); more > 0 {
		fmt.Fprintf(tw, "  \t(and %d more ports that carried traffic: summary.json, results.csv)\n", more)
	}
	jain := noFairness(&r.Summary)
	if r.JainFairness != nil {
		jain = fmt.Sprintf("%.3f", *r.JainFairness)
	}
	if len(r.Sources) > 0 {
		fmt.Fprintf(tw, "  throughput\t%s Gbps; Jain fairness %s\n", throughputs(r.Sources), jain)
	} else {
		fmt.Fprintf(tw, "  throughput\tno greedy flows; Jain fairness %s\n", jain)
	}
	var paused []string
	for _, s := range r.Sources {
		if s.PausedFraction > 0 {
			paused = append(paused, fmt.Sprintf("%d: %.1f%%", s.ID, 100*s.PausedFraction))
		}
	}
	if len(paused) > maxListed {
		paused = append(paused[:maxListed], fmt.Sprintf("and %d more", len(paused)-maxListed))
	}
	if len(paused) > 0 {
		fmt.Fprintf(tw, "  sources paused\t%s of the time\n", strings.Join(paused, ", "))
	}
	if unheard := unheard(r.Sources); unheard != "" {
		fmt.Fprintf(tw, "  never acknowledged\t%s\n", unheard)
	}
	ttf := "not reached"
	if r.JainFairness == nil {
		ttf = noFairness(&r.Summary)
	} else if r.TimeToFairness != nil {
		ttf = seconds(*r.TimeToFairness) + unfairRun(r)
	}
	fmt.Fprintf(tw, "  time to fairness\t%s\n", ttf)
	if f := r.Flows; f != nil {
		writeFlowsText(tw, f, "")
	}
	for i := range r.Phases {
		p := metrics.InPhase(&r.Phases[i])
		shown := hottest(p.Bottlenecks, len(p.Tiers) > 0)
		for k, j := range shown {
			b := func(m *metrics.Metric) float64 { v, _ := m.Value(p, j); return v }
			head := ""
			if k == 0 {
				start, _ := metrics.PhaseStart.Value(&r.Summary, i)
				end, _ := metrics.PhaseEnd.Value(&r.Summary, i)
				head = "phase " + span(start, end)
			}
			jain := ""
			if k == len(shown)-1 {
				jain = "; Jain none"
				if v, ok := metrics.JainFairness.Value(p, 0); ok {
					jain = fmt.Sprintf("; Jain %.3f", v)
				}
			}
			fmt.Fprintf(tw, "  %s\t%s utilization %.2f%%, queue %s ± %s, drops %d%s\n", head, printable.Text(p.Bottlenecks[j].Name),
				100*b(metrics.Utilization), kb(b(metrics.QueueMean)), kb(b(metrics.QueueStd)), int64(b(metrics.Drops)), jain)
		}
	}
}

// writeGroup writes one point's block: each metric over its seeds, a port
// by its name in each seed.
func writeGroup(tw io.Writer, g *seedGroup) {
	var seeds, runs []string
	for _, r := range g.runs {
		seeds = append(seeds, strconv.FormatUint(r.Seed, 10))
		runs = append(runs, strconv.Itoa(r.Run))
	}
	first := g.runs[0]
	fmt.Fprintf(tw, "%s  (%d seeds: %s; runs %s): %s, %s\n", printable.Text(g.label), len(g.runs),
		strings.Join(seeds, " "), strings.Join(runs, " "), simulated(g.runs), groupWork(g.runs))
	writeGroupTiers(tw, g.runs)
	whole := wholeRuns(g.runs)
	fabric := len(first.Tiers) > 0
	for _, p := range whole.hottest(whole.ports(), fabric) {
		b := func(m *metrics.Metric) spread { return whole.value(p, m) }
		fmt.Fprintf(tw, "  %s %s\tutilization %s, drops %s, empty %s of the time%s\n", printable.Text(p.name),
			units.FormatRate(b(metrics.Capacity).Mean), pct(b(metrics.Utilization), 2), count(b(metrics.Drops)),
			pct(b(metrics.EmptyFraction), 1), p.seen(len(g.runs)))
		fmt.Fprintf(tw, "  queue\tmean %s, std %s, min %s, max %s%s\n",
			kbCI(b(metrics.QueueMean)), kbCI(b(metrics.QueueStd)), kbCI(b(metrics.QueueMin)), kbCI(b(metrics.QueueMax)), target(b(metrics.QueueTarget).Mean))
		if b(metrics.PauseFrames).Mean > 0 || b(metrics.HeldFraction).Mean > 0 {
			fmt.Fprintf(tw, "  PFC\t%s pause frames, pausing its feeders %s of the time, paused %s\n",
				count(b(metrics.PauseFrames)), pct(b(metrics.PausingFraction), 1), pct(b(metrics.HeldFraction), 1))
		}
	}
	jain := metricOver(g.runs, metrics.JainFairness, 0)
	jainText := noFairness(&first.Summary)
	if jain.N > 0 {
		jainText = num(jain, "%.3f", fraction) + reached(jain.N, len(g.runs), "delivered")
	}
	if len(first.Sources) > 0 {
		total := over(g.runs, func(r *batch.RunSummary) (float64, bool) {
			sum := 0.0
			for _, s := range r.Sources {
				sum += s.ThroughputBps
			}
			return sum / 1e9, true
		})
		fmt.Fprintf(tw, "  throughput\t%s in all; Jain fairness %s\n", num(total, "%.3f", nonNegative)+" Gbps", jainText)
	} else {
		fmt.Fprintf(tw, "  throughput\tno greedy flows; Jain fairness %s\n", jainText)
	}
	ttf := metricOver(g.runs, metrics.TimeToFairness, 0)
	ttfText := "not reached"
	if len(first.Sources) == 0 && delivered(&first.Summary) {
		ttfText = "none (no greedy flows)"
	}
	if ttf.N > 0 {
		ttfText = secondsCI(ttf) + reached(ttf.N, len(g.runs), "reached it") + unfairGroup(g.runs)
	}
	fmt.Fprintf(tw, "  time to fairness\t%s\n", ttfText)
	if pooled, ok := groupFlows(g); ok {
		writeFlowsText(tw, pooled, ", seeds pooled")
	} else if first.Flows != nil {
		flow := func(f func(f *model.FlowSummary) float64) spread {
			return over(g.runs, func(r *batch.RunSummary) (float64, bool) {
				if r.Flows == nil {
					return 0, false
				}
				return f(r.Flows), true
			})
		}
		fmt.Fprintf(tw, "  short flows\t%s started, %s completed, %s lost\n",
			count(flow(func(f *model.FlowSummary) float64 { return float64(f.Started) })),
			count(flow(func(f *model.FlowSummary) float64 { return float64(f.Completed) })),
			count(flow(func(f *model.FlowSummary) float64 { return float64(f.Lost) })))
		fmt.Fprintf(tw, "  FCT\tmean %s, p99 %s; slowdown mean %s\n",
			secondsCI(flow(func(f *model.FlowSummary) float64 { return f.FCTMean })),
			secondsCI(flow(func(f *model.FlowSummary) float64 { return f.FCTP99 })),
			num(flow(func(f *model.FlowSummary) float64 { return f.SlowdownMean }), "%.3g", nonNegative))
	}
	for k, p := range first.Phases {
		phase := phaseOf(g.runs, k)
		shown := phase.hottest(phase.ports(), fabric)
		for i, port := range shown {
			b := func(m *metrics.Metric) spread { return phase.value(port, m) }
			head := ""
			if i == 0 {
				head = "phase " + span(p.Start, p.End)
			}
			jain := ""
			if i == len(shown)-1 {
				jain = "; Jain " + num(over(g.runs, func(r *batch.RunSummary) (float64, bool) {
					if k >= len(r.Phases) {
						return 0, false
					}
					return optionalValue(r.Phases[k].JainFairness)
				}), "%.3f", fraction)
			}
			fmt.Fprintf(tw, "  %s\t%s utilization %s, queue mean %s (std %s), drops %s%s%s\n", head, printable.Text(port.name),
				pct(b(metrics.Utilization), 2), kbCI(b(metrics.QueueMean)), kb(b(metrics.QueueStd).Mean),
				count(b(metrics.Drops)), jain, port.seen(len(g.runs)))
		}
	}
}

// groupWork is the wall time a point's seeds took and what the models did
// in it: frames on the packet model.
func groupWork(runs []*batch.RunSummary) string {
	wall, frames := 0.0, uint64(0)
	for _, r := range runs {
		wall += r.WallSeconds
		frames += r.Frames
	}
	w := fmt.Sprintf("%.3f s wall in all", wall)
	if runs[0].Model != "" && runs[0].Model != "packet" {
		return w
	}
	return fmt.Sprintf("%s, %.1f M frames/s", w, float64(frames)/max(wall, 1e-9)/1e6)
}

// writeGroupTiers writes a fabric's per-tier lines over the seeds, a tier
// by its name in each seed.
func writeGroupTiers(tw io.Writer, runs []*batch.RunSummary) {
	for _, t := range runs[0].Tiers {
		v := func(m *metrics.Metric) spread {
			return over(runs, func(r *batch.RunSummary) (float64, bool) {
				for i := range r.Tiers {
					if r.Tiers[i].Tier == t.Tier {
						return m.Value(&r.Summary, i)
					}
				}
				return 0, false
			})
		}
		line := fmt.Sprintf("  tier %s\t%s ports, utilization mean %s, max %s, drops %s", printable.Text(t.Tier), count(v(metrics.TierPorts)),
			pct(v(metrics.TierUtilizationMean), 1), pct(v(metrics.TierUtilizationMax), 1), count(v(metrics.TierDrops)))
		if v(metrics.TierPauseFrames).Mean > 0 || v(metrics.TierHeldFractionMax).Mean > 0 {
			line += fmt.Sprintf(", %s pause frames, paused up to %s of the time", count(v(metrics.TierPauseFrames)), pct(v(metrics.TierHeldFractionMax), 1))
		}
		if v(metrics.TierMarkedFrames).Mean > 0 {
			line += fmt.Sprintf(", %s frames marked", count(v(metrics.TierMarkedFrames)))
		}
		fmt.Fprintln(tw, line)
	}
}

// simulated says how long the seeds' runs simulated: "10ms simulated
// each", or, if they ran different lengths (a run stopped early, such as
// by a PFC deadlock), "8.20 ms to 10.0 ms simulated".
func simulated(runs []*batch.RunSummary) string {
	lo, hi := runs[0].SimSeconds, runs[0].SimSeconds
	for _, r := range runs {
		lo, hi = min(lo, r.SimSeconds), max(hi, r.SimSeconds)
	}
	if lo == hi {
		return units.FormatDuration(algos.Seconds(lo)) + " simulated each"
	}
	return seconds(lo) + " to " + seconds(hi) + " simulated"
}

// metricOver is a metric of the registry over the runs' seeds, of their
// i-th element; a run without a value is left out.
func metricOver(runs []*batch.RunSummary, m *metrics.Metric, i int) spread {
	return over(runs, func(r *batch.RunSummary) (float64, bool) { return m.Value(&r.Summary, i) })
}

func optionalValue(p *float64) (float64, bool) {
	if p == nil {
		return 0, false
	}
	return *p, true
}

// reached says how many of the seeds have the value, when not all do.
func reached(n, of int, what string) string {
	if n == of {
		return ""
	}
	return fmt.Sprintf(" (%d of %d seeds %s)", n, of, what)
}

// kb writes a size in KB to a decimal, in MB or GB when it has more
// than four figures in KB: 33.0KB, 150.0KB, 2.8MB, 2.79GB.
func kb(bytes float64) string {
	name, scale, format := sizeUnit(bytes)
	return fmt.Sprintf(format+"%s", bytes/scale, name)
}

// sizeUnit is the unit a size of x bytes reads in, and its format.
func sizeUnit(x float64) (name string, scale float64, format string) {
	switch a := math.Abs(x); {
	case a >= 1e9:
		return "GB", 1e9, "%.2f"
	case a >= 1e7:
		return "MB", 1e6, "%.1f"
	}
	return "KB", 1e3, "%.1f"
}

// timeUnit is the unit a time of x seconds reads in: s from a second on
// (5.00 s, not 4999.70 ms), ms from a millisecond, us below.
func timeUnit(x float64) (name string, scale float64) {
	switch {
	case math.Abs(x) >= 1:
		return "s", 1
	case math.Abs(x) >= 1e-3:
		return "ms", 1e-3
	}
	return "us", 1e-6
}

// seconds writes a time in the unit that reads, to three significant
// figures at least: 5.00 s, 12.3 ms, 850 us.
func seconds(x float64) string {
	name, scale := timeUnit(x)
	return fmt.Sprintf("%s %s", threeFigures(x/scale), name)
}

// threeFigures writes x, below 1000, with two decimals below 10, one below
// 100, none above: 5.00, 12.3, 850.
func threeFigures(x float64) string {
	switch a := math.Abs(x); {
	case a < 10:
		return fmt.Sprintf("%.2f", x)
	case a < 100:
		return fmt.Sprintf("%.1f", x)
	}
	return fmt.Sprintf("%.0f", x)
}

// runWork is what a run's model did in its wall time: frames on the packet
// model; the fluid model integrates rates and the convergence model steps
// expected rates, and neither sends a frame.
func runWork(r *batch.RunSummary) string {
	switch r.Model {
	case "fluid":
		return fmt.Sprintf("fluid model, %d integration steps", r.Events)
	case "convergence":
		return fmt.Sprintf("convergence model, %d sampling periods", r.Events)
	}
	return fmt.Sprintf("%d frames, %.1f M frames/s", r.Frames, float64(r.Frames)/max(r.WallSeconds, 1e-9)/1e6)
}

// target is a port's queue target in parentheses, none for a scheme
// without one (none, TIMELY, HPCC, Swift: algos.Scheme.QueueTarget is 0).
func target(qeq float64) string {
	if qeq <= 0 {
		return ""
	}
	return " (target " + kb(qeq) + ")"
}

// unfairRun qualifies a run's time to fairness when what its sources
// delivered is not fair (batch.RunSummary.DeliveredUnfair): on a chain the
// rates judged are those reaching the bottleneck, on a fabric the rates
// delivered from that time on, not over the whole window.
func unfairRun(r *batch.RunSummary) string {
	if !r.DeliveredUnfair || r.JainFairness == nil {
		return ""
	}
	if len(r.Tiers) > 0 {
		return fmt.Sprintf(" (fair from then on; over the window delivered Jain %.3f)", *r.JainFairness)
	}
	return fmt.Sprintf(" (of the rates reaching the bottleneck; delivered Jain %.3f)", *r.JainFairness)
}

// unfairGroup is unfairRun over a point's seeds: how many of those with a
// time to fairness delivered unfairly.
func unfairGroup(runs []*batch.RunSummary) string {
	n, of := 0, 0
	for _, r := range runs {
		if r.TimeToFairness != nil {
			of++
			if r.DeliveredUnfair {
				n++
			}
		}
	}
	if n == 0 {
		return ""
	}
	what := "of the rates reaching the bottleneck"
	if len(runs[0].Tiers) > 0 {
		what = "fair from then on"
	}
	return fmt.Sprintf(" (%s; in %d of these %d seeds the delivered Jain index is below the fairness threshold)", what, n, of)
}

// span is a phase's limits: "100ms-110ms".
func span(start, end float64) string {
	return units.FormatDuration(algos.Seconds(start)) + "-" + units.FormatDuration(algos.Seconds(end))
}

// maxListed is the most sources whose throughputs the text summary lists
// one by one; beyond it, the first and last few and the spread.
const maxListed = 32

// throughputs lists the sources' throughputs in Gbps.
func throughputs(sources []model.SourceSummary) string {
	gbps := func(ss []model.SourceSummary) string {
		var parts []string
		for _, s := range ss {
			parts = append(parts, fmt.Sprintf("%.3g", s.ThroughputBps/1e9))
		}
		return strings.Join(parts, " ")
	}
	if len(sources) <= maxListed {
		return gbps(sources)
	}
	xs := make([]float64, len(sources))
	for i, s := range sources {
		xs[i] = s.ThroughputBps / 1e9
	}
	slices.Sort(xs)
	return fmt.Sprintf("%s ... (%d more) ... %s; of the %d sources: min %.3g, median %.3g, max %.3g",
		gbps(sources[:8]), len(sources)-16, gbps(sources[len(sources)-8:]), len(sources), xs[0], xs[len(xs)/2], xs[len(xs)-1])
}

// unheard lists the sources over the transport that sent, for a timer
// expired, yet had no ACK in the whole run and delivered nothing over the
// window: a scheme that moves only on ACKs (TIMELY, Swift, HPCC) never
// reacted for them, whatever rate the time series shows them sending at.
// Empty if there are none.
func unheard(sources []model.SourceSummary) string {
	var ids []string
	timeouts := int64(-1)
	for _, s := range sources {
		if s.ACKs == nil || *s.ACKs != 0 || s.Timeouts == nil || *s.Timeouts == 0 || s.DeliveredBytes != 0 {
			continue
		}
		ids = append(ids, strconv.Itoa(s.ID))
		if timeouts == -1 || timeouts == *s.Timeouts {
			timeouts = *s.Timeouts
		} else {
			timeouts = -2 // they differ
		}
	}
	if len(ids) == 0 {
		return ""
	}
	if len(ids) > maxListed {
		ids = append(ids[:maxListed], fmt.Sprintf("and %d more", len(ids)-maxListed))
	}
	what := "source " + ids[0]
	if len(ids) > 1 {
		what = "sources " + strings.Join(ids, ", ")
	}
	each := ""
	if timeouts > 0 {
		each = fmt.Sprintf(", %d retransmission timeouts each", timeouts)
	}
	return what + ": nothing delivered, no ACK in the whole run" + each
}

// maxPorts is the most ports of a fabric the text summary lists one by one.
const maxPorts = 8

// hottest lists the indices of the bottlenecks the text summary shows: all
// of a chain's; of a fabric, at most maxPorts, those that dropped most, then
// paused most, then queued most (the tiers sum up the rest).
func hottest(bs []model.BottleneckSummary, fabric bool) []int {
	idx := make([]int, len(bs))
	for i := range idx {
		idx[i] = i
	}
	if !fabric || len(bs) <= maxPorts {
		return idx
	}
	slices.SortStableFunc(idx, func(a, b int) int {
		x, y := &bs[a], &bs[b]
		return cmp.Or(cmp.Compare(y.Drops, x.Drops), cmp.Compare(y.PauseFrames, x.PauseFrames), cmp.Compare(y.QueueMean, x.QueueMean))
	})
	idx = idx[:maxPorts]
	slices.Sort(idx)
	return idx
}

// writeTiers writes a fabric's per-tier lines.
func writeTiers(tw io.Writer, s *model.Summary) {
	for i, t := range s.Tiers {
		v := func(m *metrics.Metric) float64 { x, _ := m.Value(s, i); return x }
		line := fmt.Sprintf("  tier %s\t%d ports, utilization mean %.1f%%, max %.1f%%, drops %d", printable.Text(t.Tier), int(v(metrics.TierPorts)),
			100*v(metrics.TierUtilizationMean), 100*v(metrics.TierUtilizationMax), int64(v(metrics.TierDrops)))
		if v(metrics.TierPauseFrames) > 0 || v(metrics.TierHeldFractionMax) > 0 {
			line += fmt.Sprintf(", %d pause frames, paused up to %.1f%% of the time", int64(v(metrics.TierPauseFrames)), 100*v(metrics.TierHeldFractionMax))
		}
		if v(metrics.TierMarkedFrames) > 0 {
			line += fmt.Sprintf(", %d frames marked", int64(v(metrics.TierMarkedFrames)))
		}
		fmt.Fprintln(tw, line)
	}
}
