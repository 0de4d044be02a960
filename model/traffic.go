package model

import (
	"math"
	"math/rand/v2"
	"slices"

	"qcnlab/algos"
)

// Traffic is what the sources send beyond the model's classic single greedy
// flow: several greedy (long) flows per source, and short flows arriving as
// one Poisson process over the whole network, each given to a source chosen
// uniformly at random (seed 004 section V-C, "Mixed Flows").
//
// A source keeps one rate limiter, one reaction point, whatever its flows:
// IEEE 802.1Qau's reaction point sits on the source's (priority's) egress,
// and the CM-Tag carries no flow. Behind it the source serves its flows
// round robin, a frame each: every greedy flow, then every short flow that
// was waiting when the round began. A short flow therefore gets 1/(long +
// short) of its source's rate, as it would behind a shared pacer, and does
// not wait for the greedy flows, which never end.
//
// Without a transport a frame lost to a full buffer is not sent again. A
// short flow completes when its last frame leaves the network (the model
// counts delivery at the last link's departure); a flow whose last frame is
// lost never completes and is counted as lost.
//
// Over the transport (an ACK-clocked scheme, or a rate-based one asked to
// recover) a source's greedy flows are one connection, its limiter's, with
// one window and one sequence space, as they share one rate limiter; each
// short flow is a connection of its own, a flow of a given size with its
// own limiter and transport on its source's host, whose link serves it and
// the source's limiter round robin, as a fabric's short flows are
// (chainFlowArrival). Its ACKs take the chain's reverse path, the
// propagation model; it completes when its receiver has every byte.
type Traffic struct {
	LongFlows  int        // greedy flows per source; 0: sources send only short flows
	ShortRate  float64    // short flows per second, whole network
	ShortSizes *FlowSizes // size distribution of short flows
	Drain      Drain      // when the short flows stop arriving
}

// Drain ends the arrivals of short flows at Stop, or after MaxFlows flows
// (0: no bound), while the run goes on: with no greedy flow, it ends once
// every flow is over (completed or lost), or at its duration, so that the
// large flows are not left out of the statistics.
type Drain struct {
	Stop     algos.Time
	MaxFlows int64
}

func (d Drain) set() bool { return d.Stop > 0 || d.MaxFlows > 0 }

// drained reports, at a sample, whether the run has nothing left to do:
// the arrivals are over and every flow is, past the warm-up. The ports
// deliver what they have served by now first: they do so lazily.
func (s *Packet) drained() bool {
	sf := s.short
	if sf.arriving(s) || s.now <= s.cfg.Warmup {
		return false
	}
	for j, p := range s.ports {
		s.events += uint64(s.serve(p, int32(j), s.now))
	}
	if s.net.chain && !s.cfg.transportOn() {
		return sf.table.alive() == 0
	}
	return sf.alive == 0
}

// streamTraffic is the short-flow generator's random stream.
const streamTraffic = 3 << 32

// sourceFlows is a chain source's flows when Config.Traffic is set.
type sourceFlows struct {
	long                int         // greedy flows
	short               ring[int32] // short flows with bytes left to send, round-robin order
	longLeft, shortLeft int         // what is left of the current round
	ends                ring[flowEnded]
	table               *slots[flow]
	frameBytes          int
}

// nextSerial is the access-link time of the frame nextFrame will pick, so
// that the source's next arrival is known before the frame is released.
// Flows that arrive meanwhile join the end of the round and do not change it.
func (fl *sourceFlows) nextSerial(l *limiter) algos.Time {
	if fl.longLeft > 0 || (fl.shortLeft == 0 && fl.long > 0) || fl.short.len() == 0 {
		return l.serial
	}
	if left := fl.table.items[*fl.short.front()].left; left < int64(fl.frameBytes) {
		return algos.TransmitTime(int(left), l.lineRate*l.clock)
	}
	return l.serial
}

// flowEnded is the last frame of a short flow, in the network. A source's
// frames leave the network in the order they were sent, so the oldest end
// is the next one to arrive.
type flowEnded struct {
	sent algos.Time
	flow int32
}

