// Package metrics is the registry of the summary metrics qcnlab compares
// runs by: each one's name (as summary.json and results.csv write it), unit,
// scope (the run, each bottleneck or each source), how to read it from a
// run's summary, and what a missing value means. The sweep figure, the
// stability criteria, results.csv and the text summary's link and fairness
// lines read metrics through it, so a metric means the same thing in each;
// a test fails when a number of the summary is not registered.
package metrics

import (
	"fmt"
	"strconv"
	"strings"

	"qcnlab/model"
)

// Scope is what a metric is measured on.
type Scope int

const (
	Run        Scope = iota // one value per run
	Bottleneck              // one value per bottleneck (congestible link)
	Source                  // one value per source
	Tier                    // one value per tier of a fabric's ports
	Phase                   // one value per phase of output.phases
	Class                   // one value per traffic class, over the ports, when they have several
)

func (s Scope) String() string {
	return [...]string{"run", "bottleneck", "source", "tier", "phase", "class"}[s]
}

// Prefix is the start of the name of an element's columns in results.csv
// (sw0_utilization, src1_throughput_bps, tiers0_drops, phase1_end_seconds,
// class1_drops); empty for the run's own.
func (s Scope) Prefix() string { return [...]string{"", "sw", "src", "tiers", "phase", "class"}[s] }

// Metric is one summary metric.
type Metric struct {
	Name  string // summary.json's and results.csv's name: "queue_std_bytes"
	Unit  string // "bytes", "bits/s", "seconds", "fraction", "frames", or "" for a plain number
	Scope Scope
	Doc   string // what it measures, one line
	// Missing says when a run has no value and what that means. Where it is
	// empty the metric always has a value for an element that exists.
	Missing string
	// Figure is the label of the metric's panel in a sweep's figure, ""
	// for a metric the figure does not draw; Most is the largest value it
	// takes, where its bars stop (0 for none).
	Figure string
	Most   float64
	// Integer says its values are counts, which results.csv writes as
	// integers ("12", not "12.0" or "1.2e+07").
	Integer bool
	value   func(s *model.Summary, i int) (float64, bool)
	// cell is the value results.csv writes, where it differs from value:
	// a flow quantile is written (0) when no flow completed, empty only
	// without flows; nil: value's.
	cell func(s *model.Summary, i int) (float64, bool)
}

// counts marks the metric's values as counts (Integer).
func (m *Metric) counts() *Metric {
	m.Integer = true
	return m
}

// drawn gives the metric a panel in a sweep's figure.
func (m *Metric) drawn(label string, most float64) *Metric {
	m.Figure, m.Most = label, most
	return m
}

// Drawn lists the metrics a sweep's figure draws, a panel each, in the
// registry's order.
func Drawn() []*Metric {
	var out []*Metric
	for _, m := range All {
		if m.Figure != "" {
			out = append(out, m)
		}
	}
	return out
}

// Value is the metric on a run: of its i-th bottleneck or source (i is
// ignored for a run metric). ok is false when the run has no such value:
// the element does not exist, or Missing applies. A missing value is never
// 0: results.csv leaves its cell empty, summary.json writes null, the
// sweep figure leaves the run out of the mean and stability judges it NaN.
func (m *Metric) Value(s *model.Summary, i int) (v float64, ok bool) {
	if i < 0 || i >= m.Count(s) {
		return 0, false
	}
	return m.value(s, i)
}

// Count is the number of values the metric has on a run: its bottlenecks,
// its sources, or 1.
func (m *Metric) Count(s *model.Summary) int {
	switch m.Scope {
	case Bottleneck:
		return len(s.Bottlenecks)
	case Source:
		return len(s.Sources)
	case Tier:
		return len(s.Tiers)
	case Phase:
		return len(s.Phases)
	case Class:
		return classes(s)
	}
	return 1
}

// classes is the number of traffic classes of a run's ports, 0 with one
// (a port lists its classes only when it has several).
func classes(s *model.Summary) int {
	n := 0
	for i := range s.Bottlenecks {
		n = max(n, len(s.Bottlenecks[i].Classes))
	}
	return n
}

