package model

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"testing"

	"qcnlab/algos"
	"qcnlab/model/topo"
)

// The invariants of a port's frame records that the hot paths rely on and
// do not check: checkRecords walks every port, and every class queue,
// between two steps of a run. It reads the engine's state and touches no
// hot path, so it can be called as often as a test likes.
//
//   - A port's queue is the records at the tails of its streams: onward
//     of link's, exiting of exits' (exits has no other records unless the
//     run follows frames to their receivers), and a control frame that
//     lands at its host, which has none (its flow and message in
//     classSet.landing); queued counts them all. A port that keeps its
//     order (portOddOrdered) has their queue flags in order, one for one;
//     one that does not never holds frames of both streams at once.
//   - Only the front of a port's queue may be in service: its departure is
//     the port's (headDone), and the port caches its flags, size and class
//     (headFlags, headBytes, headClass), which must be the front's record's.
//     It waits (pendingDone) only while the port is held. A port with
//     classes is never held whole (its classes are, pfc_classes.go), so its
//     scheduler only ever starts a frame in an empty port queue
//     (startNext), and its front is always in service.
//   - A class queue's waiting entries have their records in its own onward
//     and exits rings, one for one, in order.
//   - With ingress accounting, every queued data frame has its link in
//     inq.
//   - The record of the frame in service has its arrival set from its
//     departure; the records queued behind it hold only their forwarding
//     jitter, or nothing while they wait for the scheduler.
//   - Where the records' propagation is kept in lanes and the flows know
//     theirs too, each record's lane entry is its flow's hop's (checkProps).
func checkRecords(s *Packet) error {
	for j, p := range s.ports {
		if err := checkPort(s, p); err != nil {
			return fmt.Errorf("port %d (%s) at %v: %w", j, p.name, s.now, err)
		}
		if err := checkProps(s, int32(j), p); err != nil {
			return fmt.Errorf("port %d (%s) at %v: %w", j, p.name, s.now, err)
		}
	}
	return nil
}

// checkProps checks, in a run with propagation lanes whose flows know
// their propagation to each hop too (the lanes forced on a run whose
// sprayed paths cross the same: TestLanesAreTheDerivedPropagation), that
// every data frame's record at port pi, in its link, exits and class
// queues, has the propagation in its lane that its flow's hop says.
func checkProps(s *Packet, pi int32, p *port) error {
	if s.lanes == nil {
		return nil
	}
	type laned struct {
		name string
		r    *ring[frame]
		lane *propLane
		exit bool
	}
	rings := []laned{{"link", &p.link, &s.lanes.link[pi], false}, {"exits", &p.exits, &s.lanes.exits[pi], true}}
	if p.cls != nil {
		for c := range p.cls.q {
			q := &p.cls.q[c]
			rings = append(rings, laned{fmt.Sprintf("class %d onward", c), &q.onward, &s.lanes.onward[pi][c], false},
				laned{fmt.Sprintf("class %d exits", c), &q.exits, &s.lanes.waiting[pi][c], true})
		}
	}
	for _, rg := range rings {
		for k := range rg.r.n {
			r := rg.r.at(k)
			l := s.lims[r.lim]
			if r.flags&frameCtl != 0 || l.propTo == nil {
				continue // a control frame's loop is its message's; a flow made with the lanes knows no other
			}
			want := l.propTo[r.hop]
			if rg.exit {
				want = l.propTo[l.hops]
			}
			if got := *rg.lane.slot(rg.r, r); got != want {
				return fmt.Errorf("%s record %d of %d (lim %d, hop %d) has crossed %v in its lane, %v by its flow", rg.name, k, rg.r.n, r.lim, r.hop, got, want)
			}
		}
	}
	return nil
}

// CheckRecords is checkRecords for a simulation the package's outside
// tests made (model.New); nil for a fluid one.
func CheckRecords(sim Sim) error {
	if s, ok := sim.(*Packet); ok {
		return checkRecords(s)
	}
	return nil
}

