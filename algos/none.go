package algos

// None is no congestion control: the congestion point never answers and the
// reaction point sends at its line rate from start to end. It is the
// baseline that seed 000 section II argues against: with link-level PAUSE
// (IEEE 802.1Qbb) alone a congested switch can only pause its upstream
// links, and congestion spreads to flows that never cross it.

func init() {
	Register(&Scheme{
		Name:         "none",
		Display:      "none",
		Ref:          "000 section II (the baseline without L2 congestion control)",
		Summary:      "no congestion control: no feedback, every source sends at its line rate; only drops or PFC pauses limit it",
		Uncontrolled: true,
		NewCP:        func(CPEnv, Values) CongestionPoint { return noneCP{} },
		NewRP:        func(env RPEnv, _ Values) ReactionPoint { return noneRP{rate: env.LineRate} },
	})
}

type noneCP struct{}

func (noneCP) Arrive(Time, *Frame, int, *Feedback) bool { return false }

type noneRP struct{ rate float64 }

func (r noneRP) Rate() float64               { return r.rate }
func (noneRP) CPID() int                     { return 0 }
func (noneRP) Feedback(Time, Feedback)       {}
func (noneRP) Transmit(Time, int, bool) bool { return false }
func (noneRP) Timer() Time                   { return Never }
func (noneRP) Expire(Time)                   {}
