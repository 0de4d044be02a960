package model

import (
	"testing"

	"qcnlab/algos"
)

// A port keeps its queue's front's departure, flags and size (headDone,
// headFlags, headBytes) for the hot path; the departure is kept nowhere
// else. They must be the front's at every step, whatever changed it: a
// departure, an arrival at an empty queue, a pause and its release (PFC,
// per port and per class), a capacity change, a class's scheduler, a
// control frame. The front waits (pendingDone) only at a paused port.
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
				if p.queued == 0 {
					if p.headDone != algos.Never {
						t.Fatalf("%s at %v: port %d has no frame, its head departs at %v", name, sim.Now(), j, p.headDone)
					}
					continue
				}
				checked++
				flags, bytes := p.headFlags, uint16(ControlBytes) // a control frame landing here has no record
				if p.headFlags&(queuedCtl|queuedExit) != queuedCtl|queuedExit {
					r, exit := p.front()
					flags, bytes = queueFlags(r, exit), r.bytes
				}
				if p.headDone == algos.Never || p.headDone == pendingDone && !p.held ||
					p.headFlags != flags || p.headBytes != bytes {
					t.Fatalf("%s at %v: port %d (held %v) caches front %v (flags %b, %d B), its queue's is flags %b, %d B",
						name, sim.Now(), j, p.held, p.headDone, p.headFlags, p.headBytes, flags, bytes)
				}
			}
		}
		if checked == 0 {
			t.Errorf("%s: no frame queued at any step", name)
		}
	}
}
