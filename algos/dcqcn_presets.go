package algos

import (
	"fmt"
	"math"
)

// DCQCN's parameters and the four sets they default from. The paper (Zhu et
// al., "Congestion Control for Large-Scale RDMA Deployments", SIGCOMM 2015)
// gives the defaults; its authors' ns-3 code (github.com/bobzhuyb/ns3-rdma)
// and the HPCC authors' ns-3 code (github.com/alibaba-edu/
// High-Precision-Congestion-Control, whose run.py calls its two DCQCN
// configurations "dcqcn" and "dcqcn_paper") differ from it and from each
// other; each is a preset. File and line references are to those
// repositories as fetched for this work: ns3-rdma at e8a27d0, HPCC at 9f4be2a.
// Paths shortened: "ns3-rdma config.txt" is
// windows/ns-3-dev/x64/Release/mix/config.txt, "qbb-net-device.cc" is
// src/point-to-point/model/qbb-net-device.cc, "broadcom-node.cc" is
// src/network/model/broadcom-node.cc; the HPCC files are under simulation/.

// The values of DCQCN's preset parameter.
const (
	DCQCNPresetPaper     = 0 // the paper (sections 3 and 5), marking and CNPs as its authors' analysis models them
	DCQCNPresetNS3RDMA   = 1 // bobzhuyb/ns3-rdma, mix/config.txt (40 Gbps)
	DCQCNPresetHPCC      = 2 // HPCC's run.py --cc dcqcn
	DCQCNPresetHPCCPaper = 3 // HPCC's run.py --cc dcqcn_paper
)

// The values of DCQCN's mark_on parameter.
const (
	DCQCNMarkOnEnqueue = 0 // mark an arriving frame (SIGCOMM 2015's wording, after DCTCP)
	DCQCNMarkOnDequeue = 1 // mark a departing frame (CoNEXT 2016's analysis, both ns-3 codes)
)

// The values of DCQCN's cnp_timing parameter.
const (
	DCQCNCNPWindow = 0 // a CNP per cnp_interval window that saw a mark, the window opened by a CNP (htsim; the fluid model)
	DCQCNCNPGrid   = 1 // the same on fixed windows from the flow's first frame (ns3-rdma)
	DCQCNCNPDrop   = 2 // a mark within cnp_interval of the last CNP sends nothing, none later either
)

// The values of DCQCN's alpha_update parameter.
const (
	DCQCNAlphaPerCNP   = 0 // eqs. (1)-(2): raise on every CNP, decay after alpha_interval without one
	DCQCNAlphaPeriodic = 1 // every alpha_interval from the first CNP: raise if a CNP came, else decay (HPCC)
)

// The values of DCQCN's hyper_increase parameter.
const (
	DCQCNHyperQCN   = 0 // QCN: both counters past F, step R_HAI*(min(stages) - F)
	DCQCNHyperTimer = 1 // HPCC: the larger stage past F+1, step R_HAI
)

// dcqcnPreset is one source's set of values. Values marked "at ref" are
// quoted at link rate ref and scale linearly with the network's rate.
type dcqcnPreset struct {
	ref           float64 // the link rate the "at ref" values are given for, bits per second
	markOn        float64
	kMin, kMax    float64 // bytes, at ref
	pMax          float64
	kPerPort      float64
	cnpInterval   float64 // seconds
	cnpTiming     float64
	g             float64
	initialAlpha  float64
	alphaUpdate   float64
	alphaInterval float64 // seconds
	alphaFirst    float64
	decInterval   float64 // seconds
	clamp         float64
	rpTimer       float64 // seconds
	byteCounter   float64 // bytes
	frTh          float64
	rAI           float64 // bits per second, at ref
	haiRatio      float64 // r_hai = haiRatio * r_ai
	hyper         float64
	trr           float64
	minRate       float64 // bits per second, not scaled
}

