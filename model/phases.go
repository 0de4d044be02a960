package model

import (
	"slices"

	"qcnlab/algos"
)

// timeline is what the packet model does at given times, apart from the
// frames' and messages' events: the capacity changes, and the boundaries
// (the end of the warm-up, the phases' limits) where it marks its counters
// so that the summary can report on the window and on each phase. Between
// boundaries the ports count whole-run totals only, so phases cost nothing
// per frame. Milestones and samples are events of the agenda that run
// before any other at their time, a milestone before a sample.
type timeline struct {
	changes  []CapacityChange // still to come
	bounds   []algos.Time     // the boundaries, increasing, in (0, duration)
	passed   int              // boundaries passed
	srcMarks [][]sourceMark   // [boundary][source], the first at time 0
}

// sourceMark is a source's counters at a boundary.
type sourceMark struct {
	feedbacks, cnps, delivered int64
	rate                       float64
	tc                         transportCounts
}

func (s *Packet) initTimeline() {
	cfg := &s.cfg
	s.changes = cfg.Changes
	if cfg.Warmup > 0 {
		s.bounds = append(s.bounds, cfg.Warmup)
	}
	for _, t := range cfg.Phases {
		if !slices.Contains(s.bounds, t) {
			s.bounds = append(s.bounds, t)
		}
	}
	slices.Sort(s.bounds)
	s.srcMarks = [][]sourceMark{s.markSources()}
	s.scheduleMilestone()
	s.agenda.setSample(s.nextSample)
}

func (s *Packet) markSources() []sourceMark {
	m := make([]sourceMark, s.statics)
	tc := s.sourceCounts()
	for i := range m {
		l := s.lims[i]
		m[i] = sourceMark{feedbacks: l.feedbacks, cnps: l.cnps, delivered: s.delivered[i].bytes, rate: l.rate, tc: tc[i]}
	}
	return m
}

// scheduleMilestone puts the next capacity change or boundary on the agenda.
func (s *Packet) scheduleMilestone() {
	next := algos.Never
	if len(s.changes) > 0 {
		next = s.changes[0].At
	}
	if s.passed < len(s.bounds) {
		next = min(next, s.bounds[s.passed])
	}
	s.agenda.setMilestone(next)
}

// milestone applies the capacity changes due at t and passes the boundary
// there is at t.
func (s *Packet) milestone(t algos.Time) {
	for len(s.changes) > 0 && s.changes[0].At <= t {
		s.changeCapacity(s.changes[0])
		s.changes = s.changes[1:]
	}
	if s.passed < len(s.bounds) && s.bounds[s.passed] <= t {
		s.boundary(t)
	}
	s.scheduleMilestone()
}

// boundary marks every counter at t.
func (s *Packet) boundary(t algos.Time) {
	for j, p := range s.ports {
		s.events += uint64(s.serve(p, int32(j), t))
		p.boundary(t)
	}
	for i := range s.loops {
		s.loops[i].boundary()
	}
	s.transportBoundary(t)
	s.srcMarks = append(s.srcMarks, s.markSources())
	s.pfcBoundary(t)
	s.fabricBoundary(t)
	s.passed++
}

// segment k runs from boundary k-1 (time 0 for the first) to boundary k,
// or to now for the one in progress.
func (s *Packet) segStart(k int) algos.Time {
	if k == 0 {
		return 0
	}
	return s.bounds[k-1]
}

// segAt is the segment that starts at t, a boundary or 0.
func (s *Packet) segAt(t algos.Time) int {
	if t == 0 {
		return 0
	}
	return slices.Index(s.bounds, t) + 1
}