// recordOf reports how entry e and record r differ, "" if they match.
func recordOf(e *queued, r *frame) string {
	if e.lim != r.lim || e.bytes != r.bytes || (e.flags&queuedCtl != 0) != (r.flags&frameCtl != 0) {
		return fmt.Sprintf("entry (lim %d, %d B, flags %b) has record (lim %d, %d B, flags %b)",
			e.lim, e.bytes, e.flags, r.lim, r.bytes, r.flags)
	}
	if e.flags&queuedExit != 0 && e.flags&queuedEnd != 0 != (r.flags&frameEnd != 0) {
		return fmt.Sprintf("entry (lim %d) ends its flow: %b, its record %b", e.lim, e.flags, r.flags)
	}
	return ""
}

// entryKinds counts the entries of q that go on, that leave the network
// (data frames) and control frames that land here.
func entryKinds(q *ring[queued]) (onward, exits, ctlExits int) {
	for k := range q.n {
		switch e := q.at(k); {
		case e.flags&queuedExit == 0:
			onward++
		case e.flags&queuedCtl != 0:
			ctlExits++
		default:
			exits++
		}
	}
	return
}

// matchTail checks that the entries of q of one kind (exit: 0 for those
// that go on, queuedExit for data frames that leave) have, in order, the
// records at the tail of recs, n of them.
func matchTail(q *ring[queued], exit uint8, recs *ring[frame], n int) error {
	if n < 0 || n > recs.n {
		return fmt.Errorf("%d queued records of %d", n, recs.n)
	}
	i := recs.n - n
	for k := range q.n {
		e := q.at(k)
		if e.flags&queuedExit != exit || exit != 0 && e.flags&queuedCtl != 0 {
			continue
		}
		if i == recs.n {
			return fmt.Errorf("entry %d (lim %d) has no record", k, e.lim)
		}
		if d := recordOf(e, recs.at(i)); d != "" {
			return fmt.Errorf("entry %d: %s", k, d)
		}
		i++
	}
	if i != recs.n {
		return fmt.Errorf("%d records with no entry", recs.n-i)
	}
	return nil
}

// queuedJitter checks that the records at the tail of recs, n of them
// (from the first), hold a forwarding jitter at most, as they wait.
func queuedJitter(s *Packet, recs *ring[frame], first, n int) error {
	for i := recs.n - n + first; i < recs.n; i++ {
		if a := recs.at(i).arrive; a < 0 || a != 0 && a >= s.jitter.max {
			return fmt.Errorf("queued record %d of %d holds arrival %v, not a jitter below %v", i, recs.n, a, s.jitter.max)
		}
	}
	return nil
}

