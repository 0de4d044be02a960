package algos

import "math"

// DCTCP, from Alizadeh et al., "Data Center TCP (DCTCP)" (SIGCOMM 2010),
// section 3.1: a switch marks an arriving packet when its queue is above K
// (the congestion point); the receiver echoes the marks; the sender keeps
// alpha, an estimate of the fraction of its bytes that are marked, updated
// once per window of data, and cuts its window by alpha/2 once per window
// that saw marks. The rest is TCP: slow start, then one frame per RTT.
//
// Two readings are presets. paper: the TCP window above (window-limited,
// not paced). hpcc: the HPCC authors' hardware DCTCP (CC_MODE 8,
// rdma-hw.cc:998-1050, run.py:124-131; their README: "starts at line rate
// (not slow start) ... does not delay ACK"): a rate, cut by alpha/2 and
// raised by a fixed step once per window, with the window following the rate
// (HAS_WIN 1, VAR_WIN 1: W = BDP x R / line rate), so both limit it. File
// references are to alibaba-edu/High-Precision-Congestion-Control at 9f4be2a
// (rdma-hw.cc, rdma-queue-pair.cc under simulation/src/point-to-point/model).

func init() {
	Register(&Scheme{
		Name:      "dctcp",
		Display:   "DCTCP",
		Ref:       "Alizadeh et al., SIGCOMM 2010 (DCTCP), section 3; preset hpcc from alibaba-edu/High-Precision-Congestion-Control (CC_MODE 8)",
		Summary:   "ECN marking at K at switches, echoed by receivers; senders cut their window by alpha/2 once per window with marks, alpha the marked fraction's moving average",
		Params:    DCTCPParams(),
		Readings:  dctcpReadings,
		QueueBand: SetPoint("k"),
		NewCP:     func(env CPEnv, v Values) CongestionPoint { return NewDCTCPCongestionPoint(env, v) },
		NewSender: func(env SenderEnv, v Values) Sender { return NewDCTCPSender(env, v) },
	})
}

// The values of DCTCP's preset parameter.
const (
	DCTCPPresetPaper = 0 // Alizadeh et al. 2010: TCP's window, slow start
	DCTCPPresetHPCC  = 1 // HPCC's run.py --cc dctcp: CC_MODE 8, a rate from line rate
)

// The values of DCTCP's mark_on parameter.
const (
	DCTCPMarkOnEnqueue = 0 // an arriving frame, against the queue it joins (the paper)
	DCTCPMarkOnDequeue = 1 // a departing frame, against the queue it leaves (the HPCC code)
)

// The values of DCTCP's control parameter.
const (
	DCTCPWindow = 0 // cwnd in bytes, slow start then congestion avoidance (the paper)
	DCTCPRate   = 1 // a rate with a window that follows it (the HPCC code)
)

type dctcpPreset struct {
	control      float64
	kFrames      float64 // K in frames at kRef (paper); 0: use kPerGbps
	kRef         float64
	kPerGbps     float64 // K in bytes per Gbps of the port (hpcc)
	kPerPort     float64
	markOn       float64
	g            float64
	initialAlpha float64
	rAI          float64 // bits per second, not scaled
	minRate      float64 // bits per second, not scaled
}

var dctcpPresets = [...]dctcpPreset{
	DCTCPPresetPaper: {control: DCTCPWindow, kFrames: 65, kRef: 10e9, markOn: DCTCPMarkOnEnqueue,
		g: 1.0 / 16, initialAlpha: 1, rAI: 615e6, minRate: 1e9},
	DCTCPPresetHPCC: {control: DCTCPRate, kPerGbps: 3e3, kPerPort: 1, markOn: DCTCPMarkOnDequeue,
		g: 1.0 / 16, initialAlpha: 1, rAI: 615e6, minRate: 1e9},
}

func dctcpPresetOf(v Values) *dctcpPreset {
	i := int(v["preset"])
	if i < 0 || i >= len(dctcpPresets) {
		i = DCTCPPresetPaper
	}
	return &dctcpPresets[i]
}

