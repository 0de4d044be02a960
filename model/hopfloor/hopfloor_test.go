package hopfloor

import (
	"testing"
	"unsafe"
)

// count is how many of base, base+step, base+2*step, ... fall before t.
func count(t, base, step Tick) uint64 {
	if t <= base {
		return 0
	}
	return uint64((t-base-1)/step + 1)
}

func mustFabric(t *testing.T, k int, flows []Flow) *Fabric {
	t.Helper()
	f, err := NewFabric(k, flows)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// A lone flow runs at line rate: its frames reach each node one frame time
// and one link later than the previous node, with no wait and no drop.
func TestLoneFlowAtLineRate(t *testing.T) {
	const S, P = Serialization, Propagation
	for _, c := range []struct {
		name     string
		dst      int32
		switches Tick
	}{{"same edge", 1, 1}, {"same pod", 3, 3}, {"across the core", 15, 5}} {
		for _, l := range Layouts {
			sim := l.New(mustFabric(t, 4, []Flow{{Src: 0, Dst: c.dst, Up1: 1, Up2: 1, Start: 2}}))
			for _, end := range []Tick{3, 40, 1001, 5000} {
				sim.Run(end)
				// Frame n's last bit leaves the host at 2+(n+1)S and reaches
				// the node after switch j at that time plus (j+1)P + jS.
				var want Counts
				first := 2 + S + P
				want.Sent = count(end, 2+S, S)
				for j := Tick(1); j <= c.switches; j++ {
					want.FrameHops += count(end, first+j*(S+P), S)
				}
				want.Delivered = count(end, first+c.switches*(S+P), S)
				got := sim.Counts()
				got.Events = 0
				if got != want {
					t.Errorf("%s, %s, before tick %d: %+v, want %+v", l.Name, c.name, end, got, want)
				}
			}
		}
	}
}

// Two hosts of one edge switch sending to the other edge of their pod up
// the same port send it two frames a frame time: its queue grows by one a
// frame time until it holds 100 frames, and from then on one frame of
// every pair is dropped. The port sends one frame a frame time from the
// first arrival on; the aggregation and far edge ports pass them on
// without a wait.
func TestTwoFlowsCollideOnOnePort(t *testing.T) {
	const S, P = Serialization, Propagation
	flows := []Flow{{Src: 0, Dst: 2}, {Src: 1, Dst: 3}}
	for _, l := range Layouts {
		sim := l.New(mustFabric(t, 4, flows))
		for _, end := range []Tick{100, 500, 596, 600, 608, 700, 2000, 20000} {
			sim.Run(end)
			a0 := S + P // the first pair reaches the edge switch
			var want Counts
			want.Sent = 2 * count(end, S, S)
			// Pair m arrives as the port's first frame of pair m-1 leaves,
			// and finds m frames: pair 99 finds 99, and one of each pair
			// is dropped from then on.
			want.Dropped = count(end, a0+99*S, S)
			for j := Tick(1); j <= 3; j++ {
				want.FrameHops += count(end, a0+j*(S+P), S)
			}
			want.Delivered = count(end, a0+3*(S+P), S)
			got := sim.Counts()
			got.Events = 0
			if got != want {
				t.Errorf("%s before tick %d: %+v, want %+v", l.Name, end, got, want)
			}
		}
	}
}

// Every frame sent is delivered, dropped or still in a queue or on a link,
// as the structures holding them count.
func TestConservation(t *testing.T) {
	for _, k := range []int{4, 8} {
		for _, l := range Layouts {
			sim := l.New(mustFabric(t, k, Permutation(k, 7)))
			for _, end := range []Tick{1, 777, 3000, 10001} {
				sim.Run(end)
				c := sim.Counts()
				if in := sim.InFlight(); c.Sent != c.Delivered+c.Dropped+in {
					t.Errorf("k = %d, %s, before tick %d: sent %d, delivered %d + dropped %d + in flight %d", k, l.Name, end,
						c.Sent, c.Delivered, c.Dropped, in)
				}
				if end > 3000 && (c.Dropped == 0 || c.Delivered == 0) {
					t.Errorf("k = %d, %s: a permutation with ECMP collisions delivered %d and dropped %d", k, l.Name, c.Delivered, c.Dropped)
				}
			}
		}
	}
}

// The layouts are the same simulation: on a permutation they may differ
// only in which of two frames reaching a port in the same tick takes its
// last place (their orders of insertion differ), so their totals agree
// closely; and a layout's run is the same run every time. The layouts in
// fine time agree with those in ticks when the flows' phases are 0; with
// phases, the heap and the calendar order the same keys and give the same
// run.
func TestLayoutsAgree(t *testing.T) {
	const k, end = 8, 20000
	run := func(l Layout, flows []Flow) Counts {
		s := l.New(mustFabric(t, k, flows))
		s.Run(end)
		c := s.Counts()
		c.Events = 0 // a stream has one event a hop, the others two
		return c
	}
	phased := Permutation(k, 3)
	onGrid := append([]Flow(nil), phased...)
	for i := range onGrid {
		onGrid[i].Phase = 0
	}
	first := run(Layouts[0], onGrid)
	var fine Counts
	for _, l := range Layouts {
		got := run(l, onGrid)
		t.Logf("%s: %+v", l.Name, got)
		if again := run(l, onGrid); again != got {
			t.Errorf("%s: %+v, then %+v", l.Name, got, again)
		}
		if got.Sent != first.Sent {
			t.Errorf("%s sent %d, %s %d", l.Name, got.Sent, Layouts[0].Name, first.Sent)
		}
		for _, p := range []struct {
			what      string
			got, want uint64
		}{{"delivered", got.Delivered, first.Delivered}, {"frame-hops", got.FrameHops, first.FrameHops}} {
			if d := float64(p.got) - float64(p.want); d*d > 1e-6*float64(p.want)*float64(p.want) {
				t.Errorf("%s %s %d, %s %d", l.Name, p.what, p.got, Layouts[0].Name, p.want)
			}
		}
		if !l.Fine {
			continue
		}
		got = run(l, phased)
		t.Logf("%s with phases: %+v", l.Name, got)
		if fine == (Counts{}) {
			fine = got
		} else if got != fine {
			t.Errorf("%s with phases: %+v, another layout in fine time %+v", l.Name, got, fine)
		}
	}
	if fine == (Counts{}) || fine == first {
		t.Errorf("with phases %+v, without %+v: the phases change nothing", fine, first)
	}
}

func TestBadFabrics(t *testing.T) {
	for _, c := range []struct {
		k     int
		flows []Flow
	}{
		{3, nil}, {34, nil}, {2, nil},
		{4, []Flow{{Src: 0, Dst: 0}}},
		{4, []Flow{{Src: 0, Dst: 16}}},
		{4, []Flow{{Src: 0, Dst: 1, Up1: 2}}},
		{4, []Flow{{Src: 0, Dst: 1, Start: Serialization}}},
		{4, []Flow{{Src: 0, Dst: 1, Phase: Fine}}},
		{4, []Flow{{Src: 0, Dst: 1}, {Src: 0, Dst: 2}}},
	} {
		if _, err := NewFabric(c.k, c.flows); err == nil {
			t.Errorf("k = %d, %+v: accepted", c.k, c.flows)
		}
	}
}

func TestPermutationIsADerangement(t *testing.T) {
	for _, k := range []int{4, 24} {
		flows := Permutation(k, 11)
		seen := make(map[int32]bool)
		for i, f := range flows {
			if f.Src != int32(i) || f.Dst == f.Src || seen[f.Dst] {
				t.Fatalf("k = %d: flow %d is %+v", k, i, f)
			}
			seen[f.Dst] = true
		}
		if _, err := NewFabric(k, flows); err != nil {
			t.Fatal(err)
		}
	}
}

func TestRecordSizes(t *testing.T) {
	if n := unsafe.Sizeof(route{}); n != 24 {
		t.Errorf("a route is %d bytes, not 24", n)
	}
	if n := unsafe.Sizeof(portRecord{}); n != 64 {
		t.Errorf("a port record is %d bytes, not one line", n)
	}
}

// The layouts pack their state on assumptions about the constants: a ring
// of ringSlots holds a full buffer with its head in 7 bits and its count in
// the 9 above them, and no event is scheduled beyond the buckets' 16 ticks
// (a frame time ahead at most) or on the tick being handled.
func TestConstantsFitTheirFields(t *testing.T) {
	if ringSlots&(ringSlots-1) != 0 || ringSlots > 1<<7 || BufferFrames > ringSlots || BufferFrames >= 1<<9 {
		t.Errorf("ringSlots %d, BufferFrames %d: a ring's head must fit 7 bits and its count 9", ringSlots, BufferFrames)
	}
	if far := max(Serialization, Propagation); far >= 16 {
		t.Errorf("events are scheduled up to %d ticks ahead, beyond the buckets' 16", far)
	}
	// stream schedules a frame when it will leave its port: behind a full
	// buffer, within its 1,024 ticks.
	if far := BufferFrames*Serialization + Propagation; far >= 1024 {
		t.Errorf("stream schedules up to %d ticks ahead, beyond its 1,024", far)
	}
	if min(Serialization, Propagation) < 1 {
		t.Error("an event scheduled on the tick being handled would be missed")
	}
}