func checkPort(s *Packet, p *port) error {
	// (a) The queue's frames: their records at the streams' tails, and
	// their order.
	if p.onward < 0 || int(p.onward) > p.link.n || p.exiting < 0 || p.exiting > p.exits.n {
		return fmt.Errorf("%d onward of %d link records, %d exiting of %d exits", p.onward, p.link.n, p.exiting, p.exits.n)
	}
	if !s.receivers && p.exits.n != p.exiting {
		return fmt.Errorf("%d exits records, %d queued, and no receivers followed", p.exits.n, p.exiting)
	}
	landing := 0
	if p.queued > 0 && p.headFlags&(queuedCtl|queuedExit) == queuedCtl|queuedExit {
		landing = 1
	}
	if int(p.queued) != int(p.onward)+p.exiting+landing {
		return fmt.Errorf("%d queued: %d onward, %d exiting, %d landing", p.queued, p.onward, p.exiting, landing)
	}
	if p.ordered() {
		if p.order.n != int(p.queued) {
			return fmt.Errorf("%d frames in order, %d queued", p.order.n, p.queued)
		}
		onward, exits, ctlExits := 0, 0, 0
		for k := range p.order.n {
			switch f := *p.order.at(k); {
			case f&queuedExit == 0:
				onward++
			case f&queuedCtl != 0:
				ctlExits++
			default:
				exits++
			}
		}
		if onward != int(p.onward) || exits != p.exiting || ctlExits != landing {
			return fmt.Errorf("in order %d onward, %d exits, %d landing; queued %d, %d, %d",
				onward, exits, ctlExits, p.onward, p.exiting, landing)
		}
	} else if p.onward > 0 && p.exiting+landing > 0 {
		return fmt.Errorf("a port that keeps no order holds %d frames that go on and %d that leave", p.onward, p.exiting+landing)
	}
	// Each queued frame's flags as its record says them.
	li, ei := p.link.n-int(p.onward), p.exits.n-p.exiting
	for k := range int(p.queued) {
		var flags uint8
		switch {
		case p.ordered():
			flags = *p.order.at(k)
		case k == 0:
			flags = p.headFlags
		case p.onward > 0:
			flags = queueFlags(p.link.at(li), 0)
		default:
			flags = queueFlags(p.exits.at(ei), queuedExit)
		}
		if flags&queuedCtl != 0 && (p.cls == nil || p.cls.ctl == nil) {
			return fmt.Errorf("queued frame %d (flags %b) is a control frame at a port with no control queue", k, flags)
		}
		switch {
		case flags&queuedExit == 0:
			if r := p.link.at(li); flags&^queuedCtl != 0 || r.flags&frameCtl != flags&queuedCtl {
				return fmt.Errorf("queued frame %d (flags %b) has link record %d (lim %d, flags %b)", k, flags, li, r.lim, r.flags)
			}
			li++
		case flags&queuedCtl == 0:
			if r := p.exits.at(ei); queueFlags(r, queuedExit) != flags || r.flags&frameCtl != 0 {
				return fmt.Errorf("queued frame %d (flags %b) has exits record %d (lim %d, flags %b)", k, flags, ei, r.lim, r.flags)
			}
			ei++
		}
	}

	// (b) The head: the front's departure is the port's, its flags, size
	// and class the front's.
	if p.queued == 0 {
		if p.headDone != algos.Never {
			return fmt.Errorf("empty queue, head departs at %v", p.headDone)
		}
	} else {
		var flags uint8
		var bytes uint16
		class := uint8(ctlClass)
		if landing == 1 {
			flags, bytes = p.headFlags, ControlBytes
		} else {
			r, exit := p.front()
			flags, bytes = queueFlags(r, exit), r.bytes
			if r.flags&frameCtl == 0 {
				class = s.lims[r.lim].class
			}
		}
		if p.headDone == algos.Never || flags != p.headFlags || bytes != p.headBytes || p.cls != nil && class != p.headClass {
			return fmt.Errorf("front (flags %b, %d B, class %d) cached as (%v, %b, %d B, class %d)",
				flags, bytes, class, p.headDone, p.headFlags, p.headBytes, p.headClass)
		}
		if p.headDone == pendingDone && !p.held {
			return fmt.Errorf("the front of %d waits at a port that serves", p.queued)
		}
	}
	if p.held && p.cls != nil {
		return fmt.Errorf("a port with classes is held whole")
	}
	if p.cls != nil && p.queued > 1 && p.headFlags&queuedCtl != 0 {
		return fmt.Errorf("%d frames queued behind a control frame", p.queued-1)
	}
	if landing == 1 && p.cls.landing.n == 0 {
		return fmt.Errorf("a control frame lands with no message")
	}
	ctl := 0
	p.eachQueued(int(p.queued), func(_ int, flags uint8, _ int) bool {
		if flags&queuedCtl != 0 {
			ctl++
		}
		return true
	})
	if s.ingress != nil && p.inq.n != int(p.queued)-ctl {
		return fmt.Errorf("%d ingress links for %d queued data frames", p.inq.n, int(p.queued)-ctl)
	}

	// The records' arrivals: the frame in service's set, the others' a jitter.
	if p.queued > 0 {
		inService := p.headDone < pendingDone
		switch {
		case p.headFlags&queuedExit == 0:
			r := p.link.at(p.link.n - int(p.onward))
			if inService && r.arrive < p.headDone+p.delay {
				return fmt.Errorf("the frame in service departs at %v, its record arrives at %v", p.headDone, r.arrive)
			}
			if !inService && r.arrive != 0 && (r.arrive < 0 || r.arrive >= s.jitter.max) {
				return fmt.Errorf("the waiting front's record arrives at %v", r.arrive)
			}
			if err := queuedJitter(s, &p.link, 1, int(p.onward)); err != nil {
				return err
			}
		case p.headFlags&queuedCtl == 0 && s.receivers:
			r := p.exits.at(p.exits.n - p.exiting)
			if inService && r.arrive != p.headDone+p.exitDelay {
				return fmt.Errorf("the frame in service departs at %v, its record reaches its receiver at %v", p.headDone, r.arrive)
			}
			fallthrough
		default:
			if err := queuedJitter(s, &p.link, 0, int(p.onward)); err != nil {
				return err
			}
		}
	}

	if p.cls != nil {
		return checkClasses(s, p, landing)
	}
	return nil
}

