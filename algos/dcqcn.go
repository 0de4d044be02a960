package algos

import (
	"math"
	"math/rand/v2"
)

// DCQCN, from Zhu et al., "Congestion Control for Large-Scale RDMA
// Deployments" (SIGCOMM 2015), section 3.1: the switch marks frames with ECN
// as RED does (the congestion point), the receiver turns the marks of a flow
// into congestion notification packets (CNPs, the notification point), and
// the sender's rate limiter cuts its rate on a CNP by alpha/2, alpha being a
// DCTCP-like estimate, and raises it by itself as QCN does (the reaction
// point). Equation numbers are the paper's; "QCN line n" is a line of the
// QCN pseudo-code (seed 001). The parameters, their sources and the readings
// taken where the paper and the public codes differ are in dcqcn_presets.go.

func init() {
	Register(&Scheme{
		Name: "dcqcn",
		// No set point: the queue it acts in is the marking band.
		QueueBand: func(v Values) (float64, float64) { return v["k_min"], v["k_max"] },
		Display:   "DCQCN",
		Ref:       "Zhu et al., SIGCOMM 2015 (DCQCN), sections 3-5; marking on dequeue and one CNP per window as its authors' CoNEXT 2016 analysis models them (jitupadhye-zz/rdma); presets from bobzhuyb/ns3-rdma and alibaba-edu/High-Precision-Congestion-Control",
		Summary:   "RoCEv2 congestion control: RED-style ECN marking at switches, CNPs from receivers, alpha-weighted cuts and QCN's self-increase at senders",
		Params:    DCQCNParams(),
		Readings:  dcqcnReadings,
		Check:     dcqcnCheck,
		NewCP:     func(env CPEnv, v Values) CongestionPoint { return NewDCQCNCongestionPoint(env, v) },
		NewRP:     func(env RPEnv, v Values) ReactionPoint { return NewDCQCNReactionPoint(env, v) },
		NewNP:     func(env NPEnv, v Values) NotificationPoint { return NewDCQCNNotificationPoint(env, v) },
	})
}

// DCQCNMarker is the marking rule of a DCQCN congestion point (section
// 3.1, figure 5): RED on the instantaneous queue, no averaging.
type DCQCNMarker struct {
	kMin, kMax, pMax float64
	rand             *rand.Rand
}

// Thresholds are the marker's K_min and K_max in bytes, after any per-port
// scaling.
func (m *DCQCNMarker) Thresholds() (kMin, kMax float64) { return m.kMin, m.kMax }

// MarkProbability is the probability that a frame is marked against a queue
// of q bytes: 0 up to K_min, P_max*(q-K_min)/(K_max-K_min) above it up to
// K_max, 1 above K_max (both ns-3 codes compare with >: broadcom-node.cc:
// 355-364, switch-mmu.cc:99-110).
func (m *DCQCNMarker) MarkProbability(q float64) float64 {
	switch {
	case q > m.kMax:
		return 1
	case q > m.kMin:
		return m.pMax * (q - m.kMin) / (m.kMax - m.kMin)
	}
	return 0
}

// mark sets f.ECN with MarkProbability(qlen). It draws from the CP's stream
// only between the thresholds, where the outcome is random. A frame already
// marked upstream stays marked.
func (m *DCQCNMarker) mark(f *Frame, qlen int) {
	q := float64(qlen)
	switch {
	case q > m.kMax:
		f.ECN = true
	case q > m.kMin:
		if m.rand.Float64() < m.pMax*(q-m.kMin)/(m.kMax-m.kMin) {
			f.ECN = true
		}
	}
}

// DCQCNCongestionPoint marks arriving frames (mark_on = enqueue). It sends
// no feedback: the marks travel to the receiver in the frames.
type DCQCNCongestionPoint struct{ DCQCNMarker }

// Arrive marks f against the queue it joins (qlen includes it).
func (cp *DCQCNCongestionPoint) Arrive(now Time, f *Frame, qlen int, fb *Feedback) bool {
	cp.mark(f, qlen)
	return false
}

