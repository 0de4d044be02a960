package algos

import "math"

// Swift, from Kumar et al., "Swift: Delay is Simple and Effective for
// Congestion Control in the Datacenter" (SIGCOMM 2020), section 3,
// Algorithm 1: the sender compares each ACK's delay with a target delay and
// grows its window additively (ai per RTT) below it, or cuts it in
// proportion to the excess above it, at most by max_mdf and at most once per
// RTT. The target grows with the path's hops and, for flow scaling, as
// 1/sqrt(cwnd) over a range (fs_range), so that many small windows get a
// larger target and converge to fairness. Below one frame of window Swift
// paces: one frame every rtt/cwnd.
//
// Swift is window-limited; it is paced only while its window is below one
// frame. The rules are the paper's; the values are htsim's
// (Broadcom/csg-htsim at 841d9e7, sim/swift.cpp, whose comments call ai,
// beta, max_mdf, h and RETX_RESET_THRESHOLD guesses). Host (endpoint) delay
// is not modelled: Swift's fabric window is its window, and the delay is the
// RTT sample.

func init() {
	Register(&Scheme{
		Name:    "swift",
		Display: "Swift",
		Ref:     "Kumar et al., SIGCOMM 2020 (Swift), section 3, Algorithm 1; values from Broadcom/csg-htsim sim/swift.cpp",
		Summary: "delay-target window control at senders: AIMD on the RTT against a target scaled by hops and by the window (flow scaling), pacing below one frame; no switch support",
		Note: "made for a fabric of a few microseconds' propagation: where the base RTT is far above its 20 us target " +
			"(the default dumbbell, 100 us) the window sinks below a frame and the link is 0.73% used; target_adds_base_rtt = true: 100%",
		Params:    SwiftParams(),
		Readings:  swiftReadings,
		NewCP:     func(CPEnv, Values) CongestionPoint { return noneCP{} },
		NewSender: func(env SenderEnv, v Values) Sender { return NewSwiftSender(env, v) },
	})
}

// SwiftParams are Swift's parameters.
func SwiftParams() []Param {
	return []Param{
		{Key: "base_target", Kind: Duration, Min: 0, Default: Fixed(20e-6),
			Doc: "the base target delay, before hop and flow scaling (Algorithm 1's target; htsim: 20 us, swift.cpp:608, 'to be confirmed by experiment')"},
		{Key: "hop_scale", Kind: Duration, Min: 0,
			Doc:     "h: the target grows by this per switch the path crosses (section 3, topology-based scaling; htsim: base_target / 6.55, swift.cpp:609); follows an explicit base_target",
			Default: func(_ Network, v Values) float64 { return v["base_target"] / 6.55 }},
		{Key: "fs_range", Kind: Duration, Min: 0,
			Doc:     "fs_range: the most flow scaling adds to the target, reached at fs_min_cwnd (section 3, flow-based scaling; htsim: 5 x base_target, swift.cpp:618)",
			Default: func(_ Network, v Values) float64 { return 5 * v["base_target"] }},
		{Key: "fs_min_cwnd", Kind: Number, Min: 1e-6, Default: Fixed(0.1),
			Doc: "fs_min_cwnd, frames: at this window flow scaling adds fs_range (htsim: 0.1 packets, swift.cpp:619)"},
		{Key: "fs_max_cwnd", Kind: Number, Min: 1e-6, Default: Fixed(100),
			Doc: "fs_max_cwnd, frames: at this window and above flow scaling adds nothing (htsim: 100 packets, swift.cpp:620)"},
		{Key: "target_adds_base_rtt", Kind: Switch, Max: 1, Default: Fixed(0),
			Doc: "on: the target adds the flow's base RTT (propagation and transmissions with empty queues), for networks whose propagation is far above htsim's few microseconds (a 100 us chain reads as 80 us of queueing against the 20 us target, and the window sits at its floor); off: the target as the paper and htsim set it"},
		{Key: "ai", Kind: Number, Min: 0, Default: Fixed(1),
			Doc: "ai: the additive increment, frames per RTT: cwnd += ai*acked/cwnd (in frames) below the target (Algorithm 1; htsim: 1.0, 'a guess', swift.cpp:605)"},
		{Key: "beta", Kind: Number, Min: 0, Max: 1, Default: Fixed(0.8),
			Doc: "beta: above the target cwnd *= max(1 - beta*(delay-target)/delay, 1 - max_mdf) (Algorithm 1; htsim: 0.8, 'a guess', swift.cpp:606)"},
		{Key: "max_mdf", Kind: Number, Min: 0, Max: 1, Default: Fixed(0.5),
			Doc: "max_mdf: the largest fraction one decrease takes, and the cut on a loss (Algorithm 1; htsim: 0.5, 'a guess', swift.cpp:607)"},
		{Key: "retx_reset", Kind: Count, Min: 1, Default: Fixed(5),
			Doc: "RETX_RESET_THRESHOLD: this many timeouts in a row set cwnd to min_cwnd (Algorithm 1; htsim: 5, 'a guess', swift.cpp:610)"},
		{Key: "min_cwnd", Kind: Bytes, Min: 1e-3, Default: Fixed(10),
			Doc: "the smallest window, bytes (Algorithm 1's min_cwnd; htsim: 10 bytes, swift.cpp:611: 'if we go less than 10 bytes, we probably get into rounding')"},
		{Key: "max_cwnd", Kind: Bytes, Min: 1,
			Doc:     "the largest window, bytes (Algorithm 1's max_cwnd; htsim: 1000 frames, swift.cpp:612)",
			Default: func(n Network, _ Values) float64 { return 1000 * n.FrameBytes }},
		{Key: "initial_window", Kind: Bytes, Min: 1,
			Doc:     "cwnd at the start (the paper does not say; htsim's datacenter runs: 15 frames, main_swift.cpp:61, 281)",
			Default: func(n Network, _ Values) float64 { return 15 * n.FrameBytes }},
	}
}

