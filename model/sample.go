package model

import (
	"cmp"
	"slices"

	"qcnlab/algos"
)

// initSampling sets up the time series: on a chain every port and every
// source, as ever; on a fabric a bounded set, so that memory and files stay
// small however large the fabric (Fabric.WatchPorts, WatchFlows). Rates
// and the time to fairness are measured for every flow of the network.
func (s *Packet) initSampling() {
	cfg := &s.cfg
	nPorts, nFlows := len(s.ports), s.statics
	if !s.net.chain {
		nPorts, nFlows = min(nPorts, cfg.Fabric.watchPorts()), min(nFlows, cfg.Fabric.watchFlows())
	}
	s.watched = s.watchedPorts(nPorts)
	s.sample = Sample{Queues: make([]int, nPorts), Capacity: make([]float64, nPorts),
		CurrentRates: make([]float64, nFlows), Ports: make([]string, nPorts), Flows: make([]int, nFlows)}
	for k, j := range s.watched {
		s.sample.Ports[k] = s.ports[j].name
	}
	s.watchFlows()
	s.sample.Rates = make([]float64, nFlows)
	s.sample.Delivered = make([]float64, nFlows)
	// Two rate samplers, each over the flows it must follow: the one that
	// judges fairness over every flow (fairness), the other over the flows
	// the samples show, and only when something receives the samples.
	all := make([]int, s.statics)
	for i := range all {
		all[i] = i
	}
	arrivals, deliveries := all, s.sample.Flows
	if !s.net.chain {
		arrivals, deliveries = s.sample.Flows, all
	}
	s.rates = s.newFlowSampler(arrivals, s.net.chain)
	s.delivery = s.newFlowSampler(deliveries, !s.net.chain)
	if cfg.PFC != nil {
		s.initPauseSampling()
	}
	if s.classes > 1 {
		s.sample.ClassQueues = make([][]int, nPorts)
		for k := range s.sample.ClassQueues {
			s.sample.ClassQueues[k] = make([]int, s.classes)
		}
		s.sample.ClassPaused = make([]uint8, nPorts)
	}
}

// initPauseSampling sets up the samples' PFC view: each watched port's
// share of the interval held paused, and on a fabric each tier's: the
// hosts' links' first (paused by their switches, as the summary's tier
// "host" counts them), then the switch ports' tiers.
func (s *Packet) initPauseSampling() {
	s.heldAt = make([]algos.Time, len(s.ports))
	s.heldShare = make([]float64, len(s.ports))
	s.sample.Held = make([]float64, len(s.watched))
	if s.net.chain {
		return
	}
	t := s.net.topo
	index := map[string]int{}
	tierOf := func(tier string) int {
		k, ok := index[tier]
		if !ok {
			k = len(s.sample.TierNames)
			index[tier] = k
			s.sample.TierNames = append(s.sample.TierNames, tier)
		}
		return k
	}
	s.hostTier = make([]int, len(s.hosts))
	s.hostHeldAt = make([]algos.Time, len(s.hosts))
	s.hostShare = make([]float64, len(s.hosts))
	for h := range s.hosts {
		s.hostTier[h] = tierOf(t.Ports[t.NIC(h)].Tier)
	}
	s.portTier = make([]int, len(s.ports))
	for j := range s.ports {
		s.portTier[j] = tierOf(t.Ports[s.net.ports[j]].Tier)
	}
	s.sample.TierHeld = make([]float64, len(s.sample.TierNames))
	s.tierCounts = make([]int, len(s.sample.TierNames))
	for _, k := range slices.Concat(s.hostTier, s.portTier) {
		s.tierCounts[k]++
	}
}

// samplePauses fills the samples' PFC view at t: the time each port was
// held paused since the last sample, over that interval.
func (s *Packet) samplePauses(t algos.Time) {
	span := float64(t - s.lastAt)
	s.lastAt = t
	if s.portTier != nil {
		clear(s.sample.TierHeld)
	}
	held := s.heldShare
	for j, p := range s.ports {
		h := p.pfcAt(t).held
		if span > 0 {
			held[j] = float64(h-s.heldAt[j]) / span
		}
		s.heldAt[j] = h
		if s.portTier != nil {
			s.sample.TierHeld[s.portTier[j]] += held[j]
		}
	}
	for h, k := range s.hostTier {
		p := s.hosts[h].pausedAt(t)
		if span > 0 {
			s.hostShare[h] = float64(p-s.hostHeldAt[h]) / span
		}
		s.hostHeldAt[h] = p
		s.sample.TierHeld[k] += s.hostShare[h]
	}
	for k, n := range s.tierCounts {
		if n > 0 {
			s.sample.TierHeld[k] /= float64(n)
		}
	}
	for k, j := range s.watched {
		s.sample.Held[k] = held[j]
	}
}

// watchFlows picks the flows the samples show: on a fabric those
// Fabric.Watch names first (the explicit flows of an experiment, say),
// then the others in order.
func (s *Packet) watchFlows() {
	var order []int
	seen := map[int]bool{}
	if !s.net.chain {
		for _, i := range s.cfg.Fabric.Watch {
			if i >= 0 && i < s.statics && !seen[i] {
				seen[i] = true
				order = append(order, i)
			}
		}
	}
	for i := 0; len(order) < len(s.sample.Flows); i++ {
		if !seen[i] {
			order = append(order, i)
		}
	}
	copy(s.sample.Flows, order)
}

