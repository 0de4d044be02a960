package model

import (
	"fmt"
	"slices"
	"strings"

	"qcnlab/algos"
)

// PFC deadlock: on a topology whose routes make a cycle of buffer
// dependencies (each port's frames wait for room in the next port's
// switch, around a loop), PAUSE can hold every port of the cycle at once,
// and then none is ever released: each waits for the next to send. With
// ingress accounting (pfc_ingress.go) a paused link k into switch B waits
// for the frames that came in by it to leave B; if every port of B that
// holds such frames is itself paused, k waits on them. A cycle of such
// waits that holds, every port in it paused with frames queued, for
// PFC.DeadlockAfter stops the run, with the cycle in the summary.

// Deadlock is a PFC deadlock that stopped a run.
type Deadlock struct {
	Ports    []string `json:"ports"`            // the cycle, each waiting on the next
	Classes  []int    `json:"classes"`          // the traffic class paused at each (one class: 0)
	Since    float64  `json:"since_seconds"`    // since when every port of the cycle has been paused
	Detected float64  `json:"detected_seconds"` // when the run stopped
}

func (d *Deadlock) String() string {
	if slices.ContainsFunc(d.Classes, func(c int) bool { return c != 0 }) {
		named := make([]string, len(d.Ports)+1)
		for i, p := range d.Ports {
			named[i] = fmt.Sprintf("%s (class %d)", p, d.Classes[i])
		}
		named[len(d.Ports)] = named[0]
		return fmt.Sprintf("PFC deadlock: %s paused since %.6f s, stopped at %.6f s", strings.Join(named, " -> "), d.Since, d.Detected)
	}
	return fmt.Sprintf("PFC deadlock: %s (class 0) paused since %.6f s, stopped at %.6f s",
		strings.Join(append(d.Ports, d.Ports[0]), " -> "), d.Since, d.Detected)
}

// armDeadlockCheck schedules the check of held port k once it has been
// held for DeadlockAfter.
func (s *Packet) armDeadlockCheck(k int32) {
	st := s.ports[k].pfc
	st.holdGen++
	if after := s.cfg.PFC.DeadlockAfter; after > 0 && s.ingress != nil {
		s.agenda.schedule(event{kind: evDeadlockCheck, at: s.now + after, port: k, gen: st.holdGen})
	}
}

// deadlockCheck runs port k's check: if it is still held, since the hold
// that armed the check, look for a cycle of waits through it.
func (s *Packet) deadlockCheck(k int32, gen uint32) {
	p := s.ports[k]
	if gen != p.pfc.holdGen || !p.held && (p.cls == nil || p.cls.held == 0) {
		return
	}
	s.departAll()
	if cycle := s.waitCycle(k); cycle != nil {
		d := &Deadlock{Detected: s.now.Seconds()}
		since := algos.Time(0)
		for _, j := range cycle {
			d.Ports = append(d.Ports, s.ports[j].name)
			d.Classes = append(d.Classes, s.ports[j].stuckClass())
			since = max(since, s.ports[j].pfc.heldSince)
		}
		d.Since = since.Seconds()
		s.deadlock = d
		return
	}
	s.agenda.schedule(event{kind: evDeadlockCheck, at: s.now + s.cfg.PFC.DeadlockAfter, port: k, gen: gen})
}

// departAll applies every port's departures up to now.
func (s *Packet) departAll() {
	for j, p := range s.ports {
		s.events += uint64(s.serve(p, int32(j), s.now))
	}
}

// stuck reports whether port j has been held, with frames queued behind
// the one on the wire, for at least DeadlockAfter.
func (s *Packet) stuck(j int32) bool {
	p := s.ports[j]
	if p.cls != nil { // a class held with frames waiting
		return p.stuckClass() >= 0 && s.now-p.pfc.heldSince >= s.cfg.PFC.DeadlockAfter
	}
	return p.held && p.queued > 0 && s.now-p.pfc.heldSince >= s.cfg.PFC.DeadlockAfter
}

// stuckClass is the first class of port p held with frames waiting, -1
// if none; 0 for a port with one class.
func (p *port) stuckClass() int {
	if p.cls == nil {
		return 0
	}
	for c := range p.cls.q {
		if p.cls.held&(1<<c) != 0 && p.cls.q[c].wait.n > 0 {
			return c
		}
	}
	return -1
}

// holdsFrom reports whether port p holds frames that came in by link k.
func (s *Packet) holdsFrom(p *port, k int32) bool {
	C := s.classes
	came := func(q *ring[int32]) bool {
		for i := 0; i < q.len(); i++ {
			if *q.at(i)/C == k {
				return true
			}
		}
		return false
	}
	if came(&p.inq) {
		return true
	}
	if p.cls != nil {
		for c := range p.cls.q {
			if came(&p.cls.q[c].inq) {
				return true
			}
		}
	}
	return false
}

// waits lists the ports link k waits on: the ports of its next switch
// that hold frames that came in by it, if every one of them is stuck;
// none if one of them can still send (the link will be released).
func (s *Packet) waits(k int32) []int32 {
	var out []int32
	node := s.ports[k].to
	if int(node) >= len(s.switchPorts) {
		return nil
	}
	for _, j := range s.switchPorts[node] {
		p := s.ports[j]
		if !s.holdsFrom(p, k) {
			continue
		}
		if !s.stuck(j) {
			return nil
		}
		out = append(out, j)
	}
	return out
}

// waitCycle finds a cycle of stuck ports through k, each waiting on the
// next, or nil.
func (s *Packet) waitCycle(k int32) []int32 {
	if !s.stuck(k) {
		return nil
	}
	on := map[int32]int{} // port -> its index on the path
	var path []int32
	seen := map[int32]bool{}
	var walk func(j int32) []int32
	walk = func(j int32) []int32 {
		if i, ok := on[j]; ok {
			return append([]int32(nil), path[i:]...)
		}
		if seen[j] {
			return nil
		}
		seen[j] = true
		on[j] = len(path)
		path = append(path, j)
		for _, n := range s.waits(j) {
			if c := walk(n); c != nil {
				return c
			}
		}
		path = path[:len(path)-1]
		delete(on, j)
		return nil
	}
	return walk(k)
}