// dcqcnPresets are indexed by the preset parameter's value.
var dcqcnPresets = [...]dcqcnPreset{
	DCQCNPresetPaper: {
		ref: 40e9, markOn: DCQCNMarkOnDequeue,
		kMin: 5e3, kMax: 200e3, pMax: 0.01, kPerPort: 0,
		cnpInterval: 50e-6, cnpTiming: DCQCNCNPWindow,
		g: 1.0 / 256, initialAlpha: 1, alphaUpdate: DCQCNAlphaPerCNP, alphaInterval: 55e-6, alphaFirst: 0,
		decInterval: 0, clamp: 1, rpTimer: 55e-6, byteCounter: 10e6, frTh: 5,
		rAI: 40e6, haiRatio: 5, hyper: DCQCNHyperQCN, trr: 1, minRate: 100e6,
	},
	DCQCNPresetNS3RDMA: {
		ref: 40e9, markOn: DCQCNMarkOnDequeue,
		kMin: 40 * 1030, kMax: 1000 * 1030, pMax: 1, kPerPort: 0,
		cnpInterval: 50e-6, cnpTiming: DCQCNCNPGrid,
		g: 1.0 / 256, initialAlpha: 0.5, alphaUpdate: DCQCNAlphaPerCNP, alphaInterval: 55e-6, alphaFirst: 1,
		decInterval: 0, clamp: 1, rpTimer: 60e-6, byteCounter: 300e6, frTh: 4,
		rAI: 40e6, haiRatio: 5, hyper: DCQCNHyperQCN, trr: 1, minRate: 100e6,
	},
	DCQCNPresetHPCC: {
		ref: 1e9, markOn: DCQCNMarkOnDequeue,
		kMin: 4e3, kMax: 16e3, pMax: 0.2, kPerPort: 1,
		cnpInterval: 0, cnpTiming: DCQCNCNPWindow,
		g: 1.0 / 256, initialAlpha: 1, alphaUpdate: DCQCNAlphaPeriodic, alphaInterval: 1e-6, alphaFirst: 0,
		decInterval: 4e-6, clamp: 0, rpTimer: 300e-6, byteCounter: 0, frTh: 1,
		rAI: 0.2e6, haiRatio: 10, hyper: DCQCNHyperTimer, trr: 0, minRate: 1e9,
	},
	DCQCNPresetHPCCPaper: {
		ref: 1e9, markOn: DCQCNMarkOnDequeue,
		kMin: 4e3, kMax: 16e3, pMax: 0.2, kPerPort: 1,
		cnpInterval: 0, cnpTiming: DCQCNCNPWindow,
		g: 1.0 / 256, initialAlpha: 1, alphaUpdate: DCQCNAlphaPeriodic, alphaInterval: 50e-6, alphaFirst: 0,
		decInterval: 50e-6, clamp: 0, rpTimer: 55e-6, byteCounter: 0, frTh: 1,
		rAI: 0.2e6, haiRatio: 10, hyper: DCQCNHyperTimer, trr: 0, minRate: 1e9,
	},
}

// dcqcnPresetOf is the preset the values chose (the paper's if none).
func dcqcnPresetOf(v Values) *dcqcnPreset {
	i := int(v["preset"])
	if i < 0 || i >= len(dcqcnPresets) {
		i = DCQCNPresetPaper
	}
	return &dcqcnPresets[i]
}

// dcqcnNICRate is the rate the rate steps scale with: the sources' line
// rate (HPCC's run.py scales them with the NIC bandwidth), or the
// bottleneck capacity if the network has no line rate.
func dcqcnNICRate(n Network) float64 {
	if n.LineRate > 0 {
		return n.LineRate
	}
	return n.Capacity
}

// dcqcnFrom is a default that reads one field of the chosen preset.
func dcqcnFrom(field func(p *dcqcnPreset) float64) func(Network, Values) float64 {
	return func(_ Network, v Values) float64 { return field(dcqcnPresetOf(v)) }
}