// DCQCNDequeueCongestionPoint marks departing frames (mark_on = dequeue).
// It is the only DCQCN CP that implements DepartingCP, so the simulator
// calls Depart only when marking is on dequeue.
type DCQCNDequeueCongestionPoint struct{ DCQCNMarker }

// Arrive does nothing: the mark is decided as the frame leaves.
func (cp *DCQCNDequeueCongestionPoint) Arrive(now Time, f *Frame, qlen int, fb *Feedback) bool {
	return false
}

// Depart marks f against the queue it leaves behind (qlen excludes it, as
// both ns-3 codes remove the frame's bytes before deciding).
func (cp *DCQCNDequeueCongestionPoint) Depart(now Time, f *Frame, qlen int) {
	cp.mark(f, qlen)
}

// NewDCQCNCongestionPoint builds the CP of one queue from resolved DCQCN
// values: a *DCQCNCongestionPoint when marking on enqueue, a
// *DCQCNDequeueCongestionPoint when on dequeue. Under k_per_port the
// thresholds are scaled by this queue's link capacity over the bottleneck's.
func NewDCQCNCongestionPoint(env CPEnv, v Values) CongestionPoint {
	m := DCQCNMarker{kMin: v["k_min"], kMax: v["k_max"], pMax: v["p_max"], rand: env.Rand}
	if v["k_per_port"] != 0 && env.Capacity > 0 && env.Network.Capacity > 0 {
		s := env.Capacity / env.Network.Capacity
		m.kMin, m.kMax = math.Round(m.kMin*s), math.Round(m.kMax*s)
	}
	if v["mark_on"] == DCQCNMarkOnDequeue {
		cp := place(env, func(s *CPSlab) *slab[DCQCNDequeueCongestionPoint] { return &s.dcqcnDeq })
		cp.DCQCNMarker = m
		return cp
	}
	cp := place(env, func(s *CPSlab) *slab[DCQCNCongestionPoint] { return &s.dcqcn })
	cp.DCQCNMarker = m
	return cp
}

// DCQCNNotificationPoint is the receiver side of one flow (section 3.1,
// figure 6): it turns the flow's marked frames into CNPs. The readings of
// cnp_timing and their sources are in dcqcn_presets.go.
type DCQCNNotificationPoint struct {
	interval Time // N; 0: a CNP per marked frame
	timing   int  // cnp_timing

	sent bool // a CNP has gone or is due ...
	last Time // ... at last (window, drop)

	started   bool // grid: the flow's first frame has come
	windowEnd Time // grid: the end of the current window
	pending   bool // grid: the current window's CNP is due at windowEnd
}

// NewDCQCNNotificationPoint builds the NP of one flow from resolved DCQCN
// values.
func NewDCQCNNotificationPoint(env NPEnv, v Values) *DCQCNNotificationPoint {
	return &DCQCNNotificationPoint{
		interval: Seconds(v["cnp_interval"]),
		timing:   int(v["cnp_timing"]),
	}
}

// Receive runs on each frame of the flow at the receiver. A CNP goes back
// as a Feedback with Fb = 1 and the frame's timestamp; it names no CP. A
// CNP due at the end of a window is returned at the window's first mark,
// with Hold the time left to the end, since no later frame can change it.
func (np *DCQCNNotificationPoint) Receive(now Time, f *Frame, fb *Feedback) bool {
	if np.timing == DCQCNCNPGrid && !np.started && np.interval > 0 {
		// The flow's first frame, marked or not, starts the grid, and its
		// mark is checked at once (qbb-net-device.cc:515).
		np.started, np.windowEnd = true, now+np.interval
		if f.ECN {
			*fb = Feedback{Fb: 1, Sent: f.Sent}
		}
		return f.ECN
	}
	if !f.ECN {
		return false // only marks make CNPs, in every reading
	}
	hold, send := Time(0), false
	switch {
	case np.interval <= 0:
		send = true
	case np.timing == DCQCNCNPGrid:
		hold, send = np.receiveGrid(now)
	case np.timing == DCQCNCNPDrop:
		send = !np.sent || now-np.last >= np.interval
		if send {
			np.sent, np.last = true, now
		}
	default:
		hold, send = np.receiveWindow(now)
	}
	if send {
		*fb = Feedback{Fb: 1, Sent: f.Sent, Hold: hold}
	}
	return send
}