// Column is the metric's column in results.csv for element i: the name, or
// for a bottleneck or source the name after its prefix and index.
func (m *Metric) Column(i int) string {
	if m.Scope == Run {
		return m.Name
	}
	return m.Scope.Prefix() + strconv.Itoa(i) + "_" + m.Name
}

// Lookup returns the metric of a scope by its name: a bottleneck and a
// source both have feedback_frames and paused_fraction.
func Lookup(scope Scope, name string) (*Metric, error) {
	for _, m := range All {
		if m.Scope == scope && m.Name == name {
			return m, nil
		}
	}
	return nil, fmt.Errorf("no %s metric %q", scope, name)
}

// What a missing value means, for the metrics that may have none.
const (
	noDelivery  = "null when nothing was delivered in [warmup, duration]: no fairness to measure"
	noLoop      = "null for a source that was sent no feedback: no loop was observed, and 0 would read as an instant one"
	noFabric    = "empty on a chain, whose sources have one path"
	noFlows     = "empty for a run without flows of a given size"
	noFlowsDone = "empty for a run without flows of a given size, or none completed"
	noIncast    = "empty for a run without an incast"
	noTransport = "empty for a source not over the transport (summary.json leaves it out); 0 over it is a count"
)

func run(name, unit, doc, missing string, f func(s *model.Summary) (float64, bool)) *Metric {
	return &Metric{Name: name, Unit: unit, Scope: Run, Doc: doc, Missing: missing,
		value: func(s *model.Summary, _ int) (float64, bool) { return f(s) }}
}

func link(name, unit, doc string, f func(b *model.BottleneckSummary) float64) *Metric {
	return &Metric{Name: name, Unit: unit, Scope: Bottleneck, Doc: doc,
		value: func(s *model.Summary, i int) (float64, bool) { return f(&s.Bottlenecks[i]), true }}
}

func source(name, unit, doc, missing string, f func(x *model.SourceSummary) (float64, bool)) *Metric {
	return &Metric{Name: name, Unit: unit, Scope: Source, Doc: doc, Missing: missing,
		value: func(s *model.Summary, i int) (float64, bool) { return f(&s.Sources[i]) }}
}

// flows is a run metric of its flows of a given size (summary.json's
// flows.NAME, results.csv's flows_NAME), missing without such flows; the
// quantiles and means also when none completed.
func flows(name, unit, doc string, f func(f *model.FlowSummary) float64) *Metric {
	counted := !strings.HasPrefix(name, "fct_") && !strings.HasPrefix(name, "slowdown_")
	missing := noFlows
	if !counted {
		missing = noFlowsDone
	}
	return &Metric{Name: "flows_" + name, Unit: unit, Scope: Run, Doc: doc, Missing: missing, Integer: counted && unit == "",
		value: func(s *model.Summary, _ int) (float64, bool) {
			if s.Flows == nil || (!counted && s.Flows.Completed == 0) {
				return 0, false
			}
			return f(s.Flows), true
		},
		cell: func(s *model.Summary, _ int) (float64, bool) {
			if s.Flows == nil {
				return 0, false
			}
			return f(s.Flows), true
		}}
}

func tier(name, unit, doc string, f func(t *model.TierSummary) float64) *Metric {
	return &Metric{Name: name, Unit: unit, Scope: Tier, Doc: doc,
		value: func(s *model.Summary, i int) (float64, bool) { return f(&s.Tiers[i]), true }}
}

func phase(name, unit, doc string, f func(p *model.PhaseSummary) float64) *Metric {
	return &Metric{Name: name, Unit: unit, Scope: Phase, Doc: doc,
		value: func(s *model.Summary, i int) (float64, bool) { return f(&s.Phases[i]), true }}
}