// flow is a short flow alive: arrived and not yet complete.
type flow struct {
	id       int64 // FlowRecord.ID: the arrivals in order
	start    algos.Time
	size     int64
	left     int64 // bytes not yet released by the rate limiter
	ideal    float64
	inWindow bool // arrived in [warmup, duration]: counted in the summary
}

// shortFlows generates and tracks the short flows: a chain's (Traffic),
// or a fabric's between random hosts (flows.go), and on a fabric the flows
// of a given size.
type shortFlows struct {
	rate  float64    // arrivals per second, whole network
	sizes *FlowSizes // their sizes
	rng   *rand.Rand
	next  algos.Time // the next arrival
	table slots[flow]
	stats flowStats
	// arrivals counts the flows that arrived; alive those of a given size
	// not yet over (a fabric's), for the drain.
	arrivals, alive int64
	// stop and maxFlows end the arrivals (Traffic.Stop, Traffic.MaxFlows):
	// the run then drains.
	stop     algos.Time
	maxFlows int64
}

// nextFlowFrame picks the flow whose frame the source releases next, round
// robin, and returns the frame's size and, for a short flow's last frame,
// the flow (else -1).
func (s *Packet) nextFlowFrame(l *limiter) (int, int32) {
	fl := l.fl
	if fl.longLeft == 0 && fl.shortLeft == 0 {
		fl.longLeft, fl.shortLeft = fl.long, fl.short.len()
	}
	if fl.longLeft > 0 {
		fl.longLeft--
		return s.cfg.FrameBytes, -1
	}
	fl.shortLeft--
	id := fl.short.pop()
	f := &s.short.table.items[id]
	b := min(int64(s.cfg.FrameBytes), f.left)
	f.left -= b
	if f.left > 0 {
		fl.short.push(id)
		return int(b), -1
	}
	return int(b), id
}

// hasData reports whether the source has a frame to send.
func (fl *sourceFlows) hasData() bool { return fl.long > 0 || fl.short.len() > 0 }

// flowArrival starts the short flow due now and schedules the next one.
func (s *Packet) flowArrival() {
	sf := s.short
	s.events++
	if !s.net.chain {
		s.fabricFlowArrival()
	} else {
		size := sf.sizes.Sample(sf.rng)
		i := int32(sf.rng.IntN(s.statics))
		if s.cfg.transportOn() {
			s.chainFlowArrival(i, size)
		} else {
			s.chainFlowJoins(i, size)
		}
	}
	sf.arrivals++
	sf.next = s.now + algos.Time(sf.rng.ExpFloat64()/sf.rate*float64(algos.Second)+0.5)
	sf.scheduleNext(s)
}

// chainFlowJoins gives a short flow of size bytes to source i, whose
// limiter serves it round robin with its other flows.
func (s *Packet) chainFlowJoins(i int32, size int64) {
	sf := s.short
	src := s.lims[i]
	f := flow{id: sf.arrivals, start: s.now, size: size, left: size, ideal: s.idealFCT(src, size),
		inWindow: s.now >= s.cfg.Warmup}
	if f.inWindow {
		sf.stats.start(size)
	}
	src.fl.short.push(sf.table.add(f))
	if src.hold&holdIdle != 0 {
		s.catchUp(&s.hosts[src.host], s.now)
		src.hold &^= holdIdle
		src.nextSerial = src.fl.nextSerial(src)
		src.setRate(max(s.now, src.mark), src.rate) // credit earned while idle, up to a frame
		s.syncArrival(&s.hosts[src.host])
	}
}

// scheduleNext schedules the arrival drawn, unless it falls after the
// run's end or the arrivals' stop, or enough flows arrived.
func (sf *shortFlows) scheduleNext(s *Packet) {
	if sf.arriving(s) {
		s.agenda.schedule(event{kind: evFlowArrival, at: sf.next})
	}
}

// arriving reports whether the next arrival drawn comes.
func (sf *shortFlows) arriving(s *Packet) bool {
	return sf.next < s.cfg.Duration && (sf.stop == 0 || sf.next < sf.stop) &&
		(sf.maxFlows == 0 || sf.arrivals < sf.maxFlows)
}

