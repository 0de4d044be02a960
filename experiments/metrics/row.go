package metrics

import (
	"context"
	"strconv"

	"qcnlab/model"
)

// results.csv's row of a run: each metric of the registry in its column,
// with the groups of numbers it writes as blocks between them. The
// columns come in summary.json's order: the run's first metrics, then
// each bottleneck's (sw0_...), each source's (src0_...), the run's
// others, each phase's (phase0_..., with its bottlenecks, sources,
// fairness and tiers), each tier's (tiers0_...), then the run's groups
// that close it.

// A Group is numbers of an element or of the run that results.csv writes
// as a block of columns beside the metrics: labels that name an element
// (a port's tier, a flow's hosts), a port's queue quantiles and traffic
// classes, seed 002's convergence numbers, the flows by size, the ports
// and flows a fabric watches, a PFC deadlock's cycle.
type Group struct {
	Name  string // summary.json's name within its scope
	Scope Scope
	Doc   string
	// Before is the metric of its scope whose column it precedes; ""
	// puts it after all of them.
	Before string
	cells  func(s *model.Summary, i int, prefix string, emit func(name, value string))
}

// Groups lists the groups, in results.csv's order within a scope.
var Groups = []*Group{
	{Name: "model", Scope: Run, Before: "sim_seconds", Doc: "the model that ran, text: packet, fluid or convergence",
		cells: func(s *model.Summary, _ int, p string, emit func(string, string)) { emit(p+"model", s.Model) }},
	{Name: "tier", Scope: Bottleneck, Before: "capacity_bps", Doc: "a fabric port's tier, text (a chain's ports have none)",
		cells: func(s *model.Summary, i int, p string, emit func(string, string)) {
			emit(p+"tier", s.Bottlenecks[i].Tier)
		}},
	{Name: "queue_quantiles_bytes", Scope: Bottleneck, Before: "q_eq_bytes", Doc: "time-weighted quantiles of the queue: p1 to p99; also the queue CDF figure",
		cells: func(s *model.Summary, i int, p string, emit func(string, string)) {
			quantiles(&s.Bottlenecks[i].QueueQuantiles, p+"queue_quantiles_bytes_", emit)
		}},
	{Name: "classes", Scope: Bottleneck, Doc: "a port's traffic classes, when it has several: each one's class, throughput, queue and drops",
		cells: func(s *model.Summary, i int, p string, emit func(string, string)) {
			for k := range s.Bottlenecks[i].Classes {
				ClassCells(&s.Bottlenecks[i].Classes[k], p+"classes"+strconv.Itoa(k)+"_", emit)
			}
		}},
	{Name: "from, to", Scope: Source, Before: "throughput_bps", Doc: "a fabric flow's hosts, from and to, text",
		cells: func(s *model.Summary, i int, p string, emit func(string, string)) {
			emit(p+"from", s.Sources[i].From)
			emit(p+"to", s.Sources[i].To)
		}},
	{Name: "tier", Scope: Tier, Before: "ports", Doc: "the tier's name, text",
		cells: func(s *model.Summary, i int, p string, emit func(string, string)) { emit(p+"tier", s.Tiers[i].Tier) }},
	{Name: "convergence", Scope: Run, Before: "flows_started", Doc: "seed 002's model: the bounds of p[Fb>0] and the periods without a solution; also the text summary",
		cells: func(s *model.Summary, _ int, p string, emit func(string, string)) {
			c := s.Convergence
			if c == nil {
				for _, n := range []string{"p_fb_min", "p_fb_max", "unsolved_periods"} {
					emit(p+"convergence_"+n, "")
				}
				return
			}
			emit(p+"convergence_p_fb_min", number(c.PFbMin))
			emit(p+"convergence_p_fb_max", number(c.PFbMax))
			emit(p+"convergence_unsolved_periods", strconv.Itoa(c.Unsolved))
		}},
	{Name: "flows.by_size", Scope: Run, Before: "flows_incast_flows", Doc: "the flows' numbers by size bucket; also fct.csv (a row per bucket) and the FCT figure",
		cells: func(s *model.Summary, _ int, p string, emit func(string, string)) {
			if s.Flows == nil {
				return
			}
			for k, b := range s.Flows.BySize {
				q := p + "flows_by_size" + strconv.Itoa(k) + "_"
				emit(q+"min_bytes", number(b.MinBytes))
				emit(q+"max_bytes", number(b.MaxBytes))
				emit(q+"started", strconv.FormatInt(b.Started, 10))
				emit(q+"completed", strconv.FormatInt(b.Completed, 10))
				for _, x := range []struct {
					name string
					v    float64
				}{{"fct_mean_seconds", b.FCTMean}, {"fct_p50_seconds", b.FCTP50}, {"fct_p95_seconds", b.FCTP95}, {"fct_p99_seconds", b.FCTP99},
					{"slowdown_mean", b.SlowdownMean}, {"slowdown_p50", b.SlowdownP50}, {"slowdown_p95", b.SlowdownP95}, {"slowdown_p99", b.SlowdownP99}} {
					emit(q+x.name, number(x.v))
				}
			}
		}},
	{Name: "watched", Scope: Run, Doc: "the ports and flows a fabric's time series follows, in its columns' order",
		cells: func(s *model.Summary, _ int, p string, emit func(string, string)) {
			if w := s.Watched; w != nil {
				for k, name := range w.Ports {
					emit(p+"watched_ports"+strconv.Itoa(k), name)
				}
				for k, f := range w.Flows {
					emit(p+"watched_flows"+strconv.Itoa(k), strconv.Itoa(f))
				}
			}
		}},
	{Name: "pfc_deadlock", Scope: Run, Doc: "the cycle of pauses that stopped a run: its ports and classes, since when, detected when; also stderr",
		cells: func(s *model.Summary, _ int, p string, emit func(string, string)) {
			d := s.PFCDeadlock
			if d == nil {
				emit(p+"pfc_deadlock_since_seconds", "")
				emit(p+"pfc_deadlock_detected_seconds", "")
				return
			}
			for k, port := range d.Ports {
				emit(p+"pfc_deadlock_ports"+strconv.Itoa(k), port)
			}
			for k, c := range d.Classes {
				emit(p+"pfc_deadlock_classes"+strconv.Itoa(k), strconv.Itoa(c))
			}
			emit(p+"pfc_deadlock_since_seconds", number(d.Since))
			emit(p+"pfc_deadlock_detected_seconds", number(d.Detected))
		}},
}

