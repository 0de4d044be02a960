package model

import (
	"fmt"
	"testing"

	"qcnlab/algos"
)

// countDepartures makes s count what leaves each port as it leaves
// (Packet.counted), as the ports did before they derived it: from the
// start of the run, before any frame moved. Only a build with -tags
// countdepartures counts them (countingDepartures).
func countDepartures(s *Packet) {
	s.counted = &departures{frames: make([]int64, len(s.ports)), bytes: make([]int64, len(s.ports))}
}

// checkCounters reports the first port whose derived counters of what
// left (framesLeft, sent) are not what was counted: with -tags
// countdepartures, what countDepartures counted; in every build, at a
// port whose frames all leave the network (portOddLeaves), its frames
// that left the network (exitCount), which it counts anyway.
func checkCounters(s *Packet) error {
	for j, p := range s.ports {
		if p.odd&portOddLeaves != 0 && p.framesLeft() != p.exitCount {
			return fmt.Errorf("port %d (%s) at %v: %d frames left, %d left the network", j, p.name, s.now, p.framesLeft(), p.exitCount)
		}
		if !countingDepartures || s.counted == nil {
			continue
		}
		if got, want := p.sent(), s.counted.bytes[j]; got != want {
			return fmt.Errorf("port %d (%s) at %v: %d bytes sent, counted %d", j, p.name, s.now, got, want)
		}
		if got, want := p.framesLeft(), uint64(s.counted.frames[j]); got != want {
			return fmt.Errorf("port %d (%s) at %v: %d frames left, counted %d", j, p.name, s.now, got, want)
		}
	}
	return nil
}

// CountDepartures and CheckCounters are countDepartures and checkCounters
// for a simulation the package's outside tests made (model.New); they do
// nothing to a fluid one.
func CountDepartures(sim Sim) {
	if s, ok := sim.(*Packet); ok {
		countDepartures(s)
	}
}

func CheckCounters(sim Sim) error {
	if s, ok := sim.(*Packet); ok {
		return checkCounters(s)
	}
	return nil
}

// skipUnlessCounting skips a test that compares the derived counters with
// counted ones in a build that does not count them.
func skipUnlessCounting(t *testing.T) {
	if !countingDepartures {
		t.Skip("counts departures only with -tags countdepartures")
	}
}

// What left a port is derived from what arrived and what it holds
// (port.framesLeft, port.sent), not counted: the two agree every 2 us of
// runs that reach every writer of a port's queue (entryWriterCases):
// drops, PFC (per port, per class, with ingress accounting), capacity
// changes, classes (direct frames, their fifo twin, frames waiting in
// their class), control frames, ACKs with HPCC's telemetry (which stamps
// sent as each frame leaves), spraying and short flows. (Run with -tags
// countdepartures; without, TestBuiltinsKeepTheirRecords checks the ports
// whose frames all leave the network, against their exitCount.)
func TestDerivedDeparturesAreCounted(t *testing.T) {
	skipUnlessCounting(t)
	seen := map[string]int{}
	forEachEntryWriterSim(t, func(name string, sim *Packet) {
		countDepartures(sim)
		for at := algos.Time(0); !sim.Done(); {
			at += 2 * algos.Microsecond
			sim.Advance(at)
			if err := checkCounters(sim); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			for _, p := range sim.ports {
				countedStates(sim, p, seen)
			}
		}
	})
	for _, state := range []string{"drops", "control frames", "class frames waiting", "control frames waiting",
		"held with frames", "telemetry"} {
		if seen[state] == 0 {
			t.Errorf("no check met %s", state)
		}
	}
	t.Log(seen)
}

// countedStates counts in seen the states of port p that the derived
// counters must account for.
func countedStates(s *Packet, p *port, seen map[string]int) {
	if p.drops > 0 {
		seen["drops"]++
	}
	if p.held && p.queued > 0 {
		seen["held with frames"]++
	}
	if s.telemetry && p.queued > 0 {
		seen["telemetry"]++
	}
	if cs := p.cls; cs != nil {
		if cs.ctlArrivals > 0 {
			seen["control frames"]++
		}
		if cs.ctl != nil && cs.ctl.wait.n > 0 {
			seen["control frames waiting"]++
		}
		for c := range cs.q {
			if cs.q[c].wait.n > 0 {
				seen["class frames waiting"]++
			}
		}
	}
}

// The check bites: a port that took in a frame's bytes uncounted, or one
// frame more, is reported.
func TestCheckCountersBites(t *testing.T) {
	skipUnlessCounting(t)
	for _, fault := range []func(p *port){
		func(p *port) { p.admitted -= 64 },
		func(p *port) { p.arrivals++ },
	} {
		sim, err := NewPacket(entryWriterCases(t)["control frames and PFC"])
		if err != nil {
			t.Fatal(err)
		}
		countDepartures(sim)
		sim.Advance(100 * algos.Microsecond)
		if err := checkCounters(sim); err != nil {
			t.Fatal(err)
		}
		fault(sim.ports[len(sim.ports)/2])
		if checkCounters(sim) == nil {
			t.Error("a port's counters out of step passed")
		}
	}
}