// checkClasses checks the class queues of port p, whose own queue holds
// ctlExits control frames that land at their host.
func checkClasses(s *Packet, p *port, ctlExits int) error {
	cs := p.cls
	onward, exits, waitCtlExits := 0, 0, 0
	queues := make([]*classQueue, 0, len(cs.q)+1)
	for c := range cs.q {
		queues = append(queues, &cs.q[c])
	}
	if cs.ctl != nil {
		queues = append(queues, cs.ctl)
	}
	for c, q := range queues {
		if c < len(cs.q) && (q.wait.n > 0) != (cs.waiting&(1<<c) != 0) {
			return fmt.Errorf("class %d: %d waiting, waiting bits %b", c, q.wait.n, cs.waiting)
		}
		for k := range q.wait.n {
			e := q.wait.at(k)
			want := uint8(c)
			if q == cs.ctl {
				want = ctlClass
			}
			if e.class != want {
				return fmt.Errorf("class %d: waiting entry %d of class %d", c, k, e.class)
			}
		}
		o, x, cx := entryKinds(&q.wait)
		if o != q.onward.n {
			return fmt.Errorf("class %d: %d waiting entries go on, %d records", c, o, q.onward.n)
		}
		if err := matchTail(&q.wait, 0, &q.onward, q.onward.n); err != nil {
			return fmt.Errorf("class %d onward: %w", c, err)
		}
		if err := queuedJitter(s, &q.onward, 0, q.onward.n); err != nil {
			return fmt.Errorf("class %d: %w", c, err)
		}
		if q != cs.ctl {
			if x != q.exits.n {
				return fmt.Errorf("class %d: %d waiting entries leave, %d records", c, x, q.exits.n)
			}
			if err := matchTail(&q.wait, queuedExit, &q.exits, q.exits.n); err != nil {
				return fmt.Errorf("class %d exits: %w", c, err)
			}
		}
		if s.ingress != nil && q != cs.ctl && q.inq.n != q.wait.n {
			return fmt.Errorf("class %d: %d ingress links for %d waiting", c, q.inq.n, q.wait.n)
		}
		onward, exits, waitCtlExits = onward+o, exits+x, waitCtlExits+cx
	}
	if onward != cs.waitOnward || exits != cs.waitExits || waitCtlExits != cs.waitCtlExits {
		return fmt.Errorf("waiting: %d onward, %d exits, %d control exits; counted %d, %d, %d",
			onward, exits, waitCtlExits, cs.waitOnward, cs.waitExits, cs.waitCtlExits)
	}
	if cs.landing.n != ctlExits+waitCtlExits {
		return fmt.Errorf("%d control messages for %d control frames landing", cs.landing.n, ctlExits+waitCtlExits)
	}
	return nil
}