// idealFCT is the time a flow of size bytes takes alone on limiter l's
// route, in seconds: its frames leave the host back to back at line rate
// and cross the route's switches store-and-forward, each at its link's
// rate, with the propagation between, and then the propagation to the
// receiver. Identical frames through a tandem of deterministic stages
// leave stage k at sum_{j<=k}(s_j + d_j) + (i-1) max_{j<=k} s_j; the
// shorter last frame then follows its predecessor through each stage.
func (s *Packet) idealFCT(l *limiter, size int64) float64 {
	frame := int64(s.cfg.FrameBytes)
	full, last := size/frame, size%frame
	if last == 0 {
		full, last = full-1, frame
	}
	rates, delays, tail := s.routeStages(l)
	var sum, slowest, done float64
	for k, r := range rates {
		sFull, sLast := float64(frame)*8/r, float64(last)*8/r
		sum += sFull + delays[k]
		slowest = max(slowest, sFull)
		done += delays[k]
		if full > 0 {
			done = max(done, sum+float64(full-1)*slowest)
		}
		done += sLast
	}
	return done + tail
}

// routeStages lists the stages of limiter l's route for idealFCT: the
// host's link then each port's rate, the propagation before each, and the
// propagation from the last to the receiver.
func (s *Packet) routeStages(l *limiter) (rates, delays []float64, tail float64) {
	route := l.route
	if route == nil {
		route = s.ecmpRoute(l)
	}
	return s.net.routeStages(int(l.host), l.lineRate, route)
}

// routeStages lists the stages of a route from host at lineRate, as
// Packet.routeStages does, from the network alone (Estimate has no Packet).
func (n *network) routeStages(host int, lineRate float64, route []int32) (rates, delays []float64, tail float64) {
	t := n.topo
	rates = []float64{lineRate}
	delays = []float64{0, t.Ports[t.NIC(host)].Delay.Seconds()}
	for k, j := range route {
		p := t.Ports[n.ports[j]]
		rates = append(rates, p.Capacity)
		if k < len(route)-1 {
			delays = append(delays, p.Delay.Seconds())
		} else {
			tail = n.exitDelay[j].Seconds()
		}
	}
	return rates, delays, tail
}

// flowEnded records that the last frame of a short flow of source i left
// the network at t.
func (s *Packet) flowEnded(i int32, t algos.Time) {
	e := s.lims[i].fl.ends.pop()
	f := &s.short.table.items[e.flow]
	if f.inWindow && t <= s.cfg.Duration {
		fct := (t - f.start).Seconds()
		s.short.stats.complete(f.size, fct, fct/f.ideal)
	}
	if t <= s.cfg.Duration {
		s.emitChainFlow(i, f, FlowCompleted, t)
	} else {
		s.emitChainFlow(i, f, FlowUnfinished, 0)
	}
	s.short.table.remove(e.flow)
}

// flowLost records that the last frame of a short flow of l, sent at
// sent, was dropped.
func (s *Packet) flowLost(l *limiter, sent algos.Time) {
	ends := &l.fl.ends
	for k := 0; k < ends.len(); k++ {
		e := ends.at(k)
		if e.sent != sent {
			continue
		}
		f := &s.short.table.items[e.flow]
		if f.inWindow {
			s.short.stats.lost++
		}
		s.emitChainFlow(l.id, f, FlowLost, 0)
		s.short.table.remove(e.flow)
		ends.removeAt(k)
		return
	}
}

// DefaultFlowBuckets are the upper edges, in bytes, of the summary's
// by_size buckets unless Config.FlowBuckets says: after the small/large
// split of the data-center transport literature (pFabric, HPCC), up to
// 100 KB, to 1 MB, to 10 MB, above.
var DefaultFlowBuckets = []float64{100e3, 1e6, 10e6, math.Inf(1)}

// flowStats are the short flows' statistics, in memory independent of the
// number of flows: sums, and log-binned histograms for the quantiles.
type flowStats struct {
	edges   []float64 // the buckets' upper edges, the last +Inf
	all     flowBucket
	buckets []flowBucket
	lost    int64
}

type flowBucket struct {
	started, completed    int64
	sizeSum               float64
	fctSum, slowSum       float64
	fctHist, slowdownHist logHist
}