// receiveWindow is htsim's sink (dcqcn.cpp DCQCNSink::receivePacket and
// doNextEvent): a mark N or more after the last CNP sends at once; a mark
// sooner makes one CNP due N after the last, unless one is due already.
func (np *DCQCNNotificationPoint) receiveWindow(now Time) (hold Time, send bool) {
	switch {
	case np.sent && now < np.last:
		return 0, false // the CNP due at last covers it
	case !np.sent || now-np.last >= np.interval:
		np.sent, np.last = true, now
		return 0, true
	}
	np.last += np.interval
	return np.last - now, true
}

// receiveGrid is ns3-rdma's timing (qbb-net-device.cc:483-515,
// QbbNetDevice::CheckandSendQCN 1111-1164): windows of N from the flow's
// first frame, whose mark is checked at once; a CNP at the end of each
// window in which a mark came. Receive starts the grid at the first frame;
// this runs on the marks after it.
func (np *DCQCNNotificationPoint) receiveGrid(now Time) (hold Time, send bool) {
	if now >= np.windowEnd {
		k := (now-np.windowEnd)/np.interval + 1
		np.windowEnd += k * np.interval
		np.pending = false
	}
	if np.pending {
		return 0, false
	}
	np.pending = true
	return np.windowEnd - now, true
}

// DCQCNReactionPoint is the rate limiter of one flow at its sender (section
// 3.1, eqs. 1-4, figure 7).
type DCQCNReactionPoint struct {
	c, minRate    float64 // line rate, floor of a cut
	g             float64
	alphaEvery    Time // K of eq. (2), or the period of periodic updates
	periodicAlpha bool
	alphaFirst    bool // alpha_before_cut
	decEvery      Time // rate_decrease_interval; 0: cut on every CNP
	clamp, trr    bool
	timerHAI      bool // hyper_increase = timer
	period        Time // rp_timer
	bc            float64
	frTh          int
	rAI, rHAI     float64

	rc, rt      float64 // current and target rate
	alpha       float64
	alphaNext   Time // when alpha next decays (per-cnp) or its period ends (periodic); Never before the first CNP
	cnpInPeriod bool // periodic: a CNP came in the current period
	seenCNP     bool
	decAnchor   Time // rate_decrease_interval: the first CNP, where its grid starts
	decAt       Time // a cut is due then (a CNP came in its interval); Never if none
	counting    bool // the byte counter runs
	txLeft      float64
	si, ts      int  // byte-counter and timer stages
	timer       Time // the rate-increase timer, Never when not armed
}

// NewDCQCNReactionPoint builds an RP from resolved DCQCN values. A source
// starts at line rate with alpha at initial_alpha and no timer; one that
// starts below line rate starts as after a cut, RT = RC = its initial rate.
func NewDCQCNReactionPoint(env RPEnv, v Values) *DCQCNReactionPoint {
	rp := &DCQCNReactionPoint{
		c:             env.LineRate,
		minRate:       v["min_rate"],
		g:             v["g"],
		alphaEvery:    max(Seconds(v["alpha_interval"]), 1),
		periodicAlpha: v["alpha_update"] == DCQCNAlphaPeriodic,
		alphaFirst:    v["alpha_before_cut"] != 0,
		decEvery:      Seconds(v["rate_decrease_interval"]),
		clamp:         v["clamp_target_rate"] != 0,
		trr:           v["target_rate_reduction"] != 0,
		timerHAI:      v["hyper_increase"] == DCQCNHyperTimer,
		period:        max(Seconds(v["rp_timer"]), 1),
		bc:            v["byte_counter"],
		frTh:          int(v["fast_recovery_th"]),
		rAI:           v["r_ai"],
		rHAI:          v["r_hai"],
		rc:            env.LineRate,
		rt:            env.LineRate,
		alpha:         v["initial_alpha"],
		alphaNext:     Never,
		decAt:         Never,
		txLeft:        v["byte_counter"],
		timer:         Never,
	}
	if env.InitialRate > 0 && env.InitialRate < env.LineRate {
		rp.rc, rp.rt = env.InitialRate, env.InitialRate
		rp.timer = env.Start + rp.period
		rp.counting = rp.bc > 0
	}
	return rp
}