// measure reports the metrics over segments from to to (inclusive), the
// last of which may be the one in progress; whole says whether they make
// the run's window, whose feedback counts and loop delays are whole-run.
// It lists the ports a summary lists (listed) and every port's numbers
// (all, for the tiers).
func (s *Packet) measure(from, to int, whole bool) (listed, all []BottleneckSummary, srcs []SourceSummary, jain *float64) {
	cfg := &s.cfg
	to = min(to, s.passed)
	t0, t1 := s.segStart(from), s.now
	if to < s.passed {
		t1 = s.bounds[to]
	}
	span := (t1 - t0).Seconds()
	all = make([]BottleneckSummary, len(s.ports))
	for j, p := range s.ports {
		var lv levelSummary
		a, b := p.marks[min(from, len(p.marks)-1)], p.mark(s.now)
		if to < s.passed {
			b = p.marks[to+1]
		}
		for k := from; k <= to; k++ {
			if k < len(p.segments) {
				lv.add(p.segments[k])
			} else {
				lv.add(p.level.snapshot(&p.bins, s.now, float64(p.bytes)))
			}
		}
		sum := BottleneckSummary{Name: p.name, CapacityBps: s.capacityAt(t1, j), QEq: cfg.Scheme.QueueTarget(cfg.Params),
			Drops: b.drops - a.drops, DroppedBytes: b.dropped - a.dropped, DropsTotal: b.drops - a.drops,
			FeedbackFrames: b.feedbacks - a.feedbacks, MarkedFrames: b.marked - a.marked}
		if !s.net.chain {
			sum.Tier = s.net.topo.Ports[s.net.ports[j]].Tier
		}
		if from <= to {
			sum.QueueMean, sum.QueueStd, sum.QueueMin, sum.QueueMax, sum.EmptyFraction = lv.result()
			sum.QueueQuantiles = lv.quantiles()
			if c := b.capBits - a.capBits; c > 0 {
				sum.Utilization = utilization(float64(b.sent-a.sent)*8+b.partial-a.partial, c)
			}
		} else { // the window has not begun
			sum.Drops, sum.DroppedBytes, sum.DropsTotal, sum.MarkedFrames = 0, 0, 0, 0
		}
		if whole {
			sum.DropsTotal, sum.FeedbackFrames, sum.MarkedFrames = p.drops, p.feedbacks, p.marked
		}
		if p.cls != nil && len(p.cls.q) > 1 { // one class is the port's own numbers
			sum.Classes = p.cls.measure(from, to, s.passed, s.now, span)
		}
		all[j] = sum
	}
	srcs = make([]SourceSummary, s.statics)
	counts := s.sourceCounts()
	for i := range srcs {
		lim := s.lims[i]
		ss := &srcs[i]
		ss.ID = i
		l := &s.loops[i]
		lo, hi := l.min, l.max
		a := s.srcMarks[min(from, len(s.srcMarks)-1)][i]
		b := sourceMark{feedbacks: lim.feedbacks, cnps: lim.cnps, delivered: s.delivered[i].bytes, rate: lim.rate, tc: counts[i]}
		if to < s.passed {
			b = s.srcMarks[to+1][i]
		}
		if from <= to {
			ss.DeliveredBytes = b.delivered - a.delivered
		}
		ss.FinalRateBps, ss.FeedbackFrames, ss.CNPs = lim.rate, lim.feedbacks, lim.cnps
		tc := b.tc
		if !whole {
			tc = b.tc.minus(a.tc)
			lo, hi = algos.Never, -1
			for k := from; k <= to; k++ {
				seg := [2]algos.Time{l.segMin, l.segMax}
				if k < len(l.segments) {
					seg = l.segments[k]
				}
				lo, hi = min(lo, seg[0]), max(hi, seg[1])
			}
			ss.FinalRateBps, ss.FeedbackFrames, ss.CNPs = b.rate, b.feedbacks-a.feedbacks, b.cnps-a.cnps
		}
		if lim.tp != nil { // zero over the transport is a count, not "none"
			ss.ACKs, ss.RetransmittedBytes, ss.Timeouts, ss.NACKs = &tc.acks, &tc.retx, &tc.timeouts, &tc.nacks
		}
		if hi >= 0 {
			lo, hi := lo.Seconds(), hi.Seconds()
			ss.LoopDelayMin, ss.LoopDelayMax = &lo, &hi
		}
		s.describeFlow(i, ss)
	}
	s.pfcMeasure(from, to, t1, span, all, srcs)
	end := t1
	if whole {
		end = cfg.Duration
	}
	for j, p := range s.ports {
		if s.net.chain || p.arrivals > 0 {
			listed = append(listed, all[j])
		}
	}
	return listed, all, srcs, s.throughputs(srcs, span, t0, end)
}

// capacityAt is the capacity of port j in force just before t: the last
// change to it before t.
func (s *Packet) capacityAt(t algos.Time, j int) float64 {
	c := s.net.topo.Ports[s.net.ports[j]].Capacity
	for _, ch := range s.cfg.Changes {
		if ch.At < t && (ch.Link < 0 || ch.Link == j) {
			c = ch.Capacity
		}
	}
	return c
}

// phases reports each phase of output.phases that has begun.
func (s *Packet) phases() []PhaseSummary {
	cfg := &s.cfg
	if len(cfg.Phases) == 0 {
		return nil
	}
	limits := append(append([]algos.Time{0}, cfg.Phases...), cfg.Duration)
	var out []PhaseSummary
	for k := 0; k+1 < len(limits); k++ {
		a, b := limits[k], limits[k+1]
		if a > s.now || (a == s.now && a > 0) {
			break
		}
		to := len(s.bounds)
		if b < cfg.Duration {
			to = s.segAt(b) - 1
		}
		bs, all, srcs, jain := s.measure(s.segAt(a), to, false)
		out = append(out, PhaseSummary{Start: a.Seconds(), End: min(b, s.now).Seconds(),
			Bottlenecks: bs, Sources: srcs, JainFairness: jain, Tiers: s.tiers(all, s.segAt(a), to, min(b, s.now))})
	}
	return out
}