func dctcpFrom(field func(p *dctcpPreset) float64) func(Network, Values) float64 {
	return func(_ Network, v Values) float64 { return field(dctcpPresetOf(v)) }
}

// DCTCPParams are DCTCP's parameters; the preset comes first, as the others'
// defaults read it.
func DCTCPParams() []Param {
	return []Param{
		{Key: "preset", Kind: Choice, Choices: []string{"paper", "hpcc"}, Default: Fixed(DCTCPPresetPaper),
			Doc: "the set the other defaults come from: paper = Alizadeh et al. SIGCOMM 2010 with TCP's window; hpcc = the HPCC authors' hardware DCTCP, run.py --cc dctcp (CC_MODE 8). A parameter set explicitly beats the preset"},
		{Key: "control", Kind: Choice, Choices: []string{"window", "rate"}, Default: dctcpFrom(func(p *dctcpPreset) float64 { return p.control }),
			Doc: "window = TCP's cwnd: slow start from initial_window, then one frame per RTT, cut to cwnd*(1-alpha/2) (paper 3.1, eq. 2); not paced. rate = the HPCC code's: starts at line rate, R = R*(1-alpha/2) on a marked ACK outside CWR, R += r_ai once per window without one (rdma-hw.cc:1034-1049), paced at R with window BDP*R/line rate (HAS_WIN 1, VAR_WIN 1, run.py:131)"},

		// Congestion point (paper 3.1).
		{Key: "k", Kind: Bytes, Min: 0,
			Doc: "K: a frame is marked when the queue is above K (paper 3.1: on arrival; section 4: K = 65 packets at 10 Gbps, 20 at 1 Gbps; hpcc: KMIN = KMAX = 30 KB per 10 Gbps, P_MAX 1 (run.py:128-130; KB of 1000 B, switch-mmu.cc:111-114)); scaled linearly with the bottleneck capacity from 65 frames at 10 Gbps (paper) or 3 KB per Gbps (hpcc), as the paper's guideline K > C*RTT/7 (3.4) and run.py scale it",
			Default: func(n Network, v Values) float64 {
				p := dctcpPresetOf(v)
				if p.kFrames > 0 {
					return math.Round(p.kFrames * n.FrameBytes * n.Capacity / p.kRef)
				}
				return math.Round(p.kPerGbps * n.Capacity / 1e9)
			}},
		{Key: "k_per_port", Kind: Switch, Max: 1, Default: dctcpFrom(func(p *dctcpPreset) float64 { return p.kPerPort }),
			Doc: "scale K on each queue by its link's capacity over the bottleneck's, as HPCC sets K per port from its rate (third.cc:829-833; preset hpcc); off: one K for every queue (paper)"},
		{Key: "mark_on", Kind: Choice, Choices: []string{"enqueue", "dequeue"}, Default: dctcpFrom(func(p *dctcpPreset) float64 { return p.markOn }),
			Doc: "enqueue = mark an arriving frame against the queue it joins (paper 3.1); dequeue = a departing frame against the queue it leaves (HPCC switch-node.cc:195-213; preset hpcc)"},

		// Sender (paper 3.1).
		{Key: "g", Kind: Number, Min: 0, Max: 1, Default: dctcpFrom(func(p *dctcpPreset) float64 { return p.g }),
			Doc: "g: alpha = (1-g)*alpha + g*F once per window of data, F the fraction of it marked (paper 3.1 eq. 1; g = 1/16 in section 4; hpcc: EWMA_GAIN 0.0625 (run.py:131))"},
		{Key: "initial_alpha", Kind: Number, Min: 0, Max: 1, Default: dctcpFrom(func(p *dctcpPreset) float64 { return p.initialAlpha }),
			Doc: "alpha before the first window ends (the paper does not say; 1 as Linux's dctcp_alpha_on_init and the HPCC code (rdma-queue-pair.cc:62)): the first marks halve the window"},
		{Key: "initial_window", Kind: Bytes, Min: 1,
			Doc:     "control = window: cwnd at the start, in bytes (the paper uses its stack's; 10 frames, the initial window of RFC 6928 and of Linux); ssthresh starts unbounded",
			Default: func(n Network, _ Values) float64 { return 10 * n.FrameBytes }},
		{Key: "min_window", Kind: Bytes, Min: 1,
			Doc:     "control = window: the floor of a cut (the paper gives none; 2 frames, as Linux's dctcp_ssthresh)",
			Default: func(n Network, _ Values) float64 { return 2 * n.FrameBytes }},
		{Key: "r_ai", Kind: Rate, Min: 0, Default: dctcpFrom(func(p *dctcpPreset) float64 { return p.rAI }),
			Doc: "control = rate: R += r_ai once per window without a cut (hpcc: DCTCP_RATE_AI 615 Mb/s, 'calculated from RTT=13us and MTU=1KB, because DCTCP add 1 MTU per RTT' (run.py:127)); not scaled, as run.py does not scale it"},
		{Key: "min_rate", Kind: Rate, Min: 1, Default: dctcpFrom(func(p *dctcpPreset) float64 { return p.minRate }),
			Doc: "control = rate: the floor of a cut (hpcc: MIN_RATE 1000 Mb/s (run.py:28), rdma-hw.cc:1039)"},
	}
}

