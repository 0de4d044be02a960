package model

import (
	"math"
	"slices"
	"strconv"

	"qcnlab/algos"
)

// FlowRecord is one flow of a given size as it ended, or as the run left
// it: a fabric's flow of a given size or short flow, or a chain's short
// flow. Config.OnFlow receives one per flow, as it ends and, at the end of
// the run, for every flow still going; memory stays bounded by the flows
// alive, whatever the number of flows.
type FlowRecord struct {
	ID       int64  // the run's flow number: a [[flows]] entry's index, then the arrivals in order
	From, To string // hosts on a fabric; a chain's source ("src2") and "sink"
	Class    int    // traffic class (priority); 0 while the model has one class
	Size     int64  // bytes
	Start    algos.Time
	// Finish is when its last byte reached its receiver, for a completed
	// flow; algos.Never otherwise.
	Finish algos.Time
	// Ideal is the flow's FCT alone on its path (idealFCT): exact, one
	// way, as qcnlab measures FCT; IdealHPCC is the HPCC code's standalone
	// FCT (hpccIdealFCT). Both in seconds.
	Ideal, IdealHPCC float64
	PathCount        int // distinct paths its frames took (1 under ECMP)
	Outcome          FlowOutcome
	InWindow         bool // it started in [warmup, duration]: counted in the summary's statistics
	// The transport's recovery (transport.go), for an ACK-clocked scheme or
	// a rate-based one with a recovery:
	// bytes sent again, retransmission timeouts, NACKs received.
	Retransmitted, Timeouts, NACKs int64
}

// FCT is the flow's completion time in seconds, NaN unless it completed.
func (r *FlowRecord) FCT() float64 {
	if r.Outcome != FlowCompleted {
		return math.NaN()
	}
	return (r.Finish - r.Start).Seconds()
}

// Slowdown is FCT over Ideal, NaN unless it completed.
func (r *FlowRecord) Slowdown() float64 { return r.FCT() / r.Ideal }

// FlowOutcome is how a flow ended.
type FlowOutcome uint8

const (
	FlowCompleted  FlowOutcome = iota // its last byte was delivered by the end of the run
	FlowLost                          // its last frame was dropped: without a transport it never completes
	FlowUnfinished                    // still sending, or in flight, when the run ended
)

func (o FlowOutcome) String() string {
	return [...]string{"completed", "lost", "unfinished"}[o]
}

// hpccIdealFCT is the standalone FCT of the HPCC code
// (alibaba-edu/High-Precision-Congestion-Control, simulation/scratch/third.cc,
// qp_finish and CalculateRoutes; analysis/fct_analysis.py divides by it):
// the base RTT, twice the path's propagation plus one full frame's
// transmission on each link, plus the flow's bytes at the path's slowest
// link. qcnlab's frames carry no separate header, so the bytes are the
// flow's size. HPCC measures FCT up to the sender's last ACK; qcnlab, which
// has no ACKs, up to the receiver's last byte: slowdowns against this
// ideal are therefore lower, by about one propagation, than HPCC's.
func (s *Packet) hpccIdealFCT(l *limiter, size int64) float64 {
	rates, delays, tail := s.routeStages(l)
	prop, tx, slowest := tail, 0.0, rates[0]
	for k, r := range rates {
		prop += delays[k]
		tx += float64(s.cfg.FrameBytes) * 8 / r
		slowest = min(slowest, r)
	}
	return 2*prop + tx + float64(size)*8/slowest
}

// sizedRecord builds the record of a fabric flow of a given size.
func (s *Packet) sizedRecord(l *limiter, outcome FlowOutcome) FlowRecord {
	sz := l.sized
	from, to := "src"+strconv.Itoa(int(l.host)), "sink" // a chain's, as emitChainFlow names them
	if !s.net.chain {
		t := s.net.topo
		from, to = t.HostName(int(l.host)), t.HostName(int(l.dst))
	}
	r := FlowRecord{ID: sz.id, From: from, To: to, Size: sz.size,
		Start: sz.start, Finish: algos.Never, Ideal: sz.ideal, IdealHPCC: s.hpccIdealFCT(l, sz.size),
		PathCount: len(sz.paths), Outcome: outcome, InWindow: sz.inWindow}
	if l.route != nil && sz.left < sz.size {
		r.PathCount = 1 // ECMP: one path, once it sent a frame
	}
	if outcome == FlowCompleted {
		r.Finish = sz.last
	}
	if tp := l.tp; tp != nil {
		r.Retransmitted, r.Timeouts, r.NACKs = tp.retx, tp.timeouts, tp.nacks
	}
	return r
}

// emitSized hands the record of l's flow to Config.OnFlow.
func (s *Packet) emitSized(l *limiter, outcome FlowOutcome) {
	if s.cfg.OnFlow == nil {
		return
	}
	r := s.sizedRecord(l, outcome)
	s.cfg.OnFlow(&r)
}

// emitChainFlow hands the record of a chain's short flow f of source i to
// Config.OnFlow.
func (s *Packet) emitChainFlow(i int32, f *flow, outcome FlowOutcome, finish algos.Time) {
	if s.cfg.OnFlow == nil {
		return
	}
	l := s.lims[i]
	r := FlowRecord{ID: f.id, From: "src" + strconv.Itoa(int(i)), To: "sink", Size: f.size, Start: f.start,
		Finish: algos.Never, Ideal: f.ideal, IdealHPCC: s.hpccIdealFCT(l, f.size), PathCount: 1,
		Outcome: outcome, InWindow: f.inWindow}
	if outcome == FlowCompleted {
		r.Finish = finish
	}
	s.cfg.OnFlow(&r)
}

// flushFlows, at the end of the run, reports every flow of a given size
// still going as unfinished.
func (s *Packet) flushFlows() {
	if s.short == nil || s.cfg.OnFlow == nil {
		return
	}
	for _, l := range s.lims {
		if sz := l.sized; sz != nil && !sz.over {
			s.emitSized(l, FlowUnfinished)
		}
	}
	if !s.net.chain {
		return
	}
	free := map[int32]bool{}
	for _, i := range s.short.table.free {
		free[i] = true
	}
	// The flows still queued at each source, then those whose last frame
	// is in the network, in the order of their ids.
	var alive []int32
	for i := range s.short.table.items {
		if !free[int32(i)] {
			alive = append(alive, int32(i))
		}
	}
	src := map[int32]int32{}
	for i, l := range s.lims {
		if l.fl == nil {
			continue
		}
		for k := 0; k < l.fl.short.len(); k++ {
			src[*l.fl.short.at(k)] = int32(i)
		}
		for k := 0; k < l.fl.ends.len(); k++ {
			src[l.fl.ends.at(k).flow] = int32(i)
		}
	}
	slices.SortFunc(alive, func(a, b int32) int {
		return int(s.short.table.items[a].id - s.short.table.items[b].id)
	})
	for _, id := range alive {
		f := &s.short.table.items[id]
		s.emitChainFlow(src[id], f, FlowUnfinished, 0)
	}
}

// HasSizedFlows reports whether a run of c has flows of a given size, whose
// records OnFlow receives and whose statistics Summary.Flows holds.
func (c *Config) HasSizedFlows() bool {
	if f := c.Fabric; f != nil {
		return f.Short != nil || slices.ContainsFunc(f.Flows, func(fl Flow) bool { return fl.Size > 0 })
	}
	return c.Traffic != nil
}