func (rp *DCQCNReactionPoint) Rate() float64 { return rp.rc }
func (rp *DCQCNReactionPoint) CPID() int     { return 0 }

// Timer is the earliest of the rate-increase timer and a due cut.
func (rp *DCQCNReactionPoint) Timer() Time { return min(rp.timer, rp.decAt) }

// TargetRate is RT.
func (rp *DCQCNReactionPoint) TargetRate() float64 { return rp.rt }

// Stages returns the byte-counter and timer stages since the last cut.
func (rp *DCQCNReactionPoint) Stages() (byteCounter, timer int) { return rp.si, rp.ts }

// Alpha is alpha as of now, with every decay due by now applied (now must
// not be before the last call that changed the RP).
func (rp *DCQCNReactionPoint) Alpha(now Time) float64 {
	c := *rp
	c.advanceAlpha(now)
	return c.alpha
}

// advanceAlpha applies the alpha updates whose time has come by now. Under
// per-cnp they are the decays of eq. (2), one per K since the last CNP;
// under periodic, the update at the end of each period, a raise for a
// period that saw a CNP. It replaces a timer: alpha is read only at a CNP or
// a cut, so computing it then gives what the timer would have.
func (rp *DCQCNReactionPoint) advanceAlpha(now Time) {
	if now < rp.alphaNext {
		return // also before the first CNP: alphaNext is Never
	}
	if rp.cnpInPeriod {
		rp.alpha = (1-rp.g)*rp.alpha + rp.g
		rp.cnpInPeriod = false
		rp.alphaNext += rp.alphaEvery
		if now < rp.alphaNext {
			return
		}
	}
	n := (now-rp.alphaNext)/rp.alphaEvery + 1
	if n == 1 {
		rp.alpha *= 1 - rp.g
	} else {
		rp.alpha *= math.Pow(1-rp.g, float64(n))
	}
	rp.alphaNext += n * rp.alphaEvery
}

// raiseAlpha is eq. (1)'s alpha = (1-g)*alpha + g, which restarts the K of
// eq. (2).
func (rp *DCQCNReactionPoint) raiseAlpha(now Time) {
	rp.alpha = (1-rp.g)*rp.alpha + rp.g
	rp.alphaNext = now + rp.alphaEvery
}

// Feedback handles a CNP: any feedback reaching a DCQCN RP is one.
func (rp *DCQCNReactionPoint) Feedback(now Time, fb Feedback) {
	rp.advanceAlpha(now)
	first := !rp.seenCNP
	rp.seenCNP = true
	if rp.periodicAlpha {
		// HPCC rdma-hw.cc:638-653: the first CNP starts the periods and is
		// not counted in the first; later ones raise alpha at the end of
		// their period.
		if first {
			rp.alphaNext = now + rp.alphaEvery
		} else {
			rp.cnpInPeriod = true
		}
	}
	if rp.decEvery > 0 {
		// The vendors' variant: a cut at the end of each interval of the
		// grid from the first CNP in which a CNP came.
		if !rp.periodicAlpha {
			rp.raiseAlpha(now)
		}
		if first {
			rp.decAnchor = now
		}
		if rp.decAt == Never {
			rp.decAt = rp.decAnchor + ((now-rp.decAnchor)/rp.decEvery+1)*rp.decEvery
		}
		return
	}
	switch {
	case rp.periodicAlpha:
		rp.decrease(now)
	case rp.alphaFirst: // ns3-rdma qbb-net-device.cc:1406-1407
		rp.raiseAlpha(now)
		rp.decrease(now)
	default: // eq. (1) in its order
		rp.decrease(now)
		rp.raiseAlpha(now)
	}
}