var dctcpReadings = []string{
	"Sources. The paper (Alizadeh et al., SIGCOMM 2010) gives the algorithm in section 3.1 (marking at K, ECN-Echo, alpha per window, eq. 2's cut), parameter guidelines in 3.4 and the values in section 4 (g = 1/16; K = 20 packets at 1 Gbps, 65 at 10 Gbps). The HPCC authors' ns-3 code has a hardware DCTCP (CC_MODE 8; HandleAckDctcp, rdma-hw.cc:998-1050) run by run.py --cc dctcp (K = 30 KB per 10 Gbps, g = 1/16, DCTCP_RATE_AI 615 Mb/s, HAS_WIN 1, VAR_WIN 1).",
	"Window of data (paper): the first ACK opens a window that ends with the sequence sent by then; the ACK that acknowledges its end (Seq >= end, as Linux's dctcp_update_alpha) closes it: alpha = (1-g)*alpha + g*F, F = marked bytes / acked bytes in it, and the next window runs to what has been sent by then. Bytes count as marked when their ACK carries ECE: with an ACK per frame (no delayed ACK) that is exact; with delayed ACKs the paper's receiver state machine (3.1, figure 10) is the transport's job.",
	"Cut (paper eq. 2): an ECE ACK outside CWR cuts cwnd to max(cwnd*(1-alpha/2), min_window) with the alpha of the same ACK's update, sets ssthresh to it, and starts CWR until an ACK passes what was sent at the cut: at most one cut per window of data. Outside CWR cwnd grows as TCP's: by the acked bytes below ssthresh (slow start), by frame*acked/cwnd above (one frame per RTT); in CWR it holds.",
	"Loss (window control): fast retransmit (OnLoss) halves cwnd into ssthresh, as TCP (RFC 5681; the paper keeps TCP's loss response), floored at min_window, with CWR until the loss's window is acked; a timeout sets ssthresh to half and cwnd to one frame (RFC 5681 3.1).",
	"Rate control (hpcc): the first ACK past the update sequence (ack > last, rdma-hw.cc:1005) ends a batch: alpha updates with F = min(1, ECE ACKs / batch), batch = frames in flight at the last update + 1, and the count of ECE ACKs restarts (except at the first batch, whose count carries on, rdma-hw.cc:1010-1012). Then an ECE ACK outside CWR cuts R = max(min_rate, R*(1-alpha/2)) and starts CWR until an ACK passes the sequence sent then; a batch's end outside CWR adds r_ai (up to line rate). NACKs run the same rule; the code has no timeout response (its fabrics are lossless).",
	"Scaling: the paper's K is for its 10 Gbps testbed; K scales linearly with the bottleneck capacity (65 frames at 10 Gbps; the paper's 1 Gbps value, 20 packets, is above that line: its guideline K > C*RTT/7 grows with RTT too). hpcc scales K per port with the link rate (3 KB per Gbps). r_ai and min_rate are not scaled (run.py does not).",
}