// class is a metric of each traffic class over the run's ports: f of the
// class on each port that has it, combined by over (a sum, the largest).
func class(name, unit, doc string, over func(a, b float64) float64, f func(c *model.ClassSummary) float64) *Metric {
	return &Metric{Name: name, Unit: unit, Scope: Class, Doc: doc,
		value: func(s *model.Summary, i int) (float64, bool) {
			var v float64
			seen := false
			for k := range s.Bottlenecks {
				if cs := s.Bottlenecks[k].Classes; i < len(cs) {
					x := f(&cs[i])
					if seen {
						x = over(v, x)
					}
					v, seen = x, true
				}
			}
			return v, seen
		}}
}

func sum(a, b float64) float64 { return a + b }

func most(a, b float64) float64 { return max(a, b) }

// InPhase is a run's summary over one of its phases: the run's own
// bottleneck, source, tier and fairness metrics read it as they read the
// whole run's.
func InPhase(p *model.PhaseSummary) *model.Summary {
	return &model.Summary{Bottlenecks: p.Bottlenecks, Sources: p.Sources, JainFairness: p.JainFairness, Tiers: p.Tiers}
}

// count is an optional count's value, and whether there is one.
func count(p *int64) (float64, bool) {
	if p == nil {
		return 0, false
	}
	return float64(*p), true
}

func optional(p *float64) (float64, bool) {
	if p == nil {
		return 0, false
	}
	return *p, true
}

