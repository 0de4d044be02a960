package tui

import (
	"qcnlab/algos"
)

// session is the set of simulations on screen: the active algorithm, or in
// compare mode one per algorithm of the bar, all on the same scenario and
// seed and driven to the same simulated time.
type session struct {
	names   []string
	drivers []*driver
	snaps   []*snapshot // as of the last refresh
}

// start starts every run's goroutine (buildSession built them).
func (s *session) start() {
	for _, d := range s.drivers {
		d.start()
	}
}

// setTarget moves every run's simulated-time target.
func (s *session) setTarget(t algos.Time) {
	for _, d := range s.drivers {
		d.setTarget(t)
	}
}

// refresh picks up the latest snapshots.
func (s *session) refresh() {
	s.snaps = s.snaps[:0]
	for _, d := range s.drivers {
		s.snaps = append(s.snaps, d.snapshot())
	}
}

// stop ends every run's goroutine and waits for them.
func (s *session) stop() {
	for _, d := range s.drivers {
		d.stop()
	}
}

// reached is the simulated time every run has reached.
func (s *session) reached() algos.Time {
	t := algos.Never
	for _, sn := range s.snaps {
		t = min(t, sn.now)
	}
	if t == algos.Never {
		return 0
	}
	return t
}

// ahead is the simulated time the furthest run has reached.
func (s *session) ahead() algos.Time {
	var t algos.Time
	for _, sn := range s.snaps {
		t = max(t, sn.now)
	}
	return t
}

// done reports whether every run has finished.
func (s *session) done() bool {
	for _, sn := range s.snaps {
		if !sn.done {
			return false
		}
	}
	return len(s.snaps) > 0
}

// err is the first failed run's error.
func (s *session) err() error {
	for _, sn := range s.snaps {
		if sn.err != nil {
			return sn.err
		}
	}
	return nil
}

// events is the number of events all runs have handled.
func (s *session) events() uint64 {
	var n uint64
	for _, sn := range s.snaps {
		n += sn.events
	}
	return n
}