// newFlowStats makes the statistics of buckets with upper edges edges
// (increasing); none for DefaultFlowBuckets. A last bucket without an
// upper bound is added if the edges lack one.
func newFlowStats(edges []float64) flowStats {
	if len(edges) == 0 {
		edges = DefaultFlowBuckets
	}
	edges = slices.Clone(edges)
	if !math.IsInf(edges[len(edges)-1], 1) {
		edges = append(edges, math.Inf(1))
	}
	st := flowStats{edges: edges, all: newFlowBucket(), buckets: make([]flowBucket, len(edges))}
	for i := range st.buckets {
		st.buckets[i] = newFlowBucket()
	}
	return st
}

func newFlowBucket() flowBucket {
	// FCTs from 1 ns to 10^4 s, slowdowns from 1 to 10^7.
	return flowBucket{fctHist: newLogHist(1e-9, 1e4), slowdownHist: newLogHist(1, 1e7)}
}

func (st *flowStats) bucketOf(size int64) int {
	for i, hi := range st.edges {
		if float64(size) <= hi {
			return i
		}
	}
	return len(st.edges) - 1
}

func (st *flowStats) start(size int64) {
	for _, b := range []*flowBucket{&st.all, &st.buckets[st.bucketOf(size)]} {
		b.started++
		b.sizeSum += float64(size)
	}
}

func (st *flowStats) complete(size int64, fct, slowdown float64) {
	for _, b := range []*flowBucket{&st.all, &st.buckets[st.bucketOf(size)]} {
		b.completed++
		b.fctSum += fct
		b.slowSum += slowdown
		b.fctHist.add(fct)
		b.slowdownHist.add(slowdown)
	}
}

// compact is st with its histograms' empty bins left out: what a summary
// keeps for PoolFlows, a few KB rather than a hundred.
func (st *flowStats) compact() *flowStats {
	c := &flowStats{edges: st.edges, all: st.all.compact(), lost: st.lost}
	for i := range st.buckets {
		c.buckets = append(c.buckets, st.buckets[i].compact())
	}
	return c
}

func (b *flowBucket) compact() flowBucket {
	c := *b
	c.fctHist, c.slowdownHist = b.fctHist.compact(), b.slowdownHist.compact()
	return c
}

// merge adds o's flows, compact or not, to st's; both have the same
// buckets.
func (st *flowStats) merge(o *flowStats) {
	st.all.merge(&o.all)
	for i := range st.buckets {
		st.buckets[i].merge(&o.buckets[i])
	}
	st.lost += o.lost
}

func (b *flowBucket) merge(o *flowBucket) {
	b.started += o.started
	b.completed += o.completed
	b.sizeSum += o.sizeSum
	b.fctSum += o.fctSum
	b.slowSum += o.slowSum
	b.fctHist.merge(&o.fctHist)
	b.slowdownHist.merge(&o.slowdownHist)
}

// logHistRatio is the ratio between consecutive bins' edges: a quantile is
// reported as its bin's geometric middle, within 0.5% of the exact value.
const logHistRatio = 1.01

// logHist counts values in bins whose edges grow geometrically from lo;
// values outside [lo, hi) fall in the first or last bin.
type logHist struct {
	lo     float64
	counts []uint32
	n      int64
	first  int // a compact histogram's counts start at this bin
}

// compact is h with the empty bins before its first value and after its
// last left out.
func (h *logHist) compact() logHist {
	lo := slices.IndexFunc(h.counts, func(c uint32) bool { return c > 0 })
	if lo < 0 {
		return logHist{lo: h.lo, n: h.n}
	}
	hi := len(h.counts)
	for h.counts[hi-1] == 0 {
		hi--
	}
	return logHist{lo: h.lo, counts: slices.Clone(h.counts[lo:hi]), n: h.n, first: h.first + lo}
}

func newLogHist(lo, hi float64) logHist {
	return logHist{lo: lo, counts: make([]uint32, int(math.Ceil(math.Log(hi/lo)/math.Log(logHistRatio)))+1)}
}

func (h *logHist) add(x float64) {
	i := 0
	if x > h.lo {
		i = min(len(h.counts)-1, int(math.Log(x/h.lo)/math.Log(logHistRatio)))
	}
	h.counts[i]++
	h.n++
}

