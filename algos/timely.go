package algos

// TIMELY, from Mittal et al., "TIMELY: RTT-based Congestion Control for the
// Datacenter" (SIGCOMM 2015), section 4, Algorithm 1: the sender sets its
// rate from RTT samples, taken as completions come back: below T_low it adds
// delta, above T_high it cuts in proportion to the excess, and in between it
// follows the RTT's gradient (its smoothed difference over minRTT): it adds
// delta while the gradient is not positive (5 delta, hyper-active increase,
// after five negative gradients in a row) and cuts by beta times it while it
// is positive. TIMELY is rate-paced and has no window (the HPCC code's
// HAS_WIN 0 for --cc timely, run.py:135); window = on gives run.py's
// timely_vwin (HAS_WIN 1, VAR_WIN 1: W = BDP x R / line rate).
//
// Two readings are presets. paper: Algorithm 1 once per completion event
// (here: every ACK, the transport acknowledging each completion). hpcc: the
// HPCC authors' code (CC_MODE 7, UpdateRateTimely, rdma-hw.cc:923-993; their
// README: "based on our own understanding of the TIMELY paper"), which
// updates once per window of data and counts any increase toward HAI.

func init() {
	Register(&Scheme{
		Name:    "timely",
		Display: "TIMELY",
		Ref:     "Mittal et al., SIGCOMM 2015 (TIMELY), section 4, Algorithm 1; preset hpcc from alibaba-edu/High-Precision-Congestion-Control (CC_MODE 7)",
		Summary: "RTT-gradient rate control at senders: additive increase below T_low or on a falling RTT, cuts above T_high or on a rising RTT; no switch support",
		Note: "made for a fabric: above T_low (50 us) a frame queued behind another reads as a rising RTT and cuts, " +
			"so on the default dumbbell (100 us) the link is 53.6% used (at 40 us: 94.7%)",
		Params:    TimelyParams(),
		Readings:  timelyReadings,
		NewCP:     func(CPEnv, Values) CongestionPoint { return noneCP{} },
		NewSender: func(env SenderEnv, v Values) Sender { return NewTimelySender(env, v) },
	})
}

// The values of TIMELY's preset parameter.
const (
	TimelyPresetPaper = 0 // Algorithm 1, per completion
	TimelyPresetHPCC  = 1 // the HPCC code, CC_MODE 7
)

// The values of TIMELY's update parameter.
const (
	TimelyPerCompletion = 0 // every ACK is a completion event (the paper)
	TimelyPerWindow     = 1 // the first ACK past what was sent at the last update (the HPCC code)
)

// The values of TIMELY's hai_count parameter.
const (
	TimelyHAIGradient  = 0 // negative gradients in a row; HAI in the gradient region only (the paper)
	TimelyHAIIncreases = 1 // increases in a row, in any region (the HPCC code)
)

type timelyPreset struct {
	update, haiCount float64
	minRate          float64 // bits per second; 0: one additive step
}

var timelyPresets = [...]timelyPreset{
	TimelyPresetPaper: {update: TimelyPerCompletion, haiCount: TimelyHAIGradient},
	TimelyPresetHPCC:  {update: TimelyPerWindow, haiCount: TimelyHAIIncreases, minRate: 1e9},
}

func timelyPresetOf(v Values) *timelyPreset {
	i := int(v["preset"])
	if i < 0 || i >= len(timelyPresets) {
		i = TimelyPresetPaper
	}
	return &timelyPresets[i]
}