// DCTCPCongestionPoint marks an arriving frame when the queue it joins is
// above K (paper 3.1: "if the queue occupancy is greater than K upon its
// arrival"). It sends no feedback: the mark rides to the receiver.
type DCTCPCongestionPoint struct{ k int }

// Arrive marks f if qlen (which includes f) is above K.
func (cp *DCTCPCongestionPoint) Arrive(now Time, f *Frame, qlen int, fb *Feedback) bool {
	if qlen > cp.k {
		f.ECN = true
	}
	return false
}

// DCTCPDequeueCongestionPoint marks a departing frame when the queue it
// leaves behind is above K (the HPCC code's switch, switch-node.cc:195-213).
type DCTCPDequeueCongestionPoint struct{ k int }

// Arrive does nothing: the mark is decided as the frame leaves.
func (cp *DCTCPDequeueCongestionPoint) Arrive(now Time, f *Frame, qlen int, fb *Feedback) bool {
	return false
}

// Depart marks f if qlen (which excludes it) is above K.
func (cp *DCTCPDequeueCongestionPoint) Depart(now Time, f *Frame, qlen int) {
	if qlen > cp.k {
		f.ECN = true
	}
}

// NewDCTCPCongestionPoint builds the CP of one queue: K scaled to this
// queue's link under k_per_port, marking on enqueue or dequeue.
func NewDCTCPCongestionPoint(env CPEnv, v Values) CongestionPoint {
	k := v["k"]
	if v["k_per_port"] != 0 && env.Capacity > 0 && env.Network.Capacity > 0 {
		k = math.Round(k * env.Capacity / env.Network.Capacity)
	}
	if v["mark_on"] == DCTCPMarkOnDequeue {
		cp := place(env, func(s *CPSlab) *slab[DCTCPDequeueCongestionPoint] { return &s.dctcpDeq })
		cp.k = int(k)
		return cp
	}
	cp := place(env, func(s *CPSlab) *slab[DCTCPCongestionPoint] { return &s.dctcp })
	cp.k = int(k)
	return cp
}

// DCTCPSender is DCTCP at the sender. Under control = window it is
// window-limited and not paced (TCP); under control = rate it is paced at
// its rate and limited by a window that follows it (HAS_WIN, VAR_WIN).
type DCTCPSender struct {
	rate              bool
	g                 float64
	frame             float64
	minWindow         float64
	lineRate, bdp     float64
	rAI, minRate      float64
	alpha             float64
	cwnd, ssthresh    float64 // window control, bytes
	r                 float64 // rate control, bits per second
	seq               seqs
	started           bool    // the first ACK has come
	windowEnd         int64   // the end of the current window of data
	winAcked, winMark float64 // window control: bytes acked, and marked, in it
	ecnCount, batch   int     // rate control: ECE ACKs and the batch size in frames
	cwr               bool
	cwrEnd            int64
}

// NewDCTCPSender builds a flow's DCTCP sender from resolved values.
func NewDCTCPSender(env SenderEnv, v Values) *DCTCPSender {
	return &DCTCPSender{
		rate:      v["control"] == DCTCPRate,
		g:         v["g"],
		frame:     env.frameBytes(),
		minWindow: v["min_window"],
		lineRate:  env.LineRate,
		bdp:       env.BDP(),
		rAI:       v["r_ai"],
		minRate:   v["min_rate"],
		alpha:     v["initial_alpha"],
		cwnd:      v["initial_window"],
		ssthresh:  math.Inf(1),
		r:         env.LineRate,
	}
}

// Window is cwnd, or under rate control BDP x R / line rate (at least one
// byte, rdma-queue-pair.cc:129-133).
func (s *DCTCPSender) Window() float64 {
	if s.rate {
		return max(math.Floor(s.bdp*s.r/s.lineRate), 1)
	}
	return s.cwnd
}

