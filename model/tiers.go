package model

import (
	"cmp"
	"slices"

	"qcnlab/algos"
	"qcnlab/model/topo"
)

// TierSummary sums up one tier of a fabric's ports (topo: "host" for the
// hosts' links, "edge up", "core down", ...), so that a run of a thousand
// hosts reads in a few lines: every port of the tier counts, busy or not.
type TierSummary struct {
	Tier            string  `json:"tier"`
	Ports           int     `json:"ports"`
	UtilizationMean float64 `json:"utilization_mean"`
	UtilizationMax  float64 `json:"utilization_max"`
	Drops           int64   `json:"drops"`
	MarkedFrames    int64   `json:"marked_frames"`
	// PFC: XOFF frames the tier's ports sent, and the share of the time
	// they were paused (held) by the next hop, mean and most.
	PauseFrames      int64   `json:"pause_frames"`
	HeldFractionMean float64 `json:"held_fraction_mean"`
	HeldFractionMax  float64 `json:"held_fraction_max"`
}

// tierStats adds up one tier.
type tierStats struct {
	key  int
	sum  TierSummary
	util float64
	held float64
}

func (t *tierStats) add(util, held float64, drops, marked, pauses int64) {
	t.sum.Ports++
	t.util += util
	t.held += held
	t.sum.UtilizationMax = max(t.sum.UtilizationMax, util)
	t.sum.HeldFractionMax = max(t.sum.HeldFractionMax, held)
	t.sum.Drops += drops
	t.sum.MarkedFrames += marked
	t.sum.PauseFrames += pauses
}

// tiers sums a fabric's ports up by tier, from every port's numbers over
// the measure's span (all, from measure) and the hosts' links; nil on a
// chain. Tiers are in the order a frame climbs and descends them: hosts'
// links, then up from the lowest level, then down from the highest.
func (s *Packet) tiers(all []BottleneckSummary, from, to int, t1 algos.Time) []TierSummary {
	if s.net.chain {
		return nil
	}
	t := s.net.topo
	to = min(to, s.passed)
	byName := map[string]*tierStats{}
	get := func(p topo.Port) *tierStats {
		ts := byName[p.Tier]
		if ts == nil {
			ts = &tierStats{sum: TierSummary{Tier: p.Tier}}
			switch level := t.Nodes[p.From].Level; {
			case t.Nodes[p.From].Kind == topo.Host:
				ts.key = 0
			case t.Nodes[p.To].Level > level:
				ts.key = 1 + level
			default:
				ts.key = 1000 - level
			}
			byName[p.Tier] = ts
		}
		return ts
	}
	t0 := s.segStart(from)
	span := (t1 - t0).Seconds()
	for h := range s.hosts {
		nic := t.Ports[t.NIC(h)]
		util, held := 0.0, 0.0
		if span > 0 && from <= to {
			// Against the rate its clock gives its link (clock.go): a
			// busy link reads 1 whether its clock is fast or slow.
			util = s.hostSent(h, from, to, t1) / (nic.Capacity * s.hosts[h].clock * span)
			if s.cfg.PFC != nil {
				held = s.hostPaused(int32(h), from, to, t1).Seconds() / span
			}
		}
		get(nic).add(util, held, 0, 0, 0)
	}
	for j, b := range all {
		get(t.Ports[s.net.ports[j]]).add(b.Utilization, b.HeldFraction, b.Drops, b.MarkedFrames, b.PauseFrames)
	}
	var list []*tierStats
	for _, ts := range byName {
		ts.sum.UtilizationMean = ts.util / float64(ts.sum.Ports)
		ts.sum.HeldFractionMean = ts.held / float64(ts.sum.Ports)
		list = append(list, ts)
	}
	slices.SortFunc(list, func(a, b *tierStats) int {
		return cmp.Or(cmp.Compare(a.key, b.key), cmp.Compare(a.sum.Tier, b.sum.Tier))
	})
	out := make([]TierSummary, len(list))
	for i, ts := range list {
		out[i] = ts.sum
	}
	return out
}

// hostSent is the bits host h's link sent over segments from to to, the
// last of which ends at t1.
func (s *Packet) hostSent(h, from, to int, t1 algos.Time) float64 {
	marks := s.fabric.hostMark
	a := marks[min(from, len(marks)-1)][h]
	if to+1 < len(marks) {
		return marks[to+1][h] - a
	}
	return s.hosts[h].sentBits(t1) - a
}

// sentBits is the bits h's link has sent by t, the part of the frame on
// the wire at t included, as a port's marks count it: a busy link then
// reads 1 over any window, not a frame more or less. The host must have
// run its own events up to t (catchUp).
func (h *host) sentBits(t algos.Time) float64 {
	bits := float64(h.sent) * 8
	if h.free <= t || h.inflight.n == 0 {
		return bits
	}
	// The frame released last is still on the wire: it leaves the ring
	// only when it reaches the switch, after its last bit is sent.
	f := h.inflight.at(h.inflight.n - 1)
	unsent := float64(f.bytes) * 8
	if f.sent < t {
		unsent *= float64(h.free-t) / float64(h.free-f.sent)
	}
	return bits - unsent
}

// fabricBoundary marks the hosts' links' counters at a boundary t. Hosts
// run their own events late (catchUp), so each is first brought up to t:
// a frame released before t and not yet run would otherwise count in the
// next window (a busy host link read 1.002 over 1 ms). Running them early
// changes nothing: nothing from outside reaches a host before t.
func (s *Packet) fabricBoundary(t algos.Time) {
	if s.fabric == nil {
		return
	}
	m := make([]float64, len(s.hosts))
	for i := range s.hosts {
		h := &s.hosts[i]
		if h.due(t) {
			s.runLocal(h, t)
			s.syncTimers(h)
			s.syncArrival(h)
		}
		m[i] = h.sentBits(t)
	}
	s.fabric.hostMark = append(s.fabric.hostMark, m)
}

// offeredLoad is the load, bits/s, the flows offer each port at the start:
// each flow's initial rate along its route, or, sprayed, split evenly over
// the equal-cost next hops at every switch.
func (s *Packet) offeredLoad() []float64 {
	load := make([]float64, len(s.ports))
	n := s.net
	for _, f := range n.flows {
		if f.route != nil {
			for _, j := range f.route {
				load[j] += f.initialRate
			}
			continue
		}
		t := n.topo
		share := map[int]float64{t.Attach(f.host): f.initialRate}
		for len(share) > 0 {
			next := map[int]float64{}
			for node, x := range share {
				hops := n.routes.NextHops(node, f.dst)
				for _, p := range hops {
					load[n.portOf[p]] += x / float64(len(hops))
					if to := t.Ports[p].To; to != t.Hosts[f.dst] {
						next[to] += x / float64(len(hops))
					}
				}
			}
			share = next
		}
	}
	return load
}
