package algos

import "math"

// AP-N-AIMD, from Alizadeh et al. (seed 000) section III-B: N-AIMD with the
// Averaging Principle at the source. "We use a packet counter at the source
// which is reset every time a feedback message is received, and which is
// incremented for every transmitted packet. Averaging is applied when the
// count reaches 50, after which the CR is unchanged until the next feedback
// message is received. If the source receives a feedback message before the
// packet counter has reached 50, the counter is reset and no averaging takes
// place." Averaging sets CR = (CR + TR)/2, TR being "the value of the CR
// before the receipt of the last feedback message". The switch is N-AIMD's.

func init() {
	Register(&Scheme{
		Name:    "ap-n-aimd",
		Display: "AP-N-AIMD",
		Seed:    "000 section III-B",
		Summary: "N-AIMD with the Averaging Principle: T/2 packets after each feedback the rate moves halfway back to where it was",
		Params:  APNAIMDParams(),
		NewCP:   func(env CPEnv, v Values) CongestionPoint { return NewNAIMDCongestionPoint(env, v) },
		NewRP:   func(env RPEnv, v Values) ReactionPoint { return NewAPNAIMDReactionPoint(env, v) },
	})
}

// APNAIMDParams are N-AIMD's parameters and the averaging point.
func APNAIMDParams() []Param {
	return append(NAIMDParams(), Param{Key: "averaging_packets", Kind: Count, Min: 1,
		Doc: "T/2, packets sent after a feedback when CR = (CR + TR)/2: half of T = 1/sample_probability (50)",
		Default: func(_ Network, v Values) float64 {
			return math.Max(1, math.Round(0.5/v["sample_probability"]))
		}})
}

// APNAIMDReactionPoint is the AP-N-AIMD source.
type APNAIMDReactionPoint struct {
	NAIMDReactionPoint
	half    int     // T/2
	trate   float64 // TR: CR just before the last feedback
	count   int     // packets sent since the last feedback
	pending bool    // averaging not yet applied since the last feedback
}

// NewAPNAIMDReactionPoint builds an RP from resolved AP-N-AIMD values.
// Before the first feedback there is nothing to average.
func NewAPNAIMDReactionPoint(env RPEnv, v Values) *APNAIMDReactionPoint {
	rp := &APNAIMDReactionPoint{NAIMDReactionPoint: *NewNAIMDReactionPoint(env, v), half: int(v["averaging_packets"])}
	rp.trate = rp.rate
	return rp
}

// TargetRate is TR, the rate just before the last feedback.
func (rp *APNAIMDReactionPoint) TargetRate() float64 { return rp.trate }

// Feedback sets TR = CR, applies eq. (14) and resets the packet counter;
// an averaging still pending from the previous feedback is dropped.
func (rp *APNAIMDReactionPoint) Feedback(now Time, fb Feedback) {
	rp.trate = rp.rate
	rp.NAIMDReactionPoint.Feedback(now, fb)
	rp.count = 0
	rp.pending = true
}

// Transmit counts packets since the last feedback and, at T/2 of them,
// averages once: CR = (CR + TR)/2.
func (rp *APNAIMDReactionPoint) Transmit(now Time, bytes int, backlogEmpty bool) bool {
	if !rp.pending {
		return false
	}
	rp.count++
	if rp.count < rp.half {
		return false
	}
	rp.pending = false
	rp.rate = (rp.rate + rp.trate) / 2
	return true
}