func (h *logHist) merge(o *logHist) {
	for i, c := range o.counts {
		h.counts[o.first+i-h.first] += c
	}
	h.n += o.n
}

// quantile returns the q-quantile (0 < q <= 1): the middle of the bin that
// holds the ceil(q n)-th smallest value; 0 if empty.
func (h *logHist) quantile(q float64) float64 {
	if h.n == 0 {
		return 0
	}
	rank := int64(math.Ceil(q * float64(h.n)))
	var seen int64
	for i, c := range h.counts {
		seen += int64(c)
		if seen >= max(rank, 1) {
			return h.lo * math.Pow(logHistRatio, float64(h.first+i)+0.5)
		}
	}
	return 0
}

// FlowSummary describes the short flows that arrived in the window
// [warmup, duration]; FCTs and slowdowns are over those that completed by
// the end. Quantiles are within 0.5% (log-binned histograms).
type FlowSummary struct {
	Started   int64 `json:"started"`
	Completed int64 `json:"completed"`
	Lost      int64 `json:"lost"`
	// Unfinished are the flows started that neither completed nor were
	// lost by the end of the run: still sending, or in flight.
	Unfinished   int64   `json:"unfinished"`
	SizeMean     float64 `json:"size_mean_bytes"`
	FCTMean      float64 `json:"fct_mean_seconds"`
	FCTP50       float64 `json:"fct_p50_seconds"`
	FCTP95       float64 `json:"fct_p95_seconds"`
	FCTP99       float64 `json:"fct_p99_seconds"`
	SlowdownMean float64 `json:"slowdown_mean"`
	SlowdownP50  float64 `json:"slowdown_p50"`
	SlowdownP95  float64 `json:"slowdown_p95"`
	SlowdownP99  float64 `json:"slowdown_p99"`
	// BySize splits them by size (Config.FlowBuckets).
	BySize []FlowSizeBucket `json:"by_size"`
	// An incast's flows (Flow.Incast), those completed, and its completion
	// time: from its first flow's start to the last byte of its last, null
	// unless all completed.
	IncastFlows      int      `json:"incast_flows,omitempty"`
	IncastCompleted  *int     `json:"incast_completed,omitempty"` // set, 0 included, when there is an incast
	IncastCompletion *float64 `json:"incast_completion_seconds,omitempty"`

	stats *flowStats // the histograms, for PoolFlows; nil when read back from JSON
}

// FlowSizeBucket is FlowSummary's numbers for flows of a size range
// (min_bytes, max_bytes]; max_bytes 0 means unbounded.
type FlowSizeBucket struct {
	MinBytes     float64 `json:"min_bytes"`
	MaxBytes     float64 `json:"max_bytes"`
	Started      int64   `json:"started"`
	Completed    int64   `json:"completed"`
	FCTMean      float64 `json:"fct_mean_seconds"`
	FCTP50       float64 `json:"fct_p50_seconds"`
	FCTP95       float64 `json:"fct_p95_seconds"`
	FCTP99       float64 `json:"fct_p99_seconds"`
	SlowdownMean float64 `json:"slowdown_mean"`
	SlowdownP50  float64 `json:"slowdown_p50"`
	SlowdownP95  float64 `json:"slowdown_p95"`
	SlowdownP99  float64 `json:"slowdown_p99"`
}

// flowNumbers are the statistics of one bucket, or of all flows.
type flowNumbers struct {
	fctMean, fctP50, fctP95, fctP99, slowMean, slowP50, slowP95, slowP99 float64
}

func (b *flowBucket) numbers() flowNumbers {
	if b.completed == 0 {
		return flowNumbers{}
	}
	n := float64(b.completed)
	return flowNumbers{b.fctSum / n, b.fctHist.quantile(0.5), b.fctHist.quantile(0.95), b.fctHist.quantile(0.99),
		b.slowSum / n, b.slowdownHist.quantile(0.5), b.slowdownHist.quantile(0.95), b.slowdownHist.quantile(0.99)}
}