var swiftReadings = []string{
	"Sources. The paper (Kumar et al., SIGCOMM 2020) gives Algorithm 1 (the reaction to ACKs, timeouts and fast recovery, the clamp, pacing) and the target's scaling by hops and by the window (section 3). The defaults are htsim's (sim/swift.cpp:605-620, main_swift.cpp:61), several of which its comments call guesses; where the paper states a value, it is to be checked against these.",
	"Target delay = base_target + hops x h + max(0, min(alpha/sqrt(cwnd) + beta_fs, fs_range)), cwnd in frames, alpha = fs_range / (1/sqrt(fs_min_cwnd) - 1/sqrt(fs_max_cwnd)), beta_fs = -alpha/sqrt(fs_max_cwnd). hops is the number of switches the path crosses (the paper counts hops from the TTL); htsim multiplies h by its route's element count and takes sqrt of the whole frames in cwnd (integer division), neither followed here.",
	"On an ACK (delay = its RTT sample): below the target, cwnd += ai*frame*acked/cwnd (cwnd >= a frame) or ai*acked (below); at or above it, if can_decrease, cwnd *= max(1 - beta*(delay-target)/delay, 1 - max_mdf). can_decrease = now - t_last_decrease >= rtt, with rtt the smoothed RTT before this sample (srtt = 7/8 srtt + 1/8 sample, the first sample taken whole, as htsim's update_rtt); the retransmit count restarts.",
	"On a timeout: the count of timeouts in a row grows; at retx_reset cwnd = min_cwnd, else if can_decrease cwnd *= 1 - max_mdf. On fast recovery (OnLoss, as the paper's 'On Fast Recovery'; htsim cuts at its end): the count restarts and, if can_decrease, cwnd *= 1 - max_mdf. After every event cwnd is clamped to [min_cwnd, max_cwnd], and a smaller cwnd than before the event records the time of the decrease.",
	"Pacing: below one frame of window the flow may have one frame in flight and sends at cwnd*8/srtt bits per second (pacing_delay = rtt/cwnd frames, Algorithm 1); before any RTT sample, the base RTT stands in.",
}

// SwiftSender is Swift at a sender: window-limited, paced below one frame.
type SwiftSender struct {
	ai, beta, maxMDF float64
	retxReset        int
	minCwnd, maxCwnd float64
	frame            float64
	base, fsRange    float64 // seconds
	fsAlpha, fsBeta  float64
	hopDelay         float64 // hops x h, seconds
	baseRTT          float64
	addBase          bool    // the target adds baseRTT
	cwnd             float64 // bytes
	srtt             float64 // seconds; 0 before the first sample
	lastDecrease     Time
	decreased        bool // a decrease has happened (t_last_decrease is set)
	retransmits      int
	seq              seqs
}

