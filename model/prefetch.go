package model

import (
	"unsafe"

	"qcnlab/model/prefetch"
)

// How far ahead, in the agenda's front, each stage of prefetchAhead looks.
// Measured on a k = 24 fat-tree (alternating pairs): 4, 2, 1 and 10, 6, 3
// did alike; the stages need only be apart, each reading what the one
// before asked for.
const (
	aheadStream = 4 // the stream's owner: a port's link, a host
	aheadFrame  = 2 // the frame at its front
	aheadNext   = 1 // the port that frame enters, and its flow
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
// only what an earlier stage asked for, an event or two before. Only a
// radix heap or a calendar has a front to look along (agenda.ahead); the
// reads change nothing, and a key gone stale since costs only a wasted
// request. A calendar's front is a whole span's keys, hundreds on a large
// fabric: prefetching along it pays from some thousands of streams
// (aheadMin) on.
func (s *Packet) prefetchAhead() {
	a := &s.agenda
	if slot, ok := a.streams.ahead(aheadStream); ok {
		prefetch.Line(unsafe.Pointer(&a.streams.keys[slot]))
		if p := s.linkOwner(slot); p != nil {
			prefetchLines(unsafe.Pointer(p), 2) // its queue's and link's lines
		} else if h := s.hostOwner(slot); h != nil {
			prefetchLines(unsafe.Pointer(h), hostLines)
		}
	}
	if slot, ok := a.streams.ahead(aheadFrame); ok {
		if f := s.streamFront(slot); f != nil {
			prefetch.Line(unsafe.Pointer(f))
		}
	}
	if slot, ok := a.streams.ahead(aheadNext); ok {
		f := s.streamFront(slot)
		if f == nil || int(f.lim) >= len(s.lims) {
			return
		}
		l := s.lims[f.lim]
		prefetchLines(unsafe.Pointer(l), limiterLines)
		next := int(f.route) // a link's frame: the port it enters
		if s.hostOwner(slot) != nil {
			if l.route == nil {
				return
			}
			next = int(l.route[0])
		}
		if next < len(s.portStore) {
			prefetchLines(unsafe.Pointer(&s.portStore[next]), portLines)
		}
	}
}

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
	var r *ring[frame]
	if p := s.linkOwner(slot); p != nil {
		r = &p.link
	} else if h := s.hostOwner(slot); h != nil {
		r = &h.inflight
	}
	if r == nil || r.n == 0 {
		return nil
	}
	return r.front()
}

// prefetchLines asks for n cache lines from p on.
func prefetchLines(p unsafe.Pointer, n int) {
	for i := range n {
		prefetch.Line(unsafe.Add(p, i*cacheLine))
	}
}