// stepChecked runs sim to its end in steps of step, checking its records
// after each, and counts in seen the states it met.
func stepChecked(t *testing.T, name string, sim *Packet, step algos.Time, seen map[string]int) {
	t.Helper()
	for at := algos.Time(0); !sim.Done(); {
		at += step
		sim.Advance(at)
		if err := checkRecords(sim); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for _, p := range sim.ports {
			seenStates(sim, p, seen)
		}
	}
}

// seenStates counts the states of port p that the records' writers reach.
func seenStates(s *Packet, p *port, seen map[string]int) {
	if s.lanes != nil && p.link.n+p.exits.n > 0 {
		seen["propagation lanes"]++
	}
	if p.queued == 0 {
		return
	}
	seen["queued"]++
	if p.held {
		seen["held with frames"]++
		if p.headDone == pendingDone {
			seen["held, front waiting"]++
		}
	}
	if p.headFlags&queuedCtl != 0 {
		seen["control frame in service"]++
	}
	if p.exiting > 0 && s.receivers {
		seen["records to receivers"]++
	}
	if p.odd&portOddMixed != 0 && p.onward > 0 && p.onward < p.queued {
		seen["mixed queue"]++
	}
	if p.inq.n > 0 {
		seen["ingress links"]++
	}
	if cs := p.cls; cs != nil {
		if p.queued > 1 {
			seen["direct frames"]++
		}
		if cs.waiting != 0 {
			seen["class frames waiting"]++
		}
		if cs.held != 0 && cs.waiting&cs.held != 0 {
			seen["class held with frames"]++
		}
		if cs.ctl != nil && cs.ctl.wait.n > 0 {
			seen["control frames waiting"]++
		}
	}
}