// fairness is the rate sampler whose rates judge the time to fairness: on
// a chain the rates at the bottleneck, every source's frames crossing it,
// as the seeds measure them; on a fabric, where a flow's first port is
// seldom its bottleneck, the delivered rates, the throughputs Jain's index
// is computed from (under none with ECMP, every flow reaches its first
// port at line rate while some deliver nothing: fair by the one, 0.4 by
// the other).
func (s *Packet) fairness() *rateSampler {
	if s.net.chain {
		return &s.rates.rateSampler
	}
	return &s.delivery.rateSampler
}

// flowSampler is a rate sampler over some of the flows: flows[j] is the
// flow of its j-th input and output. It follows every flow, or exactly
// the flows the samples show.
type flowSampler struct {
	rateSampler
	flows      []int
	all        bool      // flows is every flow, in order
	cumulative []float64 // scratch: each flow's bytes so far
	rates      []float64
}

// newFlowSampler follows flows, every flow in order if all: each counts toward fairness once its bytes
// have reached its first port for a whole window, and until they stop
// arriving.
func (s *Packet) newFlowSampler(flows []int, all bool) flowSampler {
	var from, to []algos.Time
	for _, i := range flows {
		f := s.net.flows[i]
		fwd := s.hosts[f.host].fwd
		from = append(from, f.start+fwd+s.cfg.RateWindow)
		to = append(to, satAdd(f.stop, fwd))
	}
	return flowSampler{rateSampler: newRateSampler(&s.cfg, from, to), flows: flows, all: all,
		cumulative: make([]float64, len(flows)), rates: make([]float64, len(flows))}
}

// rateOf is the rate of flow i, the k-th the samples show: the sampler
// follows every flow, or exactly the shown ones.
func (f *flowSampler) rateOf(k, i int) float64 {
	if f.all {
		return f.rates[i]
	}
	return f.rates[k]
}

// watchedPorts picks n ports to sample: on a chain all, in order; on a
// fabric those with the highest load the flows offer them at the start
// (each flow's initial rate along its route, split evenly over the
// equal-cost next hops when sprayed), ties by port order.
func (s *Packet) watchedPorts(n int) []int {
	all := make([]int, len(s.ports))
	for j := range all {
		all[j] = j
	}
	if s.net.chain {
		return all[:n]
	}
	load := s.offeredLoad()
	slices.SortStableFunc(all, func(a, b int) int { return cmp.Compare(load[b], load[a]) })
	return all[:n]
}

// takeSample records the time series at t, between events. Rates are
// measured where the congestion point sees them, as bytes arriving at each
// flow's first port over the rate window: every arrival up to t has been
// handled, so they are exact without bringing the hosts up to date. The
// rate limiter's own rate is as of its last frame, at most one frame gap
// old.
func (s *Packet) takeSample(t algos.Time) {
	// Every port serves what it has served by t (a departure due at t may
	// not have run yet), in the ports' order, whichever the samples show:
	// what a port's departures set going (a control frame landing at its
	// host, a flow ending) then happens in the same order whatever is
	// watched. The watched ports' queues, and the bytes delivered, are
	// read after.
	for j, p := range s.ports {
		s.events += uint64(s.serve(p, int32(j), t))
	}
	for k, j := range s.watched {
		p := s.ports[j]
		s.sample.Queues[k] = p.bytes
		s.sample.Capacity[k] = p.capacity
		if s.sample.ClassQueues != nil {
			for c := range p.cls.q {
				s.sample.ClassQueues[k][c] = p.cls.q[c].bytes
			}
			s.sample.ClassPaused[k] = p.cls.held
		}
	}
	s.sample.Time = t
	shown := s.cfg.OnSample != nil
	if s.net.chain || shown {
		r := &s.rates
		for j, i := range r.flows {
			r.cumulative[j] = float64(s.lims[i].arrived)
		}
		r.observe(t, r.cumulative, r.rates)
	}
	if !s.net.chain || shown {
		r := &s.delivery
		for j, i := range r.flows {
			r.cumulative[j] = float64(s.delivered[i].bytes)
		}
		r.observe(t, r.cumulative, r.rates)
	}
	if shown {
		for k, i := range s.sample.Flows {
			s.sample.Rates[k], s.sample.Delivered[k] = s.rates.rateOf(k, i), s.delivery.rateOf(k, i)
			s.sample.CurrentRates[k] = s.lims[i].sendingRate()
		}
	}
	if s.heldAt != nil {
		s.samplePauses(t)
	}
	if s.hugeHeap { // the queues have grown the state, maybe
		_ = adviseHeap(false)
	}
	if s.cfg.OnSample != nil {
		s.cfg.OnSample(&s.sample)
	}
	s.nextSample += s.cfg.SampleInterval
	if s.nextSample <= s.cfg.Duration {
		s.agenda.setSample(s.nextSample)
	}
}
