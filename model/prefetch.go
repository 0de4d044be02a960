package model

import (
	"unsafe"

	"qcnlab/model/prefetch"
)

// How far ahead, in the agenda's front, each stage of prefetchAhead looks.
// Measured on a k = 24 fat-tree (alternating pairs): 4, 2, 1 and 10, 6, 3
// did alike; the stages need only be apart, each reading what the one
// before asked for. From deepMin hosts and ports on, a fourth stage asks
// for what the lines of the port a frame enters name, once they are in
// (prefetchEntry): the others look further ahead.
var (
	aheadStages = prefetchStages{owner: 4, front: 2, next: 1}
	deepStages  = prefetchStages{owner: 6, front: 4, next: 2, entry: 1}
)

// aheadMin is the most hosts and ports whose events are not prefetched:
// with a calendar's front to look along, prefetching took the CPU time a
// hop to 1.09 (1.00-1.20) at k = 12 (2,592 hosts and ports, its state
// mostly in the cache) and to 0.85 (0.77-1.02) at k = 16 (6,144), eight
// pairs each. Receivers' streams are not counted: they add little state,
// and a k = 12 fabric with receivers followed (4,752 streams) ran in 0.89
// (0.82-0.94) of the time without prefetching (six pairs,
// r17-review/n40.toml for 20 ms).
const aheadMin = 4096

// deepMin is the fewest hosts and ports whose events are prefetched in
// four stages (deepStages): at k = 24 (20,736) they took a hop's time to
// 0.81 of three stages' (seven rounds alternating the builds, 2 ms); at
// k = 20 (12,000) and 22 (15,972) to 0.99 and 0.98; at k = 16 (6,144),
// whose state the caches mostly hold, to 1.04.
const deepMin = 12000

// Lines of a record that the hops read: a port's hot lines (port), a
// limiter's first (limiter.go), a host's.
const (
	cacheLine    = 64
	portLines    = 4
	limiterLines = 3
	hostLines    = 2
)

// prefetchAhead asks the memory for what the streams' events a few keys
// ahead in the agenda will read first: by the time their turn comes, the
// lines are on their way. On a fabric larger than the caches (k = 24:
// 70 MB of state read at random) a hop otherwise waits on some twenty
// misses, one after another, for each read names the next (the port,
// its link's front frame, the port that frame enters). Each stage reads
// only what an earlier stage asked for, an event or two before (but for
// one line, prefetchEntry's). Only a radix heap or a calendar has a front
// to look along (agenda.ahead); the reads change nothing, and a key gone
// stale since costs only a wasted request. A calendar's front is a whole span's keys, hundreds on a large
// fabric: prefetching along it pays from some thousands of streams
// (aheadMin) on. The stages' distances are the network's (s.stages:
// three stages, or from deepMin on four, further ahead).
func (s *Packet) prefetchAhead() {
	a, st := &s.agenda, &s.stages
	// The stream's owner: the agenda's key, a port's queue's and link's
	// lines, or a host's.
	if slot, ok := a.streams.ahead(st.owner); ok {
		prefetch.Line(unsafe.Pointer(&a.streams.keys[slot]))
		if p := s.linkOwner(slot); p != nil {
			prefetch.Lines(unsafe.Pointer(p), 2)
		} else if h := s.hostOwner(slot); h != nil {
			prefetch.Lines(unsafe.Pointer(h), hostLines)
		}
	}
	// The frame at the stream's front, which the owner's lines name, and
	// the slot behind it: the next frame's record, whose arrival keys the
	// stream once the front's event is over (syncLinkOf), or, with one
	// frame on its way, where the next is written (at a host's event, the
	// frame it releases). On the next line half the time, and asked for
	// every time: a test of its line or of the count is a branch the
	// predictor loses (testing its line took 1.02 of the time; testing
	// the count, 1.04: fourteen and three sets of sixteen pairs at k = 24).
	if slot, ok := a.streams.ahead(st.front); ok {
		if r := s.streamRing(slot); r != nil && r.n > 0 {
			prefetch.Line(unsafe.Pointer(r.front()))
			prefetch.Line(unsafe.Pointer(r.at(1)))
		}
	}
	// Its flow's limiter and the lines of the port it enters, which the
	// frame names.
	if slot, ok := a.streams.ahead(st.next); ok {
		if f := s.streamFront(slot); f != nil && int(f.lim) < len(s.lims) {
			l := s.lims[f.lim]
			if s.hostOwner(slot) != nil {
				prefetch.Lines(unsafe.Pointer(l), limiterLines)
			} else {
				prefetch.Line(unsafe.Pointer(l)) // a hop reads its first line only
			}
			if next := s.entered(slot, f, l); next >= 0 {
				prefetch.Lines(unsafe.Pointer(&s.portStore[next]), portLines)
			}
		}
	}
	if st.entry > 0 {
		s.prefetchEntry(st.entry)
	}
}