// entryWriterCases are runs that reach every writer of a port's entries
// (TestRecordsMirrorTheQueues says which).
func entryWriterCases(t *testing.T) map[string]Config {
	t.Helper()
	pfc := overload(t, 4)
	pfc.PFC = &PFC{Xoff: -1, Xon: -1}
	pfc.Duration, pfc.Warmup = 4*algos.Millisecond, 0

	spread := spreading(t)
	spread.PFC = &PFC{Xoff: -1, Xon: -1}
	spread.Duration, spread.Warmup = 4*algos.Millisecond, 0

	changes := baseConfig(noneScheme(t), 3, 10e9)
	changes.Params = algos.Values{}
	changes.Duration = 4 * algos.Millisecond
	changes.Buffer = 1e6
	changes.PFC = &PFC{Xoff: -1, Xon: -1}
	realClocks(&changes)
	changes.Changes = []CapacityChange{{At: 1 * algos.Millisecond, Capacity: 2e9}, {At: 2*algos.Millisecond + 300, Capacity: 10e9}}
	probe, err := NewPacket(changes)
	if err != nil {
		t.Fatal(err)
	}
	probe.Advance(500 * algos.Microsecond)
	atStart := changes
	atStart.Changes = []CapacityChange{{At: probe.ports[0].headDone, Capacity: 2e9}}

	control := dcqcnFabric(t, append(Permutation(16, 1), Flow{From: 4, To: 0, Class: 1}, Flow{From: 6, To: 0, Class: 1}))
	realClocks(&control)
	control.Classes = &Classes{N: 2, Weights: []int{1, 1}}
	control.PFC = &PFC{Xoff: -1, Xon: -1, Ingress: true, Dynamic: true, Alpha: 0.125, Lossless: 1 << 1}
	control.Shared = &SharedBuffer{Reserve: 1500, Alpha: 1}
	control.ControlFrames = true
	control.Duration = 4 * algos.Millisecond

	sprayed := dcqcnFabric(t, append(Permutation(16, 1), Flow{From: 5, To: 0}, Flow{From: 9, To: 0}))
	sprayed.Fabric.Routing = Spray
	sprayed.SwitchJitter = 300
	sprayed.Duration = 4 * algos.Millisecond

	// Sprayed over links of delays drawn per link: each record's
	// propagation is its own (propLanes). With receivers (DCQCN's NP),
	// then with classes and PFC per class (direct frames demoted, class
	// frames started), then ACKs at the receivers (DCTCP).
	uneven := dcqcnFabric(t, append(Permutation(16, 1), Flow{From: 5, To: 0}, Flow{From: 9, To: 0}, Flow{From: 12, To: 0}))
	uneven.Fabric.Topology = unevenFatTree(t, 4)
	uneven.Fabric.Routing = Spray
	uneven.SwitchJitter = 300
	uneven.Duration = 4 * algos.Millisecond

	unevenClasses := dcqcnFabric(t, append(Permutation(16, 1), Flow{From: 4, To: 0, Class: 1}, Flow{From: 6, To: 0, Class: 1}, Flow{From: 9, To: 0}))
	unevenClasses.Fabric.Topology = unevenFatTree(t, 4)
	unevenClasses.Fabric.Routing = Spray
	realClocks(&unevenClasses)
	unevenClasses.Classes = &Classes{N: 2, Weights: []int{1, 1}}
	unevenClasses.PFC = &PFC{Xoff: -1, Xon: -1, Ingress: true, Dynamic: true, Alpha: 0.125, Lossless: 1 << 1}
	unevenClasses.Shared = &SharedBuffer{Reserve: 1500, Alpha: 1}
	unevenClasses.Duration = 4 * algos.Millisecond

	unevenACKs := fatTreeACKConfig(t, 1*algos.Millisecond, "dctcp", false)
	unevenACKs.Fabric.Topology = unevenFatTree(t, 8)
	unevenACKs.Fabric.Routing = Spray

	classesPFC := twoClasses(t, Classes{N: 2, Strict: 1, Weights: []int{1, 1}}, 10e9, 10e9)
	classesPFC.PFC = &PFC{Xoff: -1, Xon: -1, Ingress: true}
	classesPFC.Sources = append(classesPFC.Sources, classesPFC.Sources[1])
	classesPFC.Duration, classesPFC.Phases, classesPFC.Buffer = 6*algos.Millisecond, nil, 1e6

	sized := shortOnly(t, 20000, 20e3)
	sized.Duration = 20 * algos.Millisecond

	ring := ring5(t, 40e3)
	ring.Duration = 4 * algos.Millisecond

	return map[string]Config{
		"PFC":                      pfc,
		"PFC spreading":            spread,
		"capacity changes":         changes,
		"change as a frame starts": atStart,
		"real switch":              realSwitchConfig(t, 2*algos.Millisecond),
		"shared classes":           classesSwitchConfig(t, 2*algos.Millisecond),
		"control frames and PFC":   control,
		"sprayed with jitter":      sprayed,
		"sprayed, uneven delays":   uneven,
		"uneven, classes and PFC":  unevenClasses,
		"uneven, ACKs":             unevenACKs,
		"strict classes with PFC":  classesPFC,
		"sized short flows":        sized,
		"PFC deadlock ring":        ring,
		"DCTCP ACK frames":         fatTreeACKConfig(t, 1*algos.Millisecond, "dctcp", true),
		"HPCC ACK frames":          fatTreeACKConfig(t, 1*algos.Millisecond, "hpcc", true),
	}
}

// forEachEntryWriterSim builds each of entryWriterCases, and again with
// its class ports' schedulers forced to serve in order (" (fifo)"), and
// hands it to check.
func forEachEntryWriterSim(t *testing.T, check func(name string, sim *Packet)) {
	t.Helper()
	for name, cfg := range entryWriterCases(t) {
		for _, fifo := range []bool{false, true} {
			sim, err := NewPacket(cfg)
			if err != nil {
				t.Fatal(name, err)
			}
			if fifo {
				if !sim.classPorts {
					continue
				}
				for _, p := range sim.ports {
					p.cls.fifo = true
				}
				name += " (fifo)"
			}
			check(name, sim)
		}
	}
}