// decrease is the cut of eq. (1) with QCN's resets (lines 38-59).
func (rp *DCQCNReactionPoint) decrease(now Time) {
	if rp.clamp || rp.si != 0 || rp.ts != 0 {
		// RT = RC; without clamp_target_rate only after an increase since
		// the last cut (QCN lines 38-41). The byte counter starts over.
		rp.rt = rp.rc
		rp.txLeft = rp.bc
	}
	rp.rc = rp.clampRate(rp.rc * (1 - rp.alpha/2))
	rp.si, rp.ts = 0, 0 // QCN lines 44-45
	rp.timer = now + rp.period
	rp.counting = rp.bc > 0
}

// clampRate keeps a cut rate in [min_rate, line rate].
func (rp *DCQCNReactionPoint) clampRate(r float64) float64 {
	return min(max(r, rp.minRate), rp.c)
}

// Transmit runs the byte counter as a frame leaves: every B bytes is an
// increase event. It costs a comparison when the counter is stopped.
func (rp *DCQCNReactionPoint) Transmit(now Time, bytes int, backlogEmpty bool) bool {
	if !rp.counting {
		return false
	}
	rp.txLeft -= float64(bytes)
	if rp.txLeft > 0 {
		return false
	}
	rp.txLeft = rp.bc
	rp.si++
	rp.selfIncrease()
	return true
}

// Expire runs the rate-increase timer and a due cut. When both are due at
// once the increase, armed earlier, runs first; the cut then restarts the
// timer.
func (rp *DCQCNReactionPoint) Expire(now Time) {
	if now >= rp.timer {
		rp.ts++
		rp.timer = now + rp.period
		rp.selfIncrease()
	}
	if now >= rp.decAt {
		rp.decAt = Never
		rp.advanceAlpha(now) // alpha's update at the same instant comes first (HPCC's 1 ns, rdma-hw.cc:648)
		rp.decrease(now)
	}
}

// selfIncrease is QCN lines 62-95 without randomisation, after a stage
// advanced: fast recovery, additive or hyper increase, then RC = (RT+RC)/2.
func (rp *DCQCNReactionPoint) selfIncrease() {
	var ri float64
	if rp.timerHAI {
		// HPCC rdma-hw.cc:688-697 counts the stage before the event: F
		// events of fast recovery, one of additive, then hyper.
		switch n := max(rp.si, rp.ts); {
		case n > rp.frTh+1:
			ri = rp.rHAI
		case n == rp.frTh+1:
			ri = rp.rAI
		}
	} else if rp.si > rp.frTh || rp.ts > rp.frTh {
		if rp.si > rp.frTh && rp.ts > rp.frTh {
			ri = rp.rHAI * float64(min(rp.si, rp.ts)-rp.frTh) // hyper increase
		} else {
			ri = rp.rAI // additive increase, eq. (4)
		}
	}
	if rp.trr && (rp.si == 1 || rp.ts == 1) && rp.rt > 10*rp.rc {
		rp.rt /= 8 // QCN lines 82-84
	} else {
		rp.rt = min(rp.rt+ri, rp.c)
	}
	rp.rc = min((rp.rc+rp.rt)/2, rp.c) // eqs. (3)-(4)
	if rp.rt >= rp.c && rp.rc >= rp.c*(1-1e-12) {
		// Halving the gap to C may stall a rounding error short of it.
		rp.rc = rp.c
		// Recovered: no increase event could change anything now, so the
		// timer and byte counter stop until the next cut.
		rp.timer = Never
		rp.counting = false
		rp.txLeft = rp.bc
	}
}