// DCQCNParams are DCQCN's parameters. The preset comes first: every other
// default reads it, and a value set explicitly beats the preset's.
func DCQCNParams() []Param {
	return []Param{
		{Key: "preset", Kind: Choice, Choices: []string{"paper", "ns3-rdma", "hpcc", "hpcc-paper"}, Default: Fixed(DCQCNPresetPaper),
			Doc: "the set the other defaults come from: paper = Zhu et al. SIGCOMM 2015 (sections 3, 5; values at its 40 Gbps); ns3-rdma = its authors' ns-3 code, mix/config.txt (40 Gbps); hpcc = the HPCC authors' ns-3 run.py --cc dcqcn; hpcc-paper = the same with --cc dcqcn_paper. A parameter set explicitly beats the preset"},

		// Congestion point: RED-style ECN marking (paper section 3.1, figure 5).
		{Key: "mark_on", Kind: Choice, Choices: []string{"enqueue", "dequeue"}, Default: dcqcnFrom(func(p *dcqcnPreset) float64 { return p.markOn }),
			Doc: "when the switch marks: dequeue, the default = a departing frame, against the queue it leaves, as the DCQCN authors' CoNEXT 2016 analysis says switches do and its fluid model's fixed loop delay assumes (conext2016/discussion.tex, 'ECN marking is done on packet egress'; dcqcn-model.tex), and as both ns-3 codes do (ns3-rdma qbb-net-device.cc:355-369 QbbNetDevice::DequeueAndTransmit, HPCC switch-node.cc:195-213 SwitchNode::SwitchNotifyDequeue); enqueue = an arriving frame, against the queue it joins (SIGCOMM 2015 3.1 and CoNEXT 2016 dcqcn-protocol.tex word it so, after DCTCP; the same analysis shows it makes the queue swing, discussion.tex figure dcqcn_bufferbloat)"},
		{Key: "k_min", Kind: Bytes, Min: 0,
			Doc: "K_min: no frame is marked at or below this queue (paper: 5 KB at 40 Gbps (section 5); ns3-rdma: KMIN 40 cells of 1030 B at 40 Gbps (config.txt:29, broadcom-node.cc:423); hpcc: 4 KB per Gbps (run.py:97, switch-mmu.cc:112)); scaled linearly with the bottleneck capacity, as run.py scales it with the link rate",
			Default: func(n Network, v Values) float64 {
				p := dcqcnPresetOf(v)
				return math.Round(p.kMin * n.Capacity / p.ref)
			}},
		{Key: "k_max", Kind: Bytes, Min: 0,
			Doc: "K_max: every frame is marked above this queue; between K_min and K_max with probability p_max*(q-K_min)/(K_max-K_min) (paper: 200 KB at 40 Gbps (section 5); ns3-rdma: KMAX 1000 cells of 1030 B (config.txt:28); hpcc: 16 KB per Gbps (run.py:96)); scaled like k_min",
			Default: func(n Network, v Values) float64 {
				p := dcqcnPresetOf(v)
				return math.Round(p.kMax * n.Capacity / p.ref)
			}},
		{Key: "p_max", Kind: Number, Min: 0, Max: 1, Default: dcqcnFrom(func(p *dcqcnPreset) float64 { return p.pMax }),
			Doc: "P_max: the marking probability at K_max (paper: 1% (section 5); ns3-rdma: PMAX 1.0 (config.txt:30); hpcc: 0.2 (run.py:98))"},
		{Key: "k_per_port", Kind: Switch, Max: 1, Default: dcqcnFrom(func(p *dcqcnPreset) float64 { return p.kPerPort }),
			Doc: "scale k_min and k_max on each queue by its link's capacity over the bottleneck capacity, as HPCC sets them per port from the link rate (third.cc:829-833; presets hpcc, hpcc-paper); off: one pair for every queue (the paper, ns3-rdma broadcom-node.cc:421-426)"},

		// Notification point (paper section 3.1, figure 6).
		{Key: "cnp_interval", Kind: Duration, Min: 0, Default: dcqcnFrom(func(p *dcqcnPreset) float64 { return p.cnpInterval }),
			Doc: "N: at most one CNP per flow per N (paper: 50 us (3.1); ns3-rdma: CNP_INTERVAL 50 (config.txt:20)); 0 sends a CNP for every marked frame, as HPCC's receiver flags every ACK of a marked frame (rdma-hw.cc:306-322, L2_ACK_INTERVAL 1 in run.py:33) and spaces decreases at the sender with rate_decrease_interval instead"},
		{Key: "cnp_timing", Kind: Choice, Choices: []string{"window", "grid", "drop"}, Default: dcqcnFrom(func(p *dcqcnPreset) float64 { return p.cnpTiming }),
			Doc: "window, the default = one CNP per window of N in which a marked frame came: the first mark after a quiet N sends at once and opens a window, a mark inside it sends one CNP at its end, which opens the next (htsim dcqcn.cpp DCQCNSink::receivePacket, doNextEvent; the CoNEXT 2016 fluid model's CNP rate (1-(1-p)^(tau R_C))/tau, dcqcn-model.tex, fluidmodel/dcqcn/dcqcn2.m); grid = ns3-rdma's fixed windows of N from the flow's first frame (a marked first frame sends at once), a CNP at the end of each window that saw a mark (qbb-net-device.cc:483-515 QbbNetDevice::Receive, 1111-1164 CheckandSendQCN); drop = a mark within N of the last CNP sends nothing, then or later (the letter of SIGCOMM 2015 3.1, 'if ... no CNP has been sent for the flow in last N microseconds, a CNP is sent immediately', read as dropping the others)"},

		// Reaction point: decrease and alpha (paper section 3.1, eqs. 1-2).
		{Key: "g", Kind: Number, Min: 0, Max: 1, Default: dcqcnFrom(func(p *dcqcnPreset) float64 { return p.g }),
			Doc: "g, alpha's gain: alpha = (1-g)*alpha + g on a CNP, (1-g)*alpha without (paper: 1/256 (section 5); ns3-rdma: DCTCP_GAIN 0.00390625 (config.txt:27); hpcc: EWMA_GAIN 0.00390625 (run.py:24, 104, 106))"},
		{Key: "initial_alpha", Kind: Number, Min: 0, Max: 1, Default: dcqcnFrom(func(p *dcqcnPreset) float64 { return p.initialAlpha }),
			Doc: "alpha before the first CNP (paper: not stated in section 3; 1 as its fluid model of section 5 starts and as HPCC sets it at the first CNP (rdma-hw.cc:643), so the first CNP halves the rate; ns3-rdma: 0.5 (qbb-net-device.cc:204))"},
		{Key: "alpha_update", Kind: Choice, Choices: []string{"per-cnp", "periodic"}, Default: dcqcnFrom(func(p *dcqcnPreset) float64 { return p.alphaUpdate }),
			Doc: "per-cnp = eq. (1) on every CNP and eq. (2) once per alpha_interval without a CNP, that interval restarted by each CNP and running only after the first (paper 3.1; ns3-rdma qbb-net-device.cc:1406-1409, 1435-1440); periodic = once per alpha_interval from the first CNP, raise if a CNP came in the interval, else decay, the first CNP itself not counted (HPCC rdma-hw.cc:618-653)"},
		{Key: "alpha_interval", Kind: Duration, Min: 1e-9, Default: dcqcnFrom(func(p *dcqcnPreset) float64 { return p.alphaInterval }),
			Doc: "K of eq. (2): alpha decays once per this without a CNP (paper: 55 us (3.1); ns3-rdma: ALPHA_RESUME_INTERVAL 55 (config.txt:21); hpcc: 1 us (run.py:104); hpcc-paper: 50 us (run.py:106))"},
		{Key: "alpha_before_cut", Kind: Switch, Max: 1, Default: dcqcnFrom(func(p *dcqcnPreset) float64 { return p.alphaFirst }),
			Doc: "on a CNP under per-cnp, update alpha before cutting the rate, as ns3-rdma does (qbb-net-device.cc:1406-1407); off: cut with the alpha from before the CNP, then update it, in the order of eq. (1)"},
		{Key: "rate_decrease_interval", Kind: Duration, Min: 0, Default: dcqcnFrom(func(p *dcqcnPreset) float64 { return p.decInterval }),
			Doc: "the NIC vendors' variant: cut at most once per this, on a grid from the first CNP, at the end of each interval in which a CNP came (so the first cut comes one interval after the first CNP) (HPCC rdma-hw.cc:640-681: 4 us in run.py:104, 50 us in run.py:106); 0, the default: cut on every CNP, as eq. (1) and ns3-rdma do"},
		{Key: "clamp_target_rate", Kind: Switch, Max: 1, Default: dcqcnFrom(func(p *dcqcnPreset) float64 { return p.clamp }),
			Doc: "every cut sets RT = RC, as eq. (1) says (paper; ns3-rdma CLAMP_TARGET_RATE 1 (config.txt:23)); off: QCN's first-cycle rule, RT kept when no increase happened since the last cut (HPCC CLAMP_TARGET_RATE 0, run.py:22, rdma-hw.cc:661-667)"},

		// Reaction point: increase (paper section 3.1, eqs. 3-4, figure 7: as QCN).
		{Key: "rp_timer", Kind: Duration, Min: 1e-9, Default: dcqcnFrom(func(p *dcqcnPreset) float64 { return p.rpTimer }),
			Doc: "T: the rate increases once per T (paper: 55 us (section 5); ns3-rdma: RP_TIMER 60 (config.txt:25); hpcc: 300 us (run.py:104); hpcc-paper: 55 us (run.py:106)); restarted by every cut"},
		{Key: "byte_counter", Kind: Bytes, Min: 0, Default: dcqcnFrom(func(p *dcqcnPreset) float64 { return p.byteCounter }),
			Doc: "B: the rate increases once per B bytes sent (paper: 10 MB (section 5); ns3-rdma: BYTE_COUNTER 300000000 (config.txt:26)); 0: no byte counter, as in HPCC's DCQCN (rdma-hw.cc:683-697 has only the timer)"},
		{Key: "fast_recovery_th", Kind: Count, Min: 0, Default: dcqcnFrom(func(p *dcqcnPreset) float64 { return p.frTh }),
			Doc: "F: increase events of fast recovery, RC = (RT+RC)/2, before additive increase (paper: 5 (3.1); ns3-rdma: FAST_RECOVERY_TIMES 5 (config.txt:31), which counts the stage before the increase (qbb-net-device.cc:1294, 1344): F = 4 here; hpcc: FAST_RECOVERY_TIMES 1 (run.py:25))"},
		{Key: "r_ai", Kind: Rate, Min: 0,
			Doc: "R_AI: RT += R_AI per additive-increase event (paper: 40 Mbps at 40 Gbps (section 5); ns3-rdma: RATE_AI 40Mb/s (config.txt:32); hpcc: 5 Mbps per 25 Gbps (run.py:100)); scaled linearly with the sources' line rate, as run.py scales it with the NIC bandwidth",
			Default: func(n Network, v Values) float64 {
				p := dcqcnPresetOf(v)
				return p.rAI * dcqcnNICRate(n) / p.ref
			}},
		{Key: "r_hai", Kind: Rate, Min: 0,
			Doc:     "R_HAI: RT's step in hyper increase (the paper gives none; 5 x R_AI as its authors' code has RATE_HAI 200Mb/s with RATE_AI 40Mb/s (config.txt:32-33); hpcc: 10 x R_AI, 50 Mbps per 25 Gbps (run.py:101)); follows an explicit r_ai",
			Default: func(_ Network, v Values) float64 { return dcqcnPresetOf(v).haiRatio * v["r_ai"] }},
		{Key: "hyper_increase", Kind: Choice, Choices: []string{"qcn", "timer"}, Default: dcqcnFrom(func(p *dcqcnPreset) float64 { return p.hyper }),
			Doc: "qcn = QCN's rule: hyper increase when both counters are past F, RT += R_HAI*(min(stages) - F) (seed 001 lines 67-79; the paper's rate increase is QCN's, 3.1); with no byte counter it never comes; timer = HPCC's: the increase event after F+1 is hyper, RT += R_HAI (rdma-hw.cc:688-697, 732)"},
		{Key: "target_rate_reduction", Kind: Switch, Max: 1, Default: dcqcnFrom(func(p *dcqcnPreset) float64 { return p.trr }),
			Doc: "QCN's target rate reduction: at the first increase event after a cut, RT /= 8 if RT > 10*RC (seed 001 lines 82-84; ns3-rdma qbb-net-device.cc:1363-1364); HPCC has none. Under clamp_target_rate it cannot trigger (a cut at most halves RC)"},
		{Key: "min_rate", Kind: Rate, Min: 1, Default: dcqcnFrom(func(p *dcqcnPreset) float64 { return p.minRate }),
			Doc: "the floor of a cut (the paper gives none; 100 Mbps, the MinRate of its authors' code (qbb-net-device.cc:117-121, not set in config.txt); hpcc: MIN_RATE 1000Mb/s (run.py:28)); not scaled: neither code scales it"},
	}
}