// prefetchStages is how far ahead, in the agenda's front, each of
// prefetchAhead's stages looks; entry 0 leaves the last one out.
type prefetchStages struct{ owner, front, next, entry int }

// prefetchEntry is prefetchAhead's fourth stage, on a network of deepMin
// hosts and ports or more: it asks for what the stream d keys ahead reads
// behind the lines the third stage asked for, which name it. Of the port
// its front frame enters: the record its queue starts next as it serves,
// its link ring's tail, its congestion point's state and, where frames
// leave the network, that ring's tail and, with frames queued there, the
// record that leaves and the delivery count of the entering frame's flow
// (the leaving one's where the port serves one flow, as a permutation's
// do); at a host, the reaction point its limiter releases by. The ring of the frames that leave is on the port's fifth
// line, which no stage asked for: reading it here waits, and measured
// cheaper than leaving the record to the hop (without it 1.08 of the time,
// six rounds at k = 24), and than asking for a fifth line of the ports
// where frames leave in the third stage (1.05).
func (s *Packet) prefetchEntry(d int) {
	slot, ok := s.agenda.streams.ahead(d)
	if !ok {
		return
	}
	f := s.streamFront(slot)
	if f == nil || int(f.lim) >= len(s.lims) {
		return
	}
	if h := s.hostOwner(slot); h != nil && h.solo != nil {
		prefetch.Lines(ifaceData(unsafe.Pointer(&h.solo.rp)), 2)
	}
	next := s.entered(slot, f, s.lims[f.lim])
	if next < 0 {
		return
	}
	q := &s.portStore[next]
	prefetch.Line(ifaceData(unsafe.Pointer(&q.cp)))
	if r := &q.link; len(r.buf) > 0 {
		mask := len(r.buf) - 1
		prefetch.Line(unsafe.Pointer(&r.buf[(r.head+r.n)&mask])) // its tail, where the frame is recorded
		// The record it serves next, asked for whether or not one is
		// queued (without one, a slot at or past the tail): a test of the
		// count is a branch the predictor loses.
		prefetch.Line(unsafe.Pointer(&r.buf[(r.head+r.n-int(q.onward)+1)&mask]))
	}
	if r := &q.exits; len(r.buf) > 0 {
		mask := len(r.buf) - 1
		prefetch.Line(unsafe.Pointer(&r.buf[(r.head+r.n)&mask])) // its tail, where the frame is recorded
		if q.exiting > 0 {
			prefetch.Line(unsafe.Pointer(&r.buf[(r.head+r.n-q.exiting)&mask]))
			if int(f.lim) < len(s.delivered) {
				prefetch.Line(unsafe.Pointer(&s.delivered[f.lim]))
			}
		}
	}
}

// entered is the port that frame f, of limiter l, at the front of stream
// slot, enters as it arrives: a link's frame, the port its record names; a
// host's, its route's first. It is -1 if it is not known (sprayed from a
// host, or out of range: a stale key's frame).
func (s *Packet) entered(slot int, f *frame, l *limiter) int {
	next := int(f.route)
	if s.hostOwner(slot) != nil {
		if l.route == nil {
			return -1
		}
		next = int(l.route[0])
	}
	if next >= len(s.portStore) {
		return -1
	}
	return next
}

// ifaceData is the pointer to the value an interface at p holds, the
// second of its two words (TestIfaceDataIsTheValue).
func ifaceData(p unsafe.Pointer) unsafe.Pointer { return (*[2]unsafe.Pointer)(p)[1] }

// linkOwner is the port whose link stream slot is, nil if it is not a
// link's.
func (s *Packet) linkOwner(slot int) *port {
	if p := slot - int(s.agenda.hosts); p >= 0 && p < len(s.portStore) {
		return &s.portStore[p]
	}
	return nil
}

// hostOwner is the host whose stream slot is, nil if it is not a host's.
func (s *Packet) hostOwner(slot int) *host {
	if slot < len(s.hosts) {
		return &s.hosts[slot]
	}
	return nil
}

// streamFront is the frame at the front of a link's or a host's stream,
// nil if there is none.
func (s *Packet) streamFront(slot int) *frame {
	if r := s.streamRing(slot); r != nil && r.n > 0 {
		return r.front()
	}
	return nil
}

// streamRing is the ring of the frames of a link's or a host's stream,
// nil if slot is neither's.
func (s *Packet) streamRing(slot int) *ring[frame] {
	if p := s.linkOwner(slot); p != nil {
		return &p.link
	} else if h := s.hostOwner(slot); h != nil {
		return &h.inflight
	}
	return nil
}
