package algos

// HPCC, from Li et al., "HPCC: High Precision Congestion Control" (SIGCOMM
// 2019), section 3, Algorithm 1: every switch egress port a data frame
// crosses stamps it with in-band telemetry (a timestamp, the bytes it has
// transmitted, its queue, its link rate); the receiver copies the telemetry
// into the ACK; the sender estimates each link's normalised inflight bytes U
// from two samples of it and sets its window so that the most loaded link
// runs at eta of its capacity: W = W_c / (U/eta) + W_AI, with a reference
// window W_c updated once per RTT and W recomputed on every ACK against it.
//
// HPCC is window-limited and paced: R = W/T (Algorithm 1, line 30). The
// HPCC authors' code keeps the rate and derives the window from it (HAS_WIN
// 1, VAR_WIN 1: W = BDP x R / line rate, run.py:123): the same law, written
// R = R_c / (U/eta) + R_AI with W_AI = R_AI x T; so does this. Parameter
// values are its run.py's (--cc hp); file references are to
// alibaba-edu/High-Precision-Congestion-Control at 9f4be2a.

func init() {
	Register(&Scheme{
		Name:      "hpcc",
		Display:   "HPCC",
		Ref:       "Li et al., SIGCOMM 2019 (HPCC), section 3, Algorithm 1; values from alibaba-edu/High-Precision-Congestion-Control simulation/run.py --cc hp",
		Summary:   "INT-driven window: switches stamp queue, transmitted bytes and rate per hop; senders aim the most loaded link at eta of its capacity, per ACK against a per-RTT reference",
		Params:    HPCCParams(),
		Readings:  hpccReadings,
		NewCP:     func(CPEnv, Values) CongestionPoint { return noneCP{} },
		NewSender: func(env SenderEnv, v Values) Sender { return NewHPCCSender(env, v) },
	})
}

// HPCCParams are HPCC's parameters.
func HPCCParams() []Param {
	return []Param{
		{Key: "eta", Kind: Number, Min: 0.01, Max: 1, Default: Fixed(0.95),
			Doc: "eta: the target utilisation of the most loaded link (paper section 3: 95%; run.py --utgt 95, U_TARGET (run.py:71, 84))"},
		{Key: "max_stage", Kind: Count, Min: 0, Default: Fixed(0),
			Doc: "maxStage: additive-only updates (W = W_c + W_AI) while U < eta, at most this many in a row before a multiplicative one (paper section 3 prints 5; the authors' project page says 0 was used and 5 is a typo; run.py --mi defaults to 0, MI_THRESH (run.py:72)): 0, so every update is W_c/(U/eta) + W_AI"},
		{Key: "r_ai", Kind: Rate, Min: 0,
			Doc:     "R_AI = W_AI / T: the additive step as a rate (paper section 3: W_AI; run.py: RATE_AI = 10 Mb/s per 25 Gbps of NIC, --hpai to override (run.py:112-114)); scaled with the sources' line rate, as run.py scales it",
			Default: func(n Network, _ Values) float64 { return 10e6 * dcqcnNICRate(n) / 25e9 }},
		{Key: "fast_react", Kind: Switch, Max: 1, Default: Fixed(1),
			Doc: "recompute W on every ACK against the reference W_c (paper section 3, per-ACK reaction; FAST_REACT 1, run.py:123); off: only once per RTT, when W_c is updated"},
		{Key: "min_rate", Kind: Rate, Min: 1, Default: Fixed(1e9),
			Doc: "the floor of the rate (the paper gives none; MIN_RATE 1000 Mb/s (run.py:28), UpdateRateHp's bound, rdma-hw.cc:839-840); not scaled"},
		{Key: "base_rtt", Kind: Choice, Choices: HPCCBaseRTTs, Default: Fixed(HPCCBaseRTTFlow),
			Doc: "T, the base RTT of the window and of U: flow, each flow's own path's (the paper's T, section 3: the base RTT, read per flow); max, the largest over all pairs of hosts, one T for every flow (the HPCC code with GLOBAL_T 1, run.py:37: maxRtt, third.cc:910-930, given each flow at third.cc:138; the window is then line rate x maxRtt, the code's maxBdp where the NICs' rates are equal)"},
	}
}

// HPCCBaseRTTs are the words of HPCC's base_rtt parameter.
var HPCCBaseRTTs = []string{"flow", "max"}