// The metrics, in the order summary.json writes them: the run's, each
// bottleneck's, each source's, fairness, the flows', each phase's (whose
// bottlenecks, sources, tiers and fairness the run's metrics read through
// InPhase), each tier's; then each traffic class's, over the ports'
// classes (bottlenecks.classes).
var (
	SimSeconds = run("sim_seconds", "seconds", "simulated time of the run", "", func(s *model.Summary) (float64, bool) { return s.SimSeconds, true })
	Events     = run("events", "", "discrete events handled (integration steps for a fluid model)", "", func(s *model.Summary) (float64, bool) { return float64(s.Events), true }).counts()
	Frames     = run("frames", "frames", "frames that left the bottleneck", "", func(s *model.Summary) (float64, bool) { return float64(s.Frames), true }).counts()

	Capacity         = link("capacity_bps", "bits/s", "capacity in force at the end of the window", func(b *model.BottleneckSummary) float64 { return b.CapacityBps })
	Utilization      = link("utilization", "fraction", "delivered bits over the capacity integrated over the window", func(b *model.BottleneckSummary) float64 { return b.Utilization }).drawn("utilization", 0)
	QueueMean        = link("queue_mean_bytes", "bytes", "time-weighted mean of the queue", func(b *model.BottleneckSummary) float64 { return b.QueueMean }).drawn("queue mean", 0)
	QueueStd         = link("queue_std_bytes", "bytes", "time-weighted standard deviation of the queue", func(b *model.BottleneckSummary) float64 { return b.QueueStd }).drawn("queue std", 0)
	QueueMin         = link("queue_min_bytes", "bytes", "least queue", func(b *model.BottleneckSummary) float64 { return b.QueueMin })
	QueueMax         = link("queue_max_bytes", "bytes", "largest queue", func(b *model.BottleneckSummary) float64 { return b.QueueMax })
	QueueTarget      = link("q_eq_bytes", "bytes", "the scheme's queue target", func(b *model.BottleneckSummary) float64 { return b.QEq })
	EmptyFraction    = link("empty_fraction", "fraction", "share of the window with an empty queue", func(b *model.BottleneckSummary) float64 { return b.EmptyFraction }).drawn("time queue empty (fraction)", 1)
	Drops            = link("drops", "frames", "frames dropped in the window", func(b *model.BottleneckSummary) float64 { return float64(b.Drops) }).drawn("drops after warm-up", 0).counts()
	DroppedBytes     = link("dropped_bytes", "bytes", "bytes dropped in the window", func(b *model.BottleneckSummary) float64 { return float64(b.DroppedBytes) }).counts()
	DropsTotal       = link("drops_total", "frames", "frames dropped over the whole run", func(b *model.BottleneckSummary) float64 { return float64(b.DropsTotal) }).counts()
	CPFeedbackFrames = link("feedback_frames", "frames", "feedback frames the congestion point sent", func(b *model.BottleneckSummary) float64 { return float64(b.FeedbackFrames) }).counts()
	PauseFrames      = link("pause_frames", "frames", "PFC: XOFF frames the port sent its feeders", func(b *model.BottleneckSummary) float64 { return float64(b.PauseFrames) }).counts()
	PausingFraction  = link("paused_fraction", "fraction", "PFC: share of the time the port held its feeders paused", func(b *model.BottleneckSummary) float64 { return b.PausedFraction })
	HeldFraction     = link("held_fraction", "fraction", "PFC: share of the time the port was paused by the next switch", func(b *model.BottleneckSummary) float64 { return b.HeldFraction })

	Throughput           = source("throughput_bps", "bits/s", "delivered bits over the window", "", func(x *model.SourceSummary) (float64, bool) { return x.ThroughputBps, true })
	FinalRate            = source("final_rate_bps", "bits/s", "the rate limiter's rate at the end", "", func(x *model.SourceSummary) (float64, bool) { return x.FinalRateBps, true })
	DeliveredBytes       = source("delivered_bytes", "bytes", "bytes delivered in the window", "", func(x *model.SourceSummary) (float64, bool) { return float64(x.DeliveredBytes), true }).counts()
	SourceFeedbackFrames = source("feedback_frames", "frames", "feedback frames the source received", "", func(x *model.SourceSummary) (float64, bool) { return float64(x.FeedbackFrames), true }).counts()
	LoopDelayMin         = source("loop_delay_min_seconds", "seconds", "the shortest loop its feedback took", noLoop, func(x *model.SourceSummary) (float64, bool) { return optional(x.LoopDelayMin) })
	LoopDelayMax         = source("loop_delay_max_seconds", "seconds", "the longest loop its feedback took", noLoop, func(x *model.SourceSummary) (float64, bool) { return optional(x.LoopDelayMax) })
	SourcePausedFraction = source("paused_fraction", "fraction", "PFC: share of the time its access link was paused", "", func(x *model.SourceSummary) (float64, bool) { return x.PausedFraction, true })

	MarkedFrames = link("marked_frames", "frames", "frames the congestion point marked (ECN, DCQCN's switch)", func(b *model.BottleneckSummary) float64 { return float64(b.MarkedFrames) }).counts()
	PathCount    = source("path_count", "", "distinct paths a fabric flow's frames took: 1 under ECMP, up to every equal-cost path when sprayed; 0 on a chain, and before the flow's first frame arrived", "",
		func(x *model.SourceSummary) (float64, bool) { return float64(x.PathCount), true }).counts()
	CNPs               = source("cnps", "frames", "notifications (DCQCN's CNPs) the source's reaction point received from its receiver", "", func(x *model.SourceSummary) (float64, bool) { return float64(x.CNPs), true }).counts()
	ACKs               = source("acks", "frames", "over the transport (the ACK-clocked schemes; the others with a recovery): the ACKs and NACKs the source's senders received, over all its connections (a chain source's short flows too)", noTransport, func(x *model.SourceSummary) (float64, bool) { return count(x.ACKs) }).counts()
	NACKs              = source("nacks", "frames", "over the transport: of those, the NACKs (a gap at the receiver)", noTransport, func(x *model.SourceSummary) (float64, bool) { return count(x.NACKs) }).counts()
	RetransmittedBytes = source("retransmitted_bytes", "bytes", "over the transport: the bytes the source sent again (loss recovery)", noTransport, func(x *model.SourceSummary) (float64, bool) { return count(x.RetransmittedBytes) }).counts()
	Timeouts           = source("timeouts", "", "over the transport: the source's retransmission timeouts", noTransport, func(x *model.SourceSummary) (float64, bool) { return count(x.Timeouts) }).counts()

	FlowsStarted    = flows("started", "", "flows of a given size that started in [warmup, duration]", func(f *model.FlowSummary) float64 { return float64(f.Started) })
	FlowsCompleted  = flows("completed", "", "of those, the flows whose last byte was delivered by the end", func(f *model.FlowSummary) float64 { return float64(f.Completed) })
	FlowsLost       = flows("lost", "", "of those, the flows whose last frame was dropped (no transport resends it)", func(f *model.FlowSummary) float64 { return float64(f.Lost) })
	FlowsUnfinished = flows("unfinished", "", "of those, the flows still sending or in flight at the end", func(f *model.FlowSummary) float64 { return float64(f.Unfinished) })
	FlowsSizeMean   = flows("size_mean_bytes", "bytes", "mean size of the flows started", func(f *model.FlowSummary) float64 { return f.SizeMean })
	FCTMean         = flows("fct_mean_seconds", "seconds", "mean flow completion time", func(f *model.FlowSummary) float64 { return f.FCTMean })
	FCTP50          = flows("fct_p50_seconds", "seconds", "median flow completion time", func(f *model.FlowSummary) float64 { return f.FCTP50 })
	FCTP95          = flows("fct_p95_seconds", "seconds", "95th percentile of the flow completion times", func(f *model.FlowSummary) float64 { return f.FCTP95 })
	FCTP99          = flows("fct_p99_seconds", "seconds", "99th percentile of the flow completion times", func(f *model.FlowSummary) float64 { return f.FCTP99 })
	SlowdownMean    = flows("slowdown_mean", "", "mean slowdown: FCT over the flow's ideal FCT alone on its path", func(f *model.FlowSummary) float64 { return f.SlowdownMean })
	SlowdownP50     = flows("slowdown_p50", "", "median slowdown", func(f *model.FlowSummary) float64 { return f.SlowdownP50 })
	SlowdownP95     = flows("slowdown_p95", "", "95th percentile of the slowdowns", func(f *model.FlowSummary) float64 { return f.SlowdownP95 })
	SlowdownP99     = flows("slowdown_p99", "", "99th percentile of the slowdowns", func(f *model.FlowSummary) float64 { return f.SlowdownP99 })

	IncastFlows = run("flows_incast_flows", "", "the incast's flows (traffic.pattern = \"incast\"); 0 without an incast", noFlows,
		func(s *model.Summary) (float64, bool) {
			if s.Flows == nil {
				return 0, false
			}
			return float64(s.Flows.IncastFlows), true
		}).counts()
	IncastCompleted = run("flows_incast_completed", "", "of the incast's flows, those whose last byte was delivered by the end", noIncast,
		func(s *model.Summary) (float64, bool) {
			if s.Flows == nil || s.Flows.IncastCompleted == nil {
				return 0, false
			}
			return float64(*s.Flows.IncastCompleted), true
		}).counts()
	IncastCompletion = run("flows_incast_completion_seconds", "seconds", "when the incast's last flow completed, from its start",
		"empty without an incast, or when one of its flows never completed",
		func(s *model.Summary) (float64, bool) {
			if s.Flows == nil {
				return 0, false
			}
			return optional(s.Flows.IncastCompletion)
		})

	TierPorts            = tier("ports", "", "the tier's switch egress ports that carried traffic", func(t *model.TierSummary) float64 { return float64(t.Ports) }).counts()
	TierUtilizationMean  = tier("utilization_mean", "fraction", "mean of its ports' utilizations", func(t *model.TierSummary) float64 { return t.UtilizationMean })
	TierUtilizationMax   = tier("utilization_max", "fraction", "largest of its ports' utilizations", func(t *model.TierSummary) float64 { return t.UtilizationMax })
	TierDrops            = tier("drops", "frames", "frames its ports dropped in the window", func(t *model.TierSummary) float64 { return float64(t.Drops) }).counts()
	TierMarkedFrames     = tier("marked_frames", "frames", "frames its ports' congestion points marked", func(t *model.TierSummary) float64 { return float64(t.MarkedFrames) }).counts()
	TierPauseFrames      = tier("pause_frames", "frames", "PFC: XOFF frames its ports sent their feeders", func(t *model.TierSummary) float64 { return float64(t.PauseFrames) }).counts()
	TierHeldFractionMean = tier("held_fraction_mean", "fraction", "PFC: mean share of the time its ports were paused by the next switch", func(t *model.TierSummary) float64 { return t.HeldFractionMean })
	TierHeldFractionMax  = tier("held_fraction_max", "fraction", "PFC: the largest share of the time one of its ports was paused", func(t *model.TierSummary) float64 { return t.HeldFractionMax })

	ClassThroughputMax = class("throughput_bps_max", "bits/s", "the class's throughput on its busiest port", most, func(c *model.ClassSummary) float64 { return c.ThroughputBps })
	ClassQueueMax      = class("queue_max_bytes", "bytes", "the class's largest queue on any port", most, func(c *model.ClassSummary) float64 { return c.QueueMax })
	ClassDrops         = class("drops", "frames", "the class's frames dropped in the window, summed over the ports", sum, func(c *model.ClassSummary) float64 { return float64(c.Drops) }).counts()
	ClassDroppedBytes  = class("dropped_bytes", "bytes", "the class's bytes dropped in the window, summed over the ports", sum, func(c *model.ClassSummary) float64 { return float64(c.DroppedBytes) }).counts()
	ClassMarkedFrames  = class("marked_frames", "frames", "the class's frames marked, summed over the ports", sum, func(c *model.ClassSummary) float64 { return float64(c.MarkedFrames) }).counts()

	PhaseStart = phase("start_seconds", "seconds", "when the phase starts", func(p *model.PhaseSummary) float64 { return p.Start })
	PhaseEnd   = phase("end_seconds", "seconds", "when the phase ends", func(p *model.PhaseSummary) float64 { return p.End })

	JainFairness   = run("jain_fairness", "", "Jain's index of the sources' throughputs", noDelivery, func(s *model.Summary) (float64, bool) { return optional(s.JainFairness) }).drawn("Jain fairness", 1)
	TimeToFairness = run("time_to_fairness_seconds", "seconds",
		"the first time after which min/max of the sources' window-averaged rates stays at or above output.fairness_threshold",
		"null when the rates never became fair for good, or nothing was delivered: the run has no time to fairness and never counts as fair",
		func(s *model.Summary) (float64, bool) { return optional(s.TimeToFairness) }).drawn("time to fairness", 0)
)