func (st *flowStats) summary() *FlowSummary {
	a := &st.all
	fs := &FlowSummary{Started: a.started, Completed: a.completed, Lost: st.lost, Unfinished: a.started - a.completed - st.lost,
		stats: st.compact()}
	if a.started > 0 {
		fs.SizeMean = a.sizeSum / float64(a.started)
	}
	x := a.numbers()
	fs.FCTMean, fs.FCTP50, fs.FCTP95, fs.FCTP99 = x.fctMean, x.fctP50, x.fctP95, x.fctP99
	fs.SlowdownMean, fs.SlowdownP50, fs.SlowdownP95, fs.SlowdownP99 = x.slowMean, x.slowP50, x.slowP95, x.slowP99
	lo := 0.0
	for i, b := range st.buckets {
		hi := st.edges[i]
		out := FlowSizeBucket{MinBytes: lo, Started: b.started, Completed: b.completed}
		if !math.IsInf(hi, 1) {
			out.MaxBytes = hi
		}
		x := b.numbers()
		out.FCTMean, out.FCTP50, out.FCTP95, out.FCTP99 = x.fctMean, x.fctP50, x.fctP95, x.fctP99
		out.SlowdownMean, out.SlowdownP50, out.SlowdownP95, out.SlowdownP99 = x.slowMean, x.slowP50, x.slowP95, x.slowP99
		fs.BySize = append(fs.BySize, out)
		lo = hi
	}
	return fs
}

// PoolFlows is the flow statistics of several runs pooled, as if one run
// had made every flow: the seeds of a sweep point. ok is false when a
// summary has no histograms (read back from summary.json) or other
// buckets; the incast's numbers are left out.
func PoolFlows(runs []*FlowSummary) (pooled *FlowSummary, ok bool) {
	if len(runs) == 0 {
		return nil, false
	}
	for _, r := range runs {
		if r == nil || r.stats == nil || !slices.Equal(r.stats.edges, runs[0].stats.edges) {
			return nil, false
		}
	}
	st := newFlowStats(runs[0].stats.edges)
	for _, r := range runs {
		st.merge(r.stats)
	}
	return st.summary(), true
}

// startTraffic sets up a chain's sources' flows and the first short flow.
func (s *Packet) startTraffic() {
	tr := s.cfg.Traffic
	s.short = &shortFlows{rate: tr.ShortRate, sizes: tr.ShortSizes, stats: newFlowStats(s.cfg.FlowBuckets),
		rng: rand.New(rand.NewPCG(s.cfg.Seed, streamTraffic)), stop: tr.Drain.Stop, maxFlows: tr.Drain.MaxFlows}
	s.drain = tr.Drain.set() && tr.LongFlows == 0
	for i := range s.lims {
		l := s.lims[i]
		if l.tp != nil { // its greedy flows are one connection; short flows have their own
			if tr.LongFlows == 0 {
				l.tp.done = true // it never sends
				l.hold |= holdIdle
			}
			continue
		}
		l.fl = &sourceFlows{long: tr.LongFlows, table: &s.short.table, frameBytes: s.cfg.FrameBytes}
		l.settle()
		if tr.LongFlows == 0 {
			l.hold |= holdIdle
		}
	}
	if tr.ShortRate > 0 && tr.ShortSizes != nil {
		s.short.scheduleFirst(s)
	}
}

// chainFlowArrival starts a chain's short flow over the transport, of size
// bytes, on source i's host: a flow of a given size with its own limiter
// and transport on the source's path (a reused one's, if a flow before has
// ended), from now until the source stops.
func (s *Packet) chainFlowArrival(i int32, size int64) {
	spec := s.net.flows[i]
	spec.size, spec.start = size, s.now
	h := &s.hosts[spec.host]
	s.catchUp(h, s.now) // the host's link serves one more limiter from now on
	l := s.addLimiter(spec, &s.netw)
	l.sized.short = true
	l.sized.id = s.short.arrivals
	if s.hostClassPaused(h, l.class) {
		l.hold |= holdPaused
	}
	s.startSized(l)
	s.startLimiter(l)
}

// scheduleFirst draws and schedules the first short flow's arrival.
func (sf *shortFlows) scheduleFirst(s *Packet) {
	sf.next = algos.Time(sf.rng.ExpFloat64()/sf.rate*float64(algos.Second) + 0.5)
	sf.scheduleNext(s)
}