// NewSwiftSender builds a flow's Swift sender from resolved values.
func NewSwiftSender(env SenderEnv, v Values) *SwiftSender {
	fsAlpha := v["fs_range"] / (1/math.Sqrt(v["fs_min_cwnd"]) - 1/math.Sqrt(v["fs_max_cwnd"]))
	return &SwiftSender{
		ai: v["ai"], beta: v["beta"], maxMDF: v["max_mdf"], retxReset: int(v["retx_reset"]),
		minCwnd: v["min_cwnd"], maxCwnd: v["max_cwnd"], frame: env.frameBytes(),
		base: v["base_target"], fsRange: v["fs_range"],
		fsAlpha: fsAlpha, fsBeta: -fsAlpha / math.Sqrt(v["fs_max_cwnd"]),
		hopDelay: float64(env.Hops) * v["hop_scale"],
		baseRTT:  env.BaseRTT.Seconds(),
		addBase:  v["target_adds_base_rtt"] != 0,
		cwnd:     v["initial_window"],
	}
}

// Cwnd is the window in bytes, fractions of a frame included.
func (s *SwiftSender) Cwnd() float64 { return s.cwnd }

// Window is cwnd, or one frame while cwnd is below one (then paced).
func (s *SwiftSender) Window() float64 { return max(s.cwnd, s.frame) }

// Rate is 0 (not paced) from one frame of window up; below it, one frame
// every rtt/cwnd frames: cwnd*8/rtt.
func (s *SwiftSender) Rate() float64 {
	if s.cwnd >= s.frame {
		return 0
	}
	rtt := s.srtt
	if rtt <= 0 {
		rtt = s.baseRTT
	}
	if rtt <= 0 {
		return 0
	}
	return s.cwnd * 8 / rtt
}

// TargetDelay is the target for a window of cwnd bytes, in seconds.
func (s *SwiftSender) TargetDelay(cwnd float64) float64 {
	fs := 0.0
	if cwnd > 0 {
		fs = max(0, min(s.fsAlpha/math.Sqrt(cwnd/s.frame)+s.fsBeta, s.fsRange))
	}
	t := s.base + s.hopDelay + fs
	if s.addBase {
		t += s.baseRTT
	}
	return t
}

func (s *SwiftSender) canDecrease(now Time) bool {
	return !s.decreased || (now-s.lastDecrease).Seconds() >= s.srtt
}

func (s *SwiftSender) OnSend(now Time, seq int64, bytes int) { s.seq.sent(seq, bytes) }

// OnAck is Algorithm 1's "On Receiving ACK".
func (s *SwiftSender) OnAck(now Time, a *Ack) {
	prev := s.cwnd
	can := s.canDecrease(now)
	acked := float64(s.seq.acked(a))
	delay := (now - a.Sent).Seconds()
	if s.srtt == 0 {
		s.srtt = delay
	} else {
		s.srtt = 7*s.srtt/8 + delay/8
	}
	s.retransmits = 0
	if target := s.TargetDelay(s.cwnd); delay < target {
		if s.cwnd >= s.frame {
			s.cwnd += s.ai * s.frame * acked / s.cwnd
		} else {
			s.cwnd += s.ai * acked
		}
	} else if can && delay > 0 {
		s.cwnd *= max(1-s.beta*(delay-target)/delay, 1-s.maxMDF)
	}
	s.clamp(now, prev)
}

// OnLoss is Algorithm 1's "On Fast Recovery".
func (s *SwiftSender) OnLoss(now Time) {
	prev := s.cwnd
	s.retransmits = 0
	if s.canDecrease(now) {
		s.cwnd *= 1 - s.maxMDF
	}
	s.clamp(now, prev)
}

// OnTimeout is Algorithm 1's "On Retransmit Timeout".
func (s *SwiftSender) OnTimeout(now Time) {
	prev := s.cwnd
	s.retransmits++
	if s.retransmits >= s.retxReset {
		s.cwnd = s.minCwnd
	} else if s.canDecrease(now) {
		s.cwnd *= 1 - s.maxMDF
	}
	s.clamp(now, prev)
}

// clamp bounds cwnd and records a decrease (Algorithm 1, after each event).
func (s *SwiftSender) clamp(now Time, prev float64) {
	s.cwnd = min(max(s.cwnd, s.minCwnd), s.maxCwnd)
	if s.cwnd < prev {
		s.lastDecrease, s.decreased = now, true
	}
}