// ClassCells writes one traffic class's numbers, each name after prefix.
func ClassCells(c *model.ClassSummary, prefix string, emit func(name, value string)) {
	emit(prefix+"class", strconv.Itoa(c.Class))
	emit(prefix+"throughput_bps", number(c.ThroughputBps))
	emit(prefix+"queue_mean_bytes", number(c.QueueMean))
	emit(prefix+"queue_max_bytes", number(c.QueueMax))
	emit(prefix+"drops", strconv.FormatInt(c.Drops, 10))
	emit(prefix+"dropped_bytes", strconv.FormatInt(c.DroppedBytes, 10))
	emit(prefix+"marked_frames", strconv.FormatInt(c.MarkedFrames, 10))
}

func quantiles(q *model.Quantiles, prefix string, emit func(name, value string)) {
	for _, x := range []struct {
		name string
		v    float64
	}{{"p1", q.P1}, {"p5", q.P5}, {"p10", q.P10}, {"p25", q.P25}, {"p50", q.P50}, {"p75", q.P75}, {"p90", q.P90}, {"p95", q.P95}, {"p99", q.P99}} {
		emit(prefix+x.name, number(x.v))
	}
}

// number writes a value as results.csv does: the shortest text that reads
// back the same float.
func number(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// Format writes a value of the metric as results.csv does: a count as an
// integer.
func (m *Metric) Format(v float64) string {
	if m.Integer {
		return strconv.FormatInt(int64(v), 10)
	}
	return number(v)
}

// Cell is the metric's cell in results.csv for element i: its value, or
// empty where the run has none.
func (m *Metric) Cell(s *model.Summary, i int) string {
	if i < 0 || i >= m.Count(s) {
		return ""
	}
	get := m.value
	if m.cell != nil {
		get = m.cell
	}
	v, ok := get(s, i)
	if !ok {
		return ""
	}
	return m.Format(v)
}

// Row writes the cells of a run's row of results.csv, named by their
// columns, in order; ports false leaves each port's own columns out (a
// fabric's, whose positions name different ports in different runs:
// ports.csv.gz names them), not the numbers over them (its classes'). It
// stops early, mid-row, when ctx is cancelled (the caller sees ctx's
// error).
func Row(ctx context.Context, s *model.Summary, ports bool, emit func(name, value string)) {
	done := map[Scope]bool{Bottleneck: !ports}
	for _, m := range All {
		if m.Scope == Run {
			groups(Run, m.Name, s, 0, "", emit)
			emit(m.Name, m.Cell(s, 0))
			continue
		}
		if done[m.Scope] {
			continue
		}
		done[m.Scope] = true
		for i := range m.Count(s) {
			if i%1024 == 0 && ctx.Err() != nil {
				return
			}
			element(ctx, m.Scope, s, i, m.Scope.Prefix()+strconv.Itoa(i)+"_", emit)
		}
	}
	groups(Run, "", s, 0, "", emit)
}

// element writes the cells of element i of a scope: its metrics and
// groups, and for a phase the run's metrics over it.
func element(ctx context.Context, scope Scope, s *model.Summary, i int, prefix string, emit func(name, value string)) {
	for _, m := range All {
		if m.Scope == scope {
			groups(scope, m.Name, s, i, prefix, emit)
			emit(prefix+m.Name, m.Cell(s, i))
		}
	}
	groups(scope, "", s, i, prefix, emit)
	if scope == Phase {
		in := InPhase(&s.Phases[i])
		for _, sub := range []Scope{Bottleneck, Source} {
			for j := range Count(sub, in) {
				element(ctx, sub, in, j, prefix+sub.Prefix()+strconv.Itoa(j)+"_", emit)
			}
		}
		emit(prefix+JainFairness.Name, JainFairness.Cell(in, 0))
		for j := range Count(Tier, in) {
			element(ctx, Tier, in, j, prefix+Tier.Prefix()+strconv.Itoa(j)+"_", emit)
		}
	}
}

// groups writes the groups of a scope placed before the metric named
// before ("": those after every metric).
func groups(scope Scope, before string, s *model.Summary, i int, prefix string, emit func(name, value string)) {
	for _, g := range Groups {
		if g.Scope == scope && g.Before == before {
			g.cells(s, i, prefix, emit)
		}
	}
}

// Count is the number of elements of a scope on a run.
func Count(scope Scope, s *model.Summary) int {
	return (&Metric{Scope: scope}).Count(s)
}