// All lists every metric, in summary.json's order.
var All = []*Metric{
	SimSeconds, Events, Frames,
	Capacity, Utilization, QueueMean, QueueStd, QueueMin, QueueMax, QueueTarget, EmptyFraction,
	Drops, DroppedBytes, DropsTotal, CPFeedbackFrames, PauseFrames, PausingFraction, HeldFraction, MarkedFrames,
	Throughput, FinalRate, DeliveredBytes, SourceFeedbackFrames, LoopDelayMin, LoopDelayMax, SourcePausedFraction, PathCount, CNPs,
	ACKs, NACKs, RetransmittedBytes, Timeouts,
	JainFairness, TimeToFairness,
	FlowsStarted, FlowsCompleted, FlowsLost, FlowsUnfinished, FlowsSizeMean, FCTMean, FCTP50, FCTP95, FCTP99,
	SlowdownMean, SlowdownP50, SlowdownP95, SlowdownP99,
	IncastFlows, IncastCompleted, IncastCompletion,
	PhaseStart, PhaseEnd,
	TierPorts, TierUtilizationMean, TierUtilizationMax, TierDrops, TierMarkedFrames, TierPauseFrames, TierHeldFractionMean, TierHeldFractionMax,
	ClassThroughputMax, ClassQueueMax, ClassDrops, ClassDroppedBytes, ClassMarkedFrames,
}
