package model

import (
	"math"
	"slices"

	"qcnlab/algos"
)

// Summary is what a run measured over [warmup, duration]; its JSON names are
// part of qcnlab's command-line interface. It is reproducible whole: the
// same configuration and seed give the same Summary (the wall-clock time a
// run took is batch.RunSummary's).
type Summary struct {
	Algorithm      string              `json:"algorithm"`
	Model          string              `json:"model"`
	Seed           uint64              `json:"seed"`
	SimSeconds     float64             `json:"sim_seconds"`
	Events         uint64              `json:"events"`
	Frames         uint64              `json:"frames"`
	Bottlenecks    []BottleneckSummary `json:"bottlenecks"`
	Sources        []SourceSummary     `json:"sources"`
	JainFairness   *float64            `json:"jain_fairness"` // nil: nothing delivered, no fairness to measure
	TimeToFairness *float64            `json:"time_to_fairness_seconds"`
	// Convergence is set by seed 002's convergence model only.
	Convergence *ConvergenceStats `json:"convergence,omitempty"`
	Flows       *FlowSummary      `json:"flows,omitempty"` // short flows, if any (traffic.go)
	// Phases are the same metrics over each phase of output.phases.
	Phases []PhaseSummary `json:"phases,omitempty"`
	// Tiers sum a fabric's ports up by layer (tiers.go); none on a chain.
	Tiers []TierSummary `json:"tiers,omitempty"`
	// Watched names, on a fabric, the ports and flows its time series
	// follows, in the order of its columns (sample.go).
	Watched *Watched `json:"watched,omitempty"`
	// PFCDeadlock is the cycle of pauses that stopped the run, if one did
	// (deadlock.go): the run ends at its detection, before its duration.
	PFCDeadlock *Deadlock `json:"pfc_deadlock,omitempty"`
}

// PhaseSummary is what a run measured over one phase, [start, end]: the
// phases split the whole run, warm-up included.
type PhaseSummary struct {
	Start        float64             `json:"start_seconds"`
	End          float64             `json:"end_seconds"`
	Bottlenecks  []BottleneckSummary `json:"bottlenecks"`
	Sources      []SourceSummary     `json:"sources"`
	JainFairness *float64            `json:"jain_fairness"` // nil: nothing delivered in the phase
	Tiers        []TierSummary       `json:"tiers,omitempty"`
}

// BottleneckSummary describes one switch egress port: on a chain every
// port of the chain, on a fabric every port that carried traffic.
type BottleneckSummary struct {
	Name string `json:"name"`
	// Tier is a fabric port's tier, as Tiers name them ("edge up");
	// empty on a chain.
	Tier        string  `json:"tier,omitempty"`
	CapacityBps float64 `json:"capacity_bps"`
	Utilization float64 `json:"utilization"`
	QueueMean   float64 `json:"queue_mean_bytes"`
	QueueStd    float64 `json:"queue_std_bytes"`
	QueueMin    float64 `json:"queue_min_bytes"`
	QueueMax    float64 `json:"queue_max_bytes"`
	// Time-weighted quantiles, zero before any time has passed.
	QueueQuantiles Quantiles `json:"queue_quantiles_bytes"`
	QEq            float64   `json:"q_eq_bytes"`
	EmptyFraction  float64   `json:"empty_fraction"`
	Drops          int64     `json:"drops"`
	DroppedBytes   int64     `json:"dropped_bytes"`
	DropsTotal     int64     `json:"drops_total"`
	FeedbackFrames int64     `json:"feedback_frames"`
	// PFC (pfc.go): XOFF frames sent to the port's feeders, the share of
	// the time it held them paused, and the share it was itself paused by
	// the next switch.
	PauseFrames    int64   `json:"pause_frames"`
	PausedFraction float64 `json:"paused_fraction"`
	HeldFraction   float64 `json:"held_fraction"`
	// MarkedFrames counts the frames the port's congestion point marked
	// (ECN, DCQCN's switch).
	MarkedFrames int64 `json:"marked_frames,omitempty"`
	// Classes are its traffic classes' numbers, when it has several.
	Classes []ClassSummary `json:"classes,omitempty"`
}

// SourceSummary describes one source: a chain's source, or a fabric's
// flow with its hosts.
type SourceSummary struct {
	ID             int     `json:"id"`
	From           string  `json:"from,omitempty"` // a fabric flow's sending host
	To             string  `json:"to,omitempty"`   // and receiving host
	ThroughputBps  float64 `json:"throughput_bps"`
	FinalRateBps   float64 `json:"final_rate_bps"`
	DeliveredBytes int64   `json:"delivered_bytes"`
	FeedbackFrames int64   `json:"feedback_frames"`
	// The loop delays the source's feedback actually took, over the whole
	// run: forward propagation to the congestion point, the switch's
	// feedback latency, and backward propagation.
	// Both are null for a source that was sent no feedback: no loop was
	// observed, and 0 would read as an instant one.
	LoopDelayMin   *float64 `json:"loop_delay_min_seconds"`
	LoopDelayMax   *float64 `json:"loop_delay_max_seconds"`
	PausedFraction float64  `json:"paused_fraction"` // PFC: share of the time its access link was paused
	// PathCount is the number of distinct paths a fabric flow's frames
	// took: 1 under ECMP, up to every equal-cost path when sprayed.
	PathCount int `json:"path_count,omitempty"`
	// CNPs counts the notifications (DCQCN's CNPs) its reaction point
	// received from its receiver's notification point.
	CNPs int64 `json:"cnps,omitempty"`
	// The transport (transport.go), of an ACK-clocked scheme or of a
	// rate-based one with a recovery: the ACKs and
	// NACKs its sender received, the bytes it sent again, and its
	// retransmission timeouts.
	ACKs               int64 `json:"acks,omitempty"`
	NACKs              int64 `json:"nacks,omitempty"`
	RetransmittedBytes int64 `json:"retransmitted_bytes,omitempty"`
	Timeouts           int64 `json:"timeouts,omitempty"`
}

