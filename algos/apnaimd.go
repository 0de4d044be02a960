package algos

import (
	"math"
	"slices"
)

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
		Name:      "ap-n-aimd",
		QueueBand: SetPoint("q_eq"),
		Display:   "AP-N-AIMD",
		Ref:       "000 section III-B",
		Summary:   "N-AIMD with the Averaging Principle: T/2 packets after each feedback the rate moves halfway back to where it was",
		Params:    APNAIMDParams(),
		NewCP:     func(env CPEnv, v Values) CongestionPoint { return NewNAIMDCongestionPoint(env, v) },
		NewRP:     func(env RPEnv, v Values) ReactionPoint { return NewAPNAIMDReactionPoint(env, v) },
	})
}

// The values of AP-N-AIMD's early_feedback parameter: what a feedback that
// arrives before the averaging point does to the pending averaging.
const (
	EarlyFeedbackDrop  = 0 // the averaging is cancelled (section III-B's text)
	EarlyFeedbackApply = 1 // the averaging is done first, then the feedback
)

// APNAIMDParams are N-AIMD's parameters but fb_filter (the AP is what that
// filter stands for), and the averaging point.
func APNAIMDParams() []Param {
	ps := slices.DeleteFunc(NAIMDParams(), func(p Param) bool { return p.Key == "fb_filter" })
	return append(ps,
		Param{Key: "averaging_packets", Kind: Count, Min: 1,
			Doc: "T/2, packets sent after a feedback when CR = (CR + TR)/2: half of T = 1/sample_probability (50)",
			Default: func(_ Network, v Values) float64 {
				return math.Max(1, math.Round(0.5/v["sample_probability"]))
			}},
		Param{Key: "early_feedback", Kind: Choice, Choices: []string{"drop", "apply"}, Default: Fixed(EarlyFeedbackDrop),
			Doc: "a feedback before T/2 packets: drop cancels the pending averaging (section III-B's text); apply averages first, then applies it"})
}

// APNAIMDReactionPoint is the AP-N-AIMD source.
type APNAIMDReactionPoint struct {
	NAIMDReactionPoint
	half    int     // T/2
	trate   float64 // TR: CR just before the last feedback
	count   int     // packets sent since the last feedback
	pending bool    // averaging not yet applied since the last feedback
	apply   bool    // early_feedback = "apply"
}

// NewAPNAIMDReactionPoint builds an RP from resolved AP-N-AIMD values.
// Before the first feedback there is nothing to average.
func NewAPNAIMDReactionPoint(env RPEnv, v Values) *APNAIMDReactionPoint {
	rp := &APNAIMDReactionPoint{NAIMDReactionPoint: *NewNAIMDReactionPoint(env, v), half: int(v["averaging_packets"]),
		apply: v["early_feedback"] == EarlyFeedbackApply}
	rp.trate = rp.rate
	return rp
}

// TargetRate is TR, the rate just before the last feedback.
func (rp *APNAIMDReactionPoint) TargetRate() float64 { return rp.trate }

// Feedback sets TR = CR, applies eq. (14) and resets the packet counter.
// An averaging still pending from the previous feedback is dropped ("the
// counter is reset and no averaging takes place"), or with early_feedback =
// "apply" done first, so that every feedback is averaged once.
func (rp *APNAIMDReactionPoint) Feedback(now Time, fb Feedback) {
	if rp.pending && rp.apply {
		rp.rate = (rp.rate + rp.trate) / 2
	}
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