// The records hold in runs that reach every writer of a port's entries:
// PFC per port (holds and releases, a drop-tail chain beside), capacity
// changes (one as a frame starts), the real switch (clocks, jitter,
// ingress PFC), classes in a shared buffer with dynamic PFC per class,
// direct frames and their fifo twin, control frames with PFC, ACKs as
// control frames (DCTCP, HPCC's telemetry), spraying, short flows of a
// given size, and a ring deadlocked by PFC.
func TestRecordsMirrorTheQueues(t *testing.T) {
	seen := map[string]int{}
	forEachEntryWriterSim(t, func(name string, sim *Packet) {
		stepChecked(t, name, sim, 2*algos.Microsecond, seen)
	})
	for _, state := range []string{"queued", "held with frames", "held, front waiting", "control frame in service",
		"records to receivers", "mixed queue", "ingress links", "direct frames", "class frames waiting",
		"class held with frames", "control frames waiting", "propagation lanes"} {
		if seen[state] == 0 {
			t.Errorf("no check met %s", state)
		}
	}
	t.Log(seen)
}

// The checker bites: a record out of step with its stream, a departure
// behind the front, a cache out of date are each reported.
func TestCheckRecordsBites(t *testing.T) {
	// Two links in a row, every frame crossing both: the first's queue
	// holds frames that go on.
	cfg := overload(t, 4)
	cfg.Duration, cfg.Warmup = 2*algos.Millisecond, 0
	cfg.Links = []LinkConfig{{Capacity: 10e9, Buffer: 1e6, Delay: us}, {Capacity: 10e9, Buffer: 1e6}}
	for i := range cfg.Sources {
		cfg.Sources[i].Path = []int{0, 1}
	}
	for name, breakIt := range map[string]func(p *port){
		"the front waits": func(p *port) { p.headDone = pendingDone },
		"a data record made a control frame's": func(p *port) {
			p.link.at(p.link.n - 1).flags |= frameCtl
		},
		"a frame that leaves where all go on": func(p *port) {
			p.queued++
			p.exiting++
			*p.exits.pushSlot() = *p.link.at(p.link.n - 1)
		},
		"the head's cache": func(p *port) { p.headBytes++ },
		"a record too many": func(p *port) {
			p.onward++
			*p.link.pushSlot() = *p.link.at(p.link.n - 1)
		},
	} {
		sim, err := NewPacket(cfg)
		if err != nil {
			t.Fatal(err)
		}
		sim.Advance(algos.Millisecond)
		if err := checkRecords(sim); err != nil {
			t.Fatalf("%s: before: %v", name, err)
		}
		p := sim.ports[0]
		if p.queued < 3 || p.onward < 3 {
			t.Fatalf("%s: %d queued, %d onward: nothing to break", name, p.queued, p.onward)
		}
		breakIt(p)
		if err := checkRecords(sim); err == nil {
			t.Errorf("%s: not seen", name)
		} else {
			t.Logf("%s: %v", name, err)
		}
	}
}

// The checker sees a port with classes cache its front's class wrongly
// (headClass, which departClass and departMark read).
func TestCheckRecordsBitesTheHeadsClass(t *testing.T) {
	cfg := twoClasses(t, Classes{N: 2, Strict: 0, Weights: []int{1, 1}}, 10e9, 10e9)
	cfg.Duration, cfg.Warmup, cfg.Phases = 2*algos.Millisecond, 0, nil
	sim, err := NewPacket(cfg)
	if err != nil {
		t.Fatal(err)
	}
	sim.Advance(algos.Millisecond)
	if err := checkRecords(sim); err != nil {
		t.Fatalf("before: %v", err)
	}
	p := sim.ports[0]
	if p.queued == 0 || p.cls == nil {
		t.Fatalf("%d queued at a port with classes %v: nothing to break", p.queued, p.cls != nil)
	}
	p.headClass ^= 1
	if err := checkRecords(sim); err == nil {
		t.Error("a front of the wrong class not seen")
	} else {
		t.Log(err)
	}
}