// The values of HPCC's base_rtt parameter.
const (
	HPCCBaseRTTFlow = 0 // each flow's own base RTT (the paper)
	HPCCBaseRTTMax  = 1 // the largest over all pairs of hosts (the HPCC code, GLOBAL_T 1)
)

var hpccReadings = []string{
	"Sources. Algorithm 1 of the paper (Li et al., SIGCOMM 2019, section 3) and the authors' ns-3 code (UpdateRateHp, rdma-hw.cc:754-913) agree; the values are run.py's (--cc hp: U_TARGET 0.95, MI_THRESH 0, RATE_AI 10 Mb/s per 25 Gbps, FAST_REACT 1, MULTI_RATE 0, HAS_WIN 1, VAR_WIN 1, MIN_RATE 1 Gb/s). maxStage defaults to 0, the value the authors' evaluation used (their project page: the paper's 5 is a typo); 5 is max_stage = 5.",
	"Window as a rate: the code keeps R (starting at line rate) and limits the flow to W = BDP x R / line rate, BDP = line rate x T (rdma-queue-pair.cc:125-137). W_AI = R_AI x T.",
	"T: the paper (section 3, Algorithm 1) takes it as the base RTT and does not say whose; qcnlab reads it per flow by default (base_rtt = \"flow\": the flow's own path, propagation both ways, a data frame's transmission on each hop forward and an ACK's back). The HPCC code sets GLOBAL_T 1 (run.py:37), which gives every flow the largest pairRtt over all pairs of hosts, maxRtt, as its T and maxBdp as its window (third.cc:138, 910-930): base_rtt = \"max\" (the largest of qcnlab's base RTTs over the pairs, each on its ECMP route; the code's pairRtt leaves out the ACK's transmission, third.cc:915-923).",
	"U from two INT samples (MeasureInflight): for each hop i, with the sample of the previous ACK, tau = ts - ts', txRate = (txBytes - txBytes')*8/tau, u_i = txRate/B_i + min(qlen, qlen')*8/(B_i*T); the hop with the largest u_i gives u and its tau (from u = 0, as the code: if every u_i is 0, tau is 0 and U stays); tau = min(tau, T); U = (1 - tau/T)*U + (tau/T)*u. U starts at 1 (rdma-queue-pair.cc:49). The samples are stored on every ACK. A hop whose tau is 0 (two ACKs of one stamp) is skipped; a path whose hop count changes starts over from the new sample.",
	"Stages (ComputeWind): if U/eta >= 1 or incStage >= maxStage, R = R_c/(U/eta) + R_AI and incStage = 0; else R = R_c + R_AI and incStage + 1; R within [min_rate, line rate]. The first ACK past lastUpdateSeq updates R_c and incStage and sets lastUpdateSeq = snd_nxt (once per RTT); the other ACKs only set R from R_c (fast_react). The first ACK only stores its INT and sets lastUpdateSeq.",
	"INT timing: a port stamps a frame as its last bit leaves (the time, the bytes sent including the frame, the queue then without it); the code stamps at dequeue, as the frame starts (SwitchNotifyDequeue, switch-node.cc:224, before TransmitStart, qbb-net-device.cc:310-317; m_txBytes grows after the stamp, switch-node.cc:302). txRate between two stamps is the same measure, a frame time later here; the queue differs by what one frame time changes (the frame that starts, the arrivals meanwhile).",
	"Not modelled: MULTI_RATE (a rate per hop, off in run.py), SAMPLE_FEEDBACK (off), PINT (CC_MODE 10); the INT fields' widths and units (24-bit ns time, 128 B byte units, 80 B queue units, int-header.h) are exact values here.",
}

// HPCCSender is HPCC at a sender: window-limited (W = R x T) and paced at R.
type HPCCSender struct {
	eta               float64
	maxStage          int
	rAI               float64
	fastReact         bool
	minRate, lineRate float64
	t                 float64 // T, seconds
	bdp               float64
	r                 float64 // the rate in use
	rc                float64 // the reference R_c (W_c / T)
	u                 float64 // U, the smoothed normalised inflight
	stage             int
	last              []Hop // the previous ACK's telemetry
	lastUpdate        int64
	started           bool
	seq               seqs
}