// Sample is one point of the time series. On a chain it has every port and
// every source; on a fabric the watched ports and flows (sample.go), which
// Ports and Flows name.
type Sample struct {
	Time         algos.Time
	Queues       []int     // bytes in each bottleneck queue
	Rates        []float64 // each source's rate over the last rate window as it reaches the bottleneck, bits/s
	CurrentRates []float64 // each source's rate-limiter rate as of its last frame (a window-limited one's window / RTT if lower), bits/s
	Capacity     []float64 // each bottleneck's service rate in force, bits/s
	// Delivered is each flow's rate delivered to its receiver over the
	// last rate window, bits/s (packet model; nil in the fluid models).
	Delivered []float64
	// With PFC, the share of the last sample interval each watched port
	// was paused by the next switch (Held), and each tier's ports on
	// average (TierHeld, tiers as TierNames lists them; a fabric's only).
	Held, TierHeld []float64
	TierNames      []string
	// With several traffic classes, each watched port's bytes in each
	// class (ClassQueues[k][c]) and, with PFC, the classes it is paused
	// for now, a bit per class (ClassPaused[k]); nil with one class.
	ClassQueues [][]int
	ClassPaused []uint8
	Ports       []string // the name of each port of Queues and Capacity
	Flows       []int    // the source id of each flow of Rates and CurrentRates
}

// throughputs fills in each source's throughput over span seconds from its
// delivered bytes, and returns Jain's index over the sources that sent
// during [from, to].
func (s *Packet) throughputs(srcs []SourceSummary, span float64, from, to algos.Time) *float64 {
	return throughputs(srcs, span, func(i int) bool { f := &s.net.flows[i]; return f.start < to && f.stop > from })
}

// throughputs is Packet.throughputs for the fluid and convergence models,
// whose sources are the Config's.
func (c *Config) throughputs(srcs []SourceSummary, span float64, from, to algos.Time) *float64 {
	return throughputs(srcs, span, func(i int) bool { src := c.Sources[i]; return src.Start < to && src.Stop > from })
}

// throughputs sets each source's throughput over span seconds and returns
// Jain's index over the sources sent says sent.
func throughputs(srcs []SourceSummary, span float64, sent func(i int) bool) *float64 {
	if span <= 0 {
		return nil
	}
	var xs []float64
	for i := range srcs {
		ss := &srcs[i]
		ss.ThroughputBps = float64(ss.DeliveredBytes) * 8 / span
		if sent(i) {
			xs = append(xs, ss.ThroughputBps)
		}
	}
	return jain(xs)
}

// Summary reports the metrics over [warmup, now]: the whole window once the
// run is done, and over each phase begun.
func (s *Packet) Summary() Summary {
	cfg := &s.cfg
	sum := Summary{
		Algorithm:  cfg.Scheme.Name,
		Model:      "packet",
		Seed:       cfg.Seed,
		SimSeconds: s.now.Seconds(),
		Events:     s.events,
		Frames:     s.Frames(),
	}
	var all []BottleneckSummary
	from, to := s.segAt(cfg.Warmup), len(s.bounds)
	sum.Bottlenecks, all, sum.Sources, sum.JainFairness = s.measure(from, to, true)
	sum.Tiers = s.tiers(all, from, to, s.now)
	if !s.net.chain {
		sum.Watched = &Watched{Ports: slices.Clone(s.sample.Ports), Flows: slices.Clone(s.sample.Flows)}
	}
	if s.short != nil {
		sum.Flows = s.short.stats.summary()
	}
	s.incastSummary(&sum)
	sum.TimeToFairness = s.fairness().fair.result(s.now, cfg.FairHold())
	sum.Phases = s.phases()
	sum.PFCDeadlock = s.deadlock
	return sum
}

// Watched is what a fabric's time series follows: the k-th queue and
// capacity column is Ports[k]'s, the k-th rate column flow Flows[k]'s.
type Watched struct {
	Ports []string `json:"ports"`
	Flows []int    `json:"flows"`
}

// Jain is the Jain fairness index, NaN when nothing was delivered.
func (s *Summary) Jain() float64 {
	if s.JainFairness == nil {
		return math.NaN()
	}
	return *s.JainFairness
}