// unevenFatTree is a k-ary fat-tree whose links' delays are drawn, 1 to
// 4 us: its equal-cost paths cross different propagation.
func unevenFatTree(t testing.TB, k int) *topo.Topology {
	rng := rand.New(rand.NewPCG(7, 1))
	ft, err := topo.FatTree(k, 10e9, 150e3, func(topo.Link) algos.Time { return algos.Time(1+rng.IntN(4)) * us })
	if err != nil {
		t.Fatal(err)
	}
	if ft.Routes().EvenDelays() {
		t.Fatal("the drawn delays are even")
	}
	return ft
}

// The propagation lanes, forced on sprayed runs whose paths cross the same
// propagation to each switch, hold at every step what the flows' hops
// say, and give the runs' numbers bit for bit: with receivers (DCQCN's
// NP), with classes and PFC per class (demoted and started class frames),
// with ACKs at the receivers (DCTCP). A lane entry changed is seen.
func TestLanesAreTheDerivedPropagation(t *testing.T) {
	cases := entryWriterCases(t)
	even := map[string]Config{
		"receivers":            cases["sprayed, uneven delays"],
		"classes and PFC":      cases["uneven, classes and PFC"],
		"ACKs at the receiver": fatTreeACKConfig(t, 1*algos.Millisecond, "dctcp", false),
	}
	for name, cfg := range even {
		cfg.Fabric.Routing = Spray
		if name == "ACKs at the receiver" {
			cfg.Fabric.Topology = fatTreeConfig(t, 1).Fabric.Topology
		} else {
			cfg.Fabric.Topology = fatTree4(t, 150e3)
		}
		plain, err := NewPacket(cfg)
		if err != nil {
			t.Fatal(name, err)
		}
		if plain.lanes != nil {
			t.Fatalf("%s: lanes on a fabric of one delay", name)
		}
		plain.Run()
		laned, err := NewPacket(cfg)
		if err != nil {
			t.Fatal(name, err)
		}
		laned.startLanes()
		laned.Run()
		// Checked apart: a run in steps need not have the numbers of one
		// run whole (with real clocks, classes and PFC it does not).
		checked, err := NewPacket(cfg)
		if err != nil {
			t.Fatal(name, err)
		}
		checked.startLanes()
		stepChecked(t, name+" (lanes)", checked, 2*algos.Microsecond, map[string]int{})
		a, errA := json.Marshal(plain.Summary())
		b, errB := json.Marshal(laned.Summary())
		if errA != nil || errB != nil {
			t.Fatal(name, errA, errB)
		}
		if !bytes.Equal(a, b) {
			t.Errorf("%s: the summary with lanes differs", name)
		}
		if laned.Frames() == 0 {
			t.Errorf("%s: no frame left the network", name)
		}
	}

	cfg := even["receivers"]
	cfg.Fabric.Routing, cfg.Fabric.Topology = Spray, fatTree4(t, 150e3)
	sim, err := NewPacket(cfg)
	if err != nil {
		t.Fatal(err)
	}
	sim.startLanes()
	sim.Advance(algos.Millisecond)
	if err := checkRecords(sim); err != nil {
		t.Fatalf("before: %v", err)
	}
	for pi, p := range sim.ports {
		if p.link.n > 0 {
			*sim.lanes.link[pi].slot(&p.link, p.link.at(p.link.n-1)) += 1
			break
		}
	}
	if err := checkRecords(sim); err == nil {
		t.Error("a lane entry changed is not seen")
	} else {
		t.Logf("a lane entry changed: %v", err)
	}
}
