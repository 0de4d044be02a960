package model

import (
	"math/rand/v2"

	"qcnlab/algos"
)

// message is a feedback frame or a CNP in flight back to a rate limiter.
// Messages are never queued or dropped (the seeds' assumption); their
// payloads wait in a pool, and the agenda's event names the slot.
type message struct {
	fb    algos.Feedback
	epoch uint32 // the limiter's: a message to a flow that has ended is dropped on arrival
	// A control frame's (control.go): the ports back to its flow's host,
	// from the one at first, what its data frame crossed forward and when
	// it was generated (for the loop delay), and what it carries.
	back  []int32
	first int32
	prop  algos.Time
	born  algos.Time
	kind  eventKind
	ack   bool // a transport's ACK or NACK, which waits in its limiter's acks (transport.go)
}

// feedbackPath is what the time-varying feedback latency needs per rate
// limiter: its random stream and, per port of its route (and its receiver,
// last), when the last message it was sent from there arrives.
type feedbackPath struct {
	rand *rand.Rand
	last []algos.Time
}

// loopStats follows the loop delays a limiter's feedback takes: over the
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

// sendFeedback sends fb back to the rate limiter of frame f, from where f
// is now: a congestion point's port (kind evFeedback) or the receiver's
// notification point (evNotification). It crosses the reverse of the path
// f took: the propagation f crossed, the host's link counted with its
// backward delay. The switch (or receiver) takes network.feedback_latency
// to generate it, drawn per message. Messages from one place to one flow
// never overtake each other: they leave in the order they were generated
// and then share one reverse path, and frames on a link stay in order (the
// physical answer). A message whose draw would overtake the one before
// waits behind it, so no loop is longer than the longest latency allows.
//
// in is the link f came in by (enter), atReceiver at its receiver: where
// its propagation so far is found (propOf).
func (s *Packet) sendFeedback(f *frame, in int32, fb algos.Feedback, kind eventKind) {
	l := s.lims[f.lim]
	if l.rp == nil {
		// The frame was its flow's last and its loss or delivery ended the
		// flow (freeLimiter): nothing is left to tell.
		return
	}
	prop := s.propOf(l, f, in)
	if l.back != nil {
		s.sendControl(f, l, fb, kind, prop)
		return
	}
	h := &s.hosts[l.host]
	back := prop - h.fwd + h.bwd // links between switches have one delay both ways
	// A CNP due at the end of its window leaves the receiver then.
	at := s.now + fb.Hold + back + s.cfg.FeedbackLatency.Lo
	if s.fbPaths != nil {
		from := int(f.hop)
		if kind == evNotification {
			from = int(l.hops)
		}
		fp := &s.fbPaths[f.lim]
		at = max(s.now+fb.Hold+back+s.cfg.FeedbackLatency.Draw(fp.rand), fp.last[from])
		fp.last[from] = at
	}
	// The loop: forward propagation to here, then back.
	s.loops[f.lim].observe(prop + at - s.now - fb.Hold)
	msg := s.messages.add(message{fb: fb, epoch: l.epoch})
	s.agenda.schedule(event{kind: kind, at: at, limiter: f.lim, msg: msg})
}

// feedbackArrives hands limiter i's reaction point the message msg, a
// congestion point's feedback or a notification point's CNP.
func (s *Packet) feedbackArrives(i, msg int32, kind eventKind) {
	m := s.messages.take(msg)
	l := s.lims[i]
	if m.epoch != l.epoch {
		return // its flow has ended
	}
	if m.back != nil { // a control frame: the loop is known as it lands
		s.loops[i].observe(m.prop + s.now - m.born - m.fb.Hold)
	}
	h := &s.hosts[l.host]
	s.catchUp(h, s.now)
	if kind == evNotification {
		l.cnps++
	} else {
		l.feedbacks++
	}
	s.events++
	l.rp.Feedback(s.now, m.fb)
	s.readRP(l, s.now)
	s.syncTimer(l)
	s.catchUp(h, s.now)
	s.syncTimers(h)
	s.syncArrival(h)
}