// dcqcnCheck validates what single parameters cannot.
func dcqcnCheck(_ Network, v Values) error {
	if v["k_min"] > v["k_max"] {
		return &ParamError{Key: "k_min", Err: fmt.Errorf("%g B is above k_max %g B", v["k_min"], v["k_max"])}
	}
	return nil
}

// dcqcnReadings are printed by qcnlab algos dcqcn.
var dcqcnReadings = []string{
	"Sources. The paper (Zhu et al., SIGCOMM 2015) gives the algorithm in section 3.1 (CP, NP, RP; eqs. 1-4, figures 5-7) and the parameter values with its analysis (section 5): K_min 5 KB, K_max 200 KB, P_max 1%, g 1/256, timer 55 us, byte counter 10 MB, R_AI 40 Mbps, at 40 Gbps; N = 50 us and K = 55 us are in 3.1. ns3-rdma is its authors' ns-3 code (mix/config.txt, qbb-net-device.cc, broadcom-node.cc); HPCC's is rdma-hw.cc ('Mellanox's version of DCQCN'), switch-mmu.cc, switch-node.cc and run.py.",
	"Marking on dequeue by default: the DCQCN authors' CoNEXT 2016 analysis (Zhu et al., 'ECN or Delay: Lessons Learnt from Analysis of DCQCN and TIMELY'; jitupadhye-zz/rdma, conext2016/discussion.tex) says switches mark on egress, against the queue at the instant the frame departs, so that the mark is delayed by propagation only; its fluid model's constant loop delay tau* rests on that (dcqcn-model.tex), and it shows marking on ingress makes the queue swing. Both ns-3 codes mark on dequeue, against the queue left once the frame is out (ns3-rdma qbb-net-device.cc:358-368 DequeueAndTransmit, HPCC switch-node.cc:200-210 SwitchNotifyDequeue). SIGCOMM 2015 3.1 and the CoNEXT protocol summary word it as marking the arriving packet, DCTCP-like: mark_on = enqueue, which compares the occupancy Arrive reports, the frame included. At 40 Gbps, 10 flows, a 4 us loop, enqueue marking leaves the link idle part of the time where dequeue keeps it busy (TestDCQCNDequeueMarkingKeepsTheLinkBusy). Thresholds are strict as in both codes: no mark at q = K_min, probability P_max at q = K_max, certain above; K_min = K_max gives DCTCP's step (3.1).",
	"Scaling with link speed: the paper's values are for 40 Gbps and say nothing of other speeds; HPCC scales K_min, K_max (per port, third.cc:829-833) and R_AI, R_HAI (per NIC) linearly with the rate (run.py:96-101; its authors: 'K should be proportional to the link bandwidth. DCQCN paper uses 40Gbps', HPCC issue #21). qcnlab scales every preset's thresholds linearly with Network.Capacity and its rate steps with Network.LineRate from the rate the set is quoted at (40 Gbps for paper and ns3-rdma, per Gbps for hpcc); at 40 Gbps paper and ns3-rdma give exactly their numbers. min_rate, timers, intervals and byte counts are not scaled (no source scales them).",
	"Notification point: one CNP per window of N in which a marked frame came (cnp_timing = window, the default). The first mark after N without a CNP sends one at once and opens a window of N; a mark inside the window is not lost: one CNP goes at the window's end and opens the next. This is what the sources that model the NP do: htsim's DCQCN sink (uet-htsim htsim/sim/dcqcn.cpp, DCQCNSink::receivePacket sends at once or counts the mark, DCQCNSink::doNextEvent sends N after the last CNP if marks came; Broadcom/csg-htsim at 841d9e7 has no DCQCN), the CoNEXT 2016 fluid model, whose CNP rate is (1-(1-p)^(tau R_C))/tau, the probability that a window of tau holds a mark, per window (dcqcn-model.tex; tau = 50 us in fluidmodel/dcqcn/dcqcn2.m), and ns3-rdma, on fixed windows of N from the flow's first frame, a CNP at each window's end if a mark came (cnp_timing = grid; QbbNetDevice::CheckandSendQCN, qbb-net-device.cc:1111-1164, first called at the flow's first frame, 515). SIGCOMM 2015 3.1 words it 'if a marked packet arrives for a flow, and no CNP has been sent for the flow in last N microseconds, a CNP is sent immediately' and also 'at most one CNP every N microseconds for the flow, if any packet that arrives within that time window was marked'; the reading that drops the marks inside the interval is cnp_timing = drop (it sends fewer CNPs and holds the queue higher: the fixed point lies 17-27% above the fluid model's). A CNP due at a window's end is decided at the window's first mark and leaves the receiver at the end (Feedback.Hold): the NP needs no timer. HPCC sends a CNP flag on the ACK of every marked frame (cnp_interval 0).",
	"Reaction point, a CNP (paper, eq. 1): RT = RC, RC = max(min_rate, RC*(1 - alpha/2)), then alpha = (1-g)*alpha + g; the byte counter restarts from B, both stages go to 0 and the rate timer restarts (QCN lines 38-59, ns3-rdma qbb-net-device.cc:1390-1412). Any Feedback delivered to a DCQCN reaction point is a CNP. ns3-rdma updates alpha first (alpha_before_cut); HPCC cuts on a grid (rate_decrease_interval) and updates alpha on its own grid (alpha_update = periodic).",
	"Alpha: it starts at initial_alpha (1) and does not move before the first CNP: the decay of eq. (2) runs only after one, once per K since the last CNP (the timer restarted by each CNP, as ns3-rdma's ResumeAlpha). The decay is computed when alpha is next used (a CNP or a cut), exactly as the timer would have applied it, so it costs the simulator no events; Alpha(now) reads it.",
	"Rate increase as QCN (3.1: 'in a manner identical to QCN'): each timer expiry and each B bytes sent advance their stage; the rule is QCN pseudo-code lines 62-95: fast recovery RC = (RT+RC)/2 while both stages <= F, additive increase RT += R_AI when one is past F, hyper increase RT += R_HAI*(min - F) when both are. The paper's 'increases rate for every B bytes ... every T time units' is read as fixed cycles: no 30% randomisation and no half-length AI cycles (neither ns-3 code has them; ns3-rdma halves only its hyper-increase cycles, not modelled). A byte cycle ends when B bytes have left since it began.",
	"Clamping: RC and RT never exceed the line rate (HPCC caps RT, rdma-hw.cc:717, 733; ns3-rdma caps RC only, qbb-net-device.cc:1370); a cut never goes below min_rate. Sources start at line rate with no timer; a source that starts below it starts as after a cut (RT = RC = its initial rate, timer armed). Once RC and RT are both at line rate the timer and byte counter stop: further increase events could change nothing.",
	"ns3-rdma's FAST_RECOVERY_TIMES 5 gives 4 fast-recovery steps and a hyper step of R_HAI*(min - 4) (it tests the stage with < before the step, qbb-net-device.cc:1294, 1344, 1355): the same as F = 4 under QCN's rule, which its preset uses. Its config (RP_TIMER 60, BYTE_COUNTER 300 MB) effectively runs the timer alone. Not modelled: its byte-counter events in additive increase never move to hyper increase (only timer events re-select, qbb-net-device.cc:1271-1276).",
	"HPCC (presets hpcc, hpcc-paper): timer only (byte_counter 0), F = 1, fast recovery on the first timer event after a cut, additive on the second, hyper (RT += R_HAI) from the third (hyper_increase = timer); alpha set to 1 at the first CNP and updated every alpha_interval; the first cut comes one rate_decrease_interval after the first CNP (its 'rate on first CNP' factor is 1.0, rdma-hw.cc:62-66, 650). CNPs ride on per-packet ACKs with no spacing at the receiver.",
}