// TimelyParams are TIMELY's parameters; the preset comes first.
func TimelyParams() []Param {
	from := func(field func(p *timelyPreset) float64) func(Network, Values) float64 {
		return func(_ Network, v Values) float64 { return field(timelyPresetOf(v)) }
	}
	return []Param{
		{Key: "preset", Kind: Choice, Choices: []string{"paper", "hpcc"}, Default: Fixed(TimelyPresetPaper),
			Doc: "the set the other defaults come from: paper = Algorithm 1 of Mittal et al. SIGCOMM 2015, per completion; hpcc = the HPCC authors' reading, run.py --cc timely (CC_MODE 7). A parameter set explicitly beats the preset"},
		{Key: "ewma_alpha", Kind: Number, Min: 0, Max: 1, Default: Fixed(0.875),
			Doc: "alpha: rtt_diff = (1-alpha)*rtt_diff + alpha*new_rtt_diff (Algorithm 1; 0.875, TimelyAlpha in the HPCC code (rdma-hw.cc:142-146), whose README says its TIMELY values are the paper's or, where the paper gives none, from Zhu et al. CoNEXT 2016)"},
		{Key: "beta", Kind: Number, Min: 0, Max: 1, Default: Fixed(0.8),
			Doc: "beta: the multiplicative decrement, rate*(1-beta*gradient) or rate*(1-beta*(1-T_high/rtt)) (Algorithm 1; 0.8, TimelyBeta, rdma-hw.cc:147-151)"},
		{Key: "t_low", Kind: Duration, Min: 0, Default: Fixed(50e-6),
			Doc: "T_low: below this RTT the rate grows by delta whatever the gradient (Algorithm 1; 50 us, TimelyTLow, rdma-hw.cc:152-156)"},
		{Key: "t_high", Kind: Duration, Min: 1e-9, Default: Fixed(500e-6),
			Doc: "T_high: above this RTT the rate is cut by beta*(1-T_high/rtt) whatever the gradient (Algorithm 1; 500 us, TimelyTHigh, rdma-hw.cc:157-161)"},
		{Key: "min_rtt", Kind: Duration, Min: 1e-9, Default: Fixed(20e-6),
			Doc: "minRTT: the gradient is rtt_diff / minRTT (Algorithm 1; 20 us, TimelyMinRtt, rdma-hw.cc:162-166)"},
		{Key: "delta", Kind: Rate, Min: 0,
			Doc:     "delta: the additive increment (paper: 10 Mbps at 10 Gbps; hpcc: RATE_AI = NIC Gbps in Mb/s (run.py:133)); both are 1 Mbps per Gbps of the sources' line rate, scaled with it",
			Default: func(n Network, _ Values) float64 { return 1e6 * dcqcnNICRate(n) / 1e9 }},
		{Key: "hai_after", Kind: Count, Min: 1, Default: Fixed(5),
			Doc: "N: hyper-active increase from this many events in a row (paper: 'five completion events'; hpcc: m_incStage < 5 before it, rdma-hw.cc:960)"},
		{Key: "r_hai", Kind: Rate, Min: 0,
			Doc:     "the step of hyper-active increase (paper: N*delta with N = 5; hpcc: RATE_HAI = 5 x RATE_AI (run.py:134)); follows an explicit delta",
			Default: func(_ Network, v Values) float64 { return 5 * v["delta"] }},
		{Key: "hai_count", Kind: Choice, Choices: []string{"gradient", "increases"}, Default: from(func(p *timelyPreset) float64 { return p.haiCount }),
			Doc: "gradient = count completions whose gradient is negative, in a row, and step r_hai in the gradient region (paper); increases = count increases in a row in any region, including below T_low, and step r_hai on the one after hai_after of them (hpcc, rdma-hw.cc:959-970)"},
		{Key: "update", Kind: Choice, Choices: []string{"completion", "window"}, Default: from(func(p *timelyPreset) float64 { return p.update }),
			Doc: "completion = every ACK is a completion event and updates the rate (paper); window = only the first ACK past the sequence sent at the last update, once per window of data, and the RTT difference is taken between such ACKs (hpcc, rdma-hw.cc:923-931, 986-990)"},
		{Key: "min_rate", Kind: Rate, Min: 1,
			Doc: "the floor of a cut (paper: none, and a rate of 0 would stop the flow for good, since only ACKs raise it: one delta here; hpcc: MIN_RATE 1000 Mb/s (run.py:28))",
			Default: func(_ Network, v Values) float64 {
				if r := timelyPresetOf(v).minRate; r > 0 {
					return r
				}
				return max(v["delta"], 1)
			}},
		{Key: "window", Kind: Switch, Max: 1, Default: Fixed(0),
			Doc: "also limit the flow by a window that follows the rate, BDP*R/line rate (run.py --cc timely_vwin: HAS_WIN 1, VAR_WIN 1); off: rate only (--cc timely, HAS_WIN 0)"},
	}
}

var timelyReadings = []string{
	"Sources. Algorithm 1 of the paper (Mittal et al., SIGCOMM 2015, section 4) is the rule; the values are those the HPCC authors' code uses for it (rdma-hw.cc:142-166, run.py:132-139), which their README says are the paper's, with those the paper lacks taken from Zhu et al. (CoNEXT 2016, footnote 4): alpha 0.875, beta 0.8, T_low 50 us, T_high 500 us, minRTT 20 us, delta 10 Mbps at 10 Gbps. Which of them the paper itself states, and which come from Zhu et al., is not told apart here: a reading to check against the paper's text.",
	"RTT sample: now minus the send time of the frame the ACK answers (the HPCC code stamps it in the INT header, rdma-hw.cc:934). The first sample only sets prev_rtt: Algorithm 1 needs a previous RTT for its difference.",
	"Regions in Algorithm 1's order: rtt < T_low adds delta; rtt > T_high cuts to rate*(1-beta*(1-T_high/rtt)); otherwise a gradient <= 0 adds N*delta and a positive one cuts to rate*(1-beta*gradient), the factor floored at 0 (rdma-hw.cc:955-956). The rate stays within [min_rate, line rate].",
	"HAI (paper): N = 5 (r_hai) when the gradient has been negative for five completion events in a row, this one included; a completion with a gradient >= 0 restarts the count; HAI applies in the gradient region only (below T_low the step is delta). The HPCC code instead counts increases in a row (reset by a cut) and steps RATE_HAI on every increase after five, in any region.",
	"A third reading, not a preset: the TIMELY authors' published code snippet (timely-code-snippet.cc, as eRPC's src/cc/timely.h carries it) uses ewma_alpha 0.02 and T_high 1 ms, counts HAI on raw RTT differences, scales each step by the time since the last update over minRTT (at most 1) and never cuts below half; its values can be set through the parameters, its step scaling is not modelled.",
	"Cadence: the paper updates per completion event (a segment of 16-64 KB acknowledged); here every ACK, so the transport's ack_every sets the segment. The HPCC code updates on the first ACK past the sequence sent at its last update (once per window of data, its 'full RTT feedback'), and its FastReactTimely does nothing.",
	"Losses: Algorithm 1 does not react to a loss or a timeout (the paper ran TIMELY over PFC): the rate moves only when a completion comes back, so a flow whose frames are all dropped keeps the rate it had, and a queue held full below T_high reads as a gradient of 0. On a drop-tail chain in lock-step (clock_ppm and switch_jitter 0) with ack_every above buffer / (sources - 1) (sources at line rate into a link of the same rate), no source completes a segment before the queue overflows, one then takes every freed slot and the others stay at line rate with nothing delivered (the README's transport section has the numbers, with real clocks and with PFC).",
}

