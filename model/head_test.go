package model

import (
	"testing"

	"qcnlab/algos"
)

// A port keeps its queue's front's departure and flags (headDone,
// headFlags) for the hot path; they must be the front's at every step,
// whatever changed it: a departure, an arrival at an empty queue, a pause
// and its release (PFC, per port and per class), a capacity change, a
// class's scheduler, a control frame.
func TestPortHeadIsTheQueuesFront(t *testing.T) {
	for name, cfg := range entryWriterCases(t) {
		sim, err := NewPacket(cfg)
		if err != nil {
			t.Fatal(name, err)
		}
		checked := 0
		for at := algos.Time(0); !sim.Done(); {
			at += 3 * algos.Microsecond
			sim.Advance(at)
			for j, p := range sim.ports {
				done, flags := algos.Never, p.headFlags
				if p.queue.n > 0 {
					done, flags = p.queue.front().done, p.queue.front().flags
					checked++
				}
				if p.headDone != done || p.headDone != algos.Never && p.headFlags != flags {
					t.Fatalf("%s at %v: port %d caches front %v (flags %b), its queue's is %v (%b)",
						name, sim.Now(), j, p.headDone, p.headFlags, done, flags)
				}
			}
		}
		if checked == 0 {
			t.Errorf("%s: no frame queued at any step", name)
		}
	}
}