// NewHPCCSender builds a flow's HPCC sender: it starts at line rate, W = BDP.
func NewHPCCSender(env SenderEnv, v Values) *HPCCSender {
	if v["base_rtt"] == HPCCBaseRTTMax && env.MaxBaseRTT != nil {
		env.BaseRTT = env.MaxBaseRTT() // one T for every flow (GLOBAL_T 1)
	}
	return &HPCCSender{
		eta: v["eta"], maxStage: int(v["max_stage"]), rAI: v["r_ai"], fastReact: v["fast_react"] != 0,
		minRate: v["min_rate"], lineRate: env.LineRate,
		t: env.BaseRTT.Seconds(), bdp: env.BDP(),
		r: env.LineRate, rc: env.LineRate, u: 1,
	}
}

func (s *HPCCSender) Rate() float64 { return s.r }

// Window is BDP x R / line rate (at least a byte).
func (s *HPCCSender) Window() float64 { return max(float64(int64(s.bdp*s.r/s.lineRate)), 1) }

// U is the current estimate of the most loaded link's normalised inflight.
func (s *HPCCSender) U() float64 { return s.u }

// Reference is R_c, the per-RTT reference rate (W_c / T).
func (s *HPCCSender) Reference() float64 { return s.rc }

// Stage is incStage.
func (s *HPCCSender) Stage() int { return s.stage }

// UsesTelemetry makes the HPCC sender a TelemetrySender: its ACKs carry INT.
func (s *HPCCSender) UsesTelemetry() {}

func (s *HPCCSender) OnSend(now Time, seq int64, bytes int) { s.seq.sent(seq, bytes) }
func (s *HPCCSender) OnLoss(now Time)                       {}
func (s *HPCCSender) OnTimeout(now Time)                    {}

// OnAck is NewAck (Algorithm 1, lines 24-30; HandleAckHp, rdma-hw.cc:743-752).
func (s *HPCCSender) OnAck(now Time, a *Ack) {
	s.seq.acked(a)
	full := a.Seq > s.lastUpdate
	if !full && !s.fastReact {
		return // rdma-hw.cc:915-918: no update, and the sample is not kept
	}
	if !s.started || len(a.Hops) != len(s.last) {
		// First RTT (rdma-hw.cc:757-771), or a new path: keep the sample.
		s.started = true
		s.store(a.Hops)
		if full {
			s.lastUpdate = s.seq.nxt
		}
		return
	}
	if len(a.Hops) > 0 && s.measureInflight(a.Hops) {
		r, stage := s.computeWind()
		s.r = r
		if full {
			s.rc, s.stage = r, stage
		}
	}
	s.store(a.Hops)
	if full && s.seq.nxt > s.lastUpdate {
		s.lastUpdate = s.seq.nxt
	}
}

func (s *HPCCSender) store(hops []Hop) {
	s.last = append(s.last[:0], hops...)
}

// measureInflight is MeasureInflight (Algorithm 1, lines 1-13): it updates U
// and reports whether any hop gave a sample.
func (s *HPCCSender) measureInflight(hops []Hop) bool {
	var u, tau float64
	any := false
	for i, h := range hops {
		p := s.last[i]
		dt := (h.TS - p.TS).Seconds()
		if dt <= 0 || h.Rate <= 0 {
			continue
		}
		txRate := float64(h.TxBytes-p.TxBytes) * 8 / dt
		ui := txRate/h.Rate + float64(min(h.QLen, p.QLen))*8/(h.Rate*s.t)
		if ui > u { // rdma-hw.cc:806-810: from u = 0, so a hop with u_i = 0 gives tau = 0
			u, tau = ui, dt
		}
		any = true
	}
	if !any {
		return false
	}
	tau = min(tau, s.t)
	s.u = (s.u*(s.t-tau) + u*tau) / s.t
	return true
}

// computeWind is ComputeWind (Algorithm 1, lines 14-23) written for the rate
// (rdma-hw.cc:826-842): the new rate and the stage that goes with it.
func (s *HPCCSender) computeWind() (float64, int) {
	var r float64
	var stage int
	if c := s.u / s.eta; c >= 1 || s.stage >= s.maxStage {
		r, stage = s.rc/c+s.rAI, 0
	} else {
		r, stage = s.rc+s.rAI, s.stage+1
	}
	return min(max(r, s.minRate), s.lineRate), stage
}
