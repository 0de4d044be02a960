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
	pfc := overload(t, 4)
	pfc.PFC = &PFC{Xoff: -1, Xon: -1}
	pfc.Duration = 4 * algos.Millisecond

	changes := baseConfig(noneScheme(t), 3, 10e9)
	changes.Params = algos.Values{}
	changes.Duration = 4 * algos.Millisecond
	changes.Buffer = 1e6
	changes.PFC = &PFC{Xoff: -1, Xon: -1}
	realClocks(&changes)
	changes.Changes = []CapacityChange{{At: 1 * algos.Millisecond, Capacity: 2e9}, {At: 2*algos.Millisecond + 300, Capacity: 10e9}}

	control := dcqcnFabric(t, append(Permutation(16, 1), Flow{From: 4, To: 0, Class: 1}, Flow{From: 6, To: 0, Class: 1}))
	realClocks(&control)
	control.Classes = &Classes{N: 2, Weights: []int{1, 1}}
	control.PFC = &PFC{Xoff: -1, Xon: -1, Ingress: true, Dynamic: true, Alpha: 0.125, Lossless: 1 << 1}
	control.Shared = &SharedBuffer{Reserve: 1500, Alpha: 1}
	control.ControlFrames = true
	control.Duration = 4 * algos.Millisecond

	// A change at the very time a frame starts service re-times it.
	probe, err := NewPacket(changes)
	if err != nil {
		t.Fatal(err)
	}
	probe.Advance(500 * algos.Microsecond)
	if probe.ports[0].queue.n < 2 {
		t.Fatal("no queue to re-time")
	}
	atStart := changes
	atStart.Changes = []CapacityChange{{At: probe.ports[0].headDone, Capacity: 2e9}}

	for name, cfg := range map[string]Config{
		"change as a frame starts": atStart,
		"PFC":                      pfc,
		"capacity changes":         changes,
		"real switch":              realSwitchConfig(t, 4*algos.Millisecond),
		"shared classes":           classesSwitchConfig(t, 4*algos.Millisecond),
		"control frames and PFC":   control,
	} {
		sim, err := NewPacket(cfg)
		if err != nil {
			t.Fatal(name, err)
		}
		checked := 0
		for at := algos.Time(0); !sim.Done(); {
			at += 3 * algos.Microsecond
			sim.Advance(at)
			for j, p := range sim.ports {
				if p.queue.n == 0 {
					if p.headDone != algos.Never {
						t.Fatalf("%s at %v: port %d has no frame, its head departs at %v", name, sim.Now(), j, p.headDone)
					}
					continue
				}
				checked++
				f := p.queue.front()
				if p.headDone == algos.Never || p.headDone == pendingDone && !p.held ||
					p.headFlags != f.flags || p.headBytes != f.bytes {
					t.Fatalf("%s at %v: port %d (held %v) caches front %v (flags %b, %d B), its queue's is flags %b, %d B",
						name, sim.Now(), j, p.held, p.headDone, p.headFlags, p.headBytes, f.flags, f.bytes)
				}
			}
		}
		if checked == 0 {
			t.Errorf("%s: no frame queued at any step", name)
		}
	}
}