// TimelySender is TIMELY at a sender: rate-paced, with a window that follows
// the rate only under window = on.
type TimelySender struct {
	alpha, beta       float64
	tLow, tHigh       float64 // seconds
	minRTT            float64 // seconds
	delta, rHAI       float64
	haiAfter          int
	haiOnIncreases    bool
	perWindow         bool
	minRate, lineRate float64
	window            bool
	bdp               float64
	r                 float64
	rttDiff           float64 // seconds
	prevRTT           float64 // seconds; 0 before the first sample
	streak            int     // negative gradients, or increases, in a row
	seq               seqs
	lastUpdate        int64
	started           bool
	lastGradient      float64
}

// NewTimelySender builds a flow's TIMELY sender from resolved values; it
// starts at line rate (the HPCC code's AddQueuePair, rdma-hw.cc:240-251).
func NewTimelySender(env SenderEnv, v Values) *TimelySender {
	return &TimelySender{
		alpha: v["ewma_alpha"], beta: v["beta"],
		tLow: v["t_low"], tHigh: v["t_high"], minRTT: v["min_rtt"],
		delta: v["delta"], rHAI: v["r_hai"], haiAfter: int(v["hai_after"]),
		haiOnIncreases: v["hai_count"] == TimelyHAIIncreases,
		perWindow:      v["update"] == TimelyPerWindow,
		minRate:        v["min_rate"], lineRate: env.LineRate,
		window: v["window"] != 0, bdp: env.BDP(),
		r: env.LineRate,
	}
}

func (s *TimelySender) Rate() float64 { return s.r }

// Window is 0 (none) unless window = on: then BDP x R / line rate.
func (s *TimelySender) Window() float64 {
	if !s.window {
		return 0
	}
	return max(float64(int64(s.bdp*s.r/s.lineRate)), 1)
}

// Gradient is the normalised RTT gradient of the last update.
func (s *TimelySender) Gradient() float64 { return s.lastGradient }

func (s *TimelySender) OnSend(now Time, seq int64, bytes int) { s.seq.sent(seq, bytes) }
func (s *TimelySender) OnLoss(now Time)                       {}
func (s *TimelySender) OnTimeout(now Time)                    {}

func (s *TimelySender) OnAck(now Time, a *Ack) {
	s.seq.acked(a)
	if s.perWindow {
		if a.Seq <= s.lastUpdate {
			return // FastReactTimely: nothing
		}
		if s.seq.nxt > s.lastUpdate {
			s.lastUpdate = s.seq.nxt
		}
	}
	rtt := (now - a.Sent).Seconds()
	if !s.started {
		s.started, s.prevRTT = true, rtt
		return
	}
	s.update(rtt)
}

// update is Algorithm 1 on one RTT sample, in seconds.
func (s *TimelySender) update(rtt float64) {
	newDiff := rtt - s.prevRTT
	s.prevRTT = rtt
	s.rttDiff = (1-s.alpha)*s.rttDiff + s.alpha*newDiff
	gradient := s.rttDiff / s.minRTT
	s.lastGradient = gradient
	if !s.haiOnIncreases {
		if gradient < 0 {
			s.streak++
		} else {
			s.streak = 0
		}
	}
	switch {
	case rtt < s.tLow:
		s.increase(s.delta)
	case rtt > s.tHigh:
		s.decrease(1 - s.beta*(1-s.tHigh/rtt))
	case gradient <= 0:
		step := s.delta
		if !s.haiOnIncreases && s.streak >= s.haiAfter {
			step = s.rHAI
		}
		s.increase(step)
	default:
		s.decrease(max(1-s.beta*gradient, 0))
	}
}

func (s *TimelySender) increase(step float64) {
	if s.haiOnIncreases {
		// rdma-hw.cc:960-969: the step is RATE_HAI once hai_after
		// increases have come in a row before this one.
		if s.streak >= s.haiAfter {
			step = s.rHAI
		}
		s.streak++
	}
	s.r = min(s.r+step, s.lineRate)
}

func (s *TimelySender) decrease(c float64) {
	if s.haiOnIncreases {
		s.streak = 0
	}
	s.r = max(s.r*c, s.minRate)
}
