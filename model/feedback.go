package model

import (
	"math/rand/v2"

	"qcnlab/algos"
)

// feedbackPath is what the time-varying feedback latency needs per source:
// its random stream and, per port of its path, when the last feedback
// frame it was sent arrives.
type feedbackPath struct {
	rand *rand.Rand
	last []algos.Time
}

// loopStats follows the loop delays a source's feedback takes: over the
// whole run, and since the last boundary (for the phases).
type loopStats struct {
	min, max       algos.Time
	segMin, segMax algos.Time
	segments       [][2]algos.Time // min and max of each stretch between boundaries
}

func newLoopStats() loopStats {
	return loopStats{min: algos.Never, max: -1, segMin: algos.Never, segMax: -1}
}

func (l *loopStats) observe(d algos.Time) {
	l.min, l.max = min(l.min, d), max(l.max, d)
	l.segMin, l.segMax = min(l.segMin, d), max(l.segMax, d)
}

func (l *loopStats) boundary() {
	l.segments = append(l.segments, [2]algos.Time{l.segMin, l.segMax})
	l.segMin, l.segMax = algos.Never, -1
}

// sendFeedback sends src the feedback frame s.fb that the port at position
// pos of its path generated now. The switch takes network.feedback_latency
// to generate it, drawn per frame. Feedback frames from one port to one
// source never overtake each other: they leave the switch in the order they
// were generated and then share one reverse path, and frames on a link stay
// in order (a FIFO per source and port, the physical answer). A frame whose
// draw would overtake the one before waits behind it, so no loop is longer
// than the longest latency allows.
func (s *Packet) sendFeedback(src *source, pos int32) {
	src.feedback[pos].push(s.fb)
	at := s.now + src.fbDelay[pos] + s.cfg.FeedbackLatency.Lo
	if s.fbPaths != nil {
		fp := &s.fbPaths[src.id]
		at = max(s.now+src.fbDelay[pos]+s.cfg.FeedbackLatency.Draw(fp.rand), fp.last[pos])
		fp.last[pos] = at
	}
	// The loop: forward propagation to this port, then back.
	s.loops[src.id].observe(src.fwd - src.bwd + src.fbDelay[pos] + at - s.now)
	// For feedback, gen names the port it comes from.
	s.rare.push(event{at: at, src: int32(src.id), gen: uint32(pos), kind: evFeedback})
}