// Rate is R under rate control; 0 (not paced) under window control.
func (s *DCTCPSender) Rate() float64 {
	if s.rate {
		return s.r
	}
	return 0
}

// Alpha is the current estimate of the marked fraction.
func (s *DCTCPSender) Alpha() float64 { return s.alpha }

// Ssthresh is the slow-start threshold in bytes (window control).
func (s *DCTCPSender) Ssthresh() float64 { return s.ssthresh }

func (s *DCTCPSender) OnSend(now Time, seq int64, bytes int) { s.seq.sent(seq, bytes) }

func (s *DCTCPSender) OnAck(now Time, a *Ack) {
	if s.rate {
		s.ackRate(a)
		return
	}
	acked := float64(s.seq.acked(a))
	// Alpha, once per window of data (paper 3.1, eq. 1).
	s.winAcked += acked
	if a.ECE {
		s.winMark += acked
	}
	if !s.started {
		s.started, s.windowEnd = true, s.seq.nxt
	} else if a.Seq >= s.windowEnd {
		f := 0.0
		if s.winAcked > 0 {
			f = s.winMark / s.winAcked
		}
		s.alpha = (1-s.g)*s.alpha + s.g*f
		s.winAcked, s.winMark = 0, 0
		s.windowEnd = s.seq.nxt
	}
	if s.cwr && a.Seq > s.cwrEnd {
		s.cwr = false
	}
	switch {
	case a.ECE && !s.cwr:
		// Eq. (2): once per window with marks.
		s.cwnd = max(s.cwnd*(1-s.alpha/2), s.minWindow)
		s.ssthresh = s.cwnd
		s.cwr, s.cwrEnd = true, s.seq.nxt
	case s.cwr || acked == 0:
	case s.cwnd < s.ssthresh:
		s.cwnd += acked // slow start
	default:
		s.cwnd += s.frame * acked / s.cwnd // congestion avoidance: a frame per RTT
	}
}

// ackRate is HandleAckDctcp (rdma-hw.cc:998-1050).
func (s *DCTCPSender) ackRate(a *Ack) {
	s.seq.acked(a)
	newBatch := false
	if a.ECE {
		s.ecnCount++
	}
	if a.Seq > s.windowEnd {
		newBatch = true
		if s.windowEnd == 0 { // first RTT: the count carries on
			s.windowEnd = s.seq.nxt
			s.batch = int(s.seq.nxt/int64(s.frame)) + 1
		} else {
			f := min(1, float64(s.ecnCount)/float64(s.batch))
			s.alpha = (1-s.g)*s.alpha + s.g*f
			s.windowEnd = s.seq.nxt
			s.ecnCount = 0
			s.batch = int((s.seq.nxt-a.Seq)/int64(s.frame)) + 1
		}
	}
	if s.cwr && a.Seq > s.cwrEnd {
		s.cwr = false
	}
	if a.ECE && !s.cwr {
		s.r = max(s.minRate, s.r*(1-s.alpha/2))
		s.cwr, s.cwrEnd = true, s.seq.nxt
	}
	if !s.cwr && newBatch {
		s.r = min(s.lineRate, s.r+s.rAI)
	}
}

// OnLoss is TCP's fast retransmit under window control (ssthresh and cwnd
// to half, CWR until the window is acked); the HPCC code has none.
func (s *DCTCPSender) OnLoss(now Time) {
	if s.rate {
		return
	}
	s.ssthresh = max(s.cwnd/2, s.minWindow)
	s.cwnd = s.ssthresh
	s.cwr, s.cwrEnd = true, s.seq.nxt
}

// OnTimeout is TCP's: ssthresh to half, cwnd to one frame (window control);
// the HPCC code has none.
func (s *DCTCPSender) OnTimeout(now Time) {
	if s.rate {
		return
	}
	s.ssthresh = max(s.cwnd/2, s.minWindow)
	s.cwnd = s.frame
	s.cwr = false
}
