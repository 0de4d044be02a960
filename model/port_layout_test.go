package model

import (
	"math"
	"testing"
	"unsafe"

	"qcnlab/algos"
	"qcnlab/model/topo"
)

// TestPortLayout checks what the hot path's locality rests on: a port is
// a whole number of cache lines, so that in the ports' array each starts
// one, and the fields every frame touches lie in its first four lines
// (portLines, which prefetchAhead asks for): the level statistics (all
// that a change of the queue touches of them) on the fourth, a line of
// their own; the records of the frames that leave the network (exits) on
// the fifth.
func TestPortLayout(t *testing.T) {
	const line = 64
	wholeLines(t, "port", unsafe.Sizeof(port{}), "portPad")
	var p port
	if off := unsafe.Offsetof(p.level); off%line != 0 {
		t.Errorf("the level statistics start at byte %d, not on a line", off)
	}
	hotEnd := unsafe.Offsetof(p.level) + unsafe.Sizeof(p.level)
	if unsafe.Sizeof(p.level) != line {
		t.Errorf("the level statistics are %d bytes, not one line", unsafe.Sizeof(p.level))
	}
	if hotEnd > portLines*line {
		t.Errorf("the hot fields end at byte %d, past line %d (portLines)", hotEnd, portLines)
	}
	for name, off := range map[string]uintptr{
		"cls": unsafe.Offsetof(p.cls), "dcp": unsafe.Offsetof(p.dcp), "order": unsafe.Offsetof(p.order),
		"bins": unsafe.Offsetof(p.bins),
	} {
		if off < hotEnd {
			t.Errorf("%s, read only when port.odd says so, is among the hot fields (byte %d)", name, off)
		}
	}
	if off := unsafe.Offsetof(p.exits); off/line != portLines || (off+unsafe.Sizeof(p.exits)-1)/line != portLines {
		t.Errorf("exits is at byte %d, not on the line after the hot fields", off)
	}
	// What a frame reaching the next switch reads of the port it left
	// (linkFrameArrives, syncLink, unwatched) is one line.
	for name, off := range map[string]uintptr{
		"link": unsafe.Offsetof(p.link), "link.n": unsafe.Offsetof(p.link) + unsafe.Offsetof(p.link.n),
		"onward": unsafe.Offsetof(p.onward), "headFlags": unsafe.Offsetof(p.headFlags), "odd": unsafe.Offsetof(p.odd),
		"svcAt": unsafe.Offsetof(p.svcAt), "linkSeq": unsafe.Offsetof(p.linkSeq),
	} {
		if off/line != 0 {
			t.Errorf("%s is at byte %d, not in the link's line (the first)", name, off)
		}
	}
	// What an arriving frame and a departure read besides is the next.
	for name, off := range map[string]uintptr{
		"queued": unsafe.Offsetof(p.queued), "headBytes": unsafe.Offsetof(p.headBytes), "headDone": unsafe.Offsetof(p.headDone),
		"bytes": unsafe.Offsetof(p.bytes), "buffer": unsafe.Offsetof(p.buffer), "delay": unsafe.Offsetof(p.delay),
		"svc": unsafe.Offsetof(p.svc), "cp": unsafe.Offsetof(p.cp),
	} {
		if off/line != 1 {
			t.Errorf("%s is at byte %d, not in the queue's line (the second)", name, off)
		}
	}
	// The engine's array, larger than 32 KB on any fabric (a k = 4
	// fat-tree has 80 ports), is a large object, which starts a page.
	sim, err := NewPacket(fabric(noneScheme(t), fatTree4(t, 150e3), []Flow{{From: 1, To: 0}}))
	if err != nil {
		t.Fatal(err)
	}
	if a := uintptr(unsafe.Pointer(&sim.portStore[0])); a%line != 0 {
		t.Errorf("the ports' array starts at %#x, not on a cache line", a)
	}
}

// TestPortOdd checks that port.odd says what each port has once the
// engine is built: a port whose classes or departing CP the hot paths
// missed would serve its frames as a plain port's. DCQCN marks as frames
// depart; two classes in a shared buffer give every port its classes.
func TestPortOdd(t *testing.T) {
	dcqcn, err := algos.Lookup("dcqcn")
	if err != nil {
		t.Fatal(err)
	}
	plain := fabric(noneScheme(t), leaf6(t, 500e3), []Flow{{From: 1, To: 0}})
	marking := fabric(dcqcn, leaf6(t, 500e3), []Flow{{From: 1, To: 0}})
	if marking.Params, err = dcqcn.Resolve(marking.Network(), algos.Values{"mark_on": algos.DCQCNMarkOnDequeue}); err != nil {
		t.Fatal(err)
	}
	shared := fabric(noneScheme(t), leaf6(t, 500e3), []Flow{{From: 1, To: 0}})
	shared.Shared = &SharedBuffer{Switch: 3e6, Alpha: 1}
	pfc := fabric(noneScheme(t), leaf6(t, 500e3), []Flow{{From: 1, To: 0}})
	pfc.PFC = &PFC{Xoff: -1, Xon: -1}
	for name, cfg := range map[string]Config{"plain": plain, "dcqcn": marking, "shared": shared, "pfc": pfc} {
		sim, err := NewPacket(cfg)
		if err != nil {
			t.Fatal(name, err)
		}
		for j, p := range sim.ports {
			if p.classes() != (p.cls != nil) || (p.odd&portOddDepart != 0) != (p.dcp != nil) ||
				(p.odd&portOddReceivers != 0) != sim.receivers || (p.odd&portOddPFC != 0) != (p.xoff != math.MaxInt) {
				t.Errorf("%s: port %d has odd %b with classes %v, a departing CP %v, receivers followed %v",
					name, j, p.odd, p.cls != nil, p.dcp != nil, sim.receivers)
			}
		}
		if name == "dcqcn" && sim.ports[0].odd&(portOddDepart|portOddReceivers) != portOddDepart|portOddReceivers ||
			name == "shared" && !sim.ports[0].classes() || name == "pfc" && sim.ports[0].odd&portOddPFC == 0 {
			t.Errorf("%s: port 0 has odd %b", name, sim.ports[0].odd)
		}
	}
}

// skipUnless64Bit skips a layout test on a 32-bit build: the layouts are
// laid out for 64-bit words (the padding, the fields' order), and a
// 32-bit build runs the same numbers in other lines.
func skipUnless64Bit(t *testing.T) {
	if unsafe.Sizeof(uintptr(0)) != 8 {
		t.Skip("the layouts are for 64-bit words")
	}
}

// TestFabricPortsNeverMix checks what portOddMixed rests on: a fabric's
// port queues only frames that leave the network there, if it leads to a
// host, or only frames that go on, if it leads to a switch, so that no
// departure of one kind must run at its time for the other's stream
// (unwatched). Every port's queue is looked at after every event, with
// ECMP and sprayed routes and receivers followed (DCQCN); a chain's ports
// may mix, where flows both leave and go on, and say so.
func TestFabricPortsNeverMix(t *testing.T) {
	for _, spray := range []bool{false, true} {
		cfg := dcqcnFabric(t, AllToAll(16))
		ft := cfg.Fabric.Topology
		cfg.Duration = 200 * us
		if spray {
			cfg.Fabric.Routing = Spray
		}
		sim, err := NewPacket(cfg)
		if err != nil {
			t.Fatal(err)
		}
		toHost := portsToHosts(sim, ft)
		for !sim.Done() {
			sim.AdvanceBounded(cfg.Duration, 1)
			for j, p := range sim.ports {
				if p.odd&portOddMixed != 0 {
					t.Fatalf("spray %v: fabric port %d says it may mix", spray, j)
				}
				p.eachQueued(int(p.queued), func(_ int, flags uint8, _ int) bool {
					if exit := flags&queuedExit != 0; exit != toHost[j] {
						t.Fatalf("spray %v at %d: port %d (to a host %v) queues a frame leaving here %v", spray, sim.Now(), j, toHost[j], exit)
					}
					return true
				})
				if toHost[j] && p.onward > 0 || !toHost[j] && p.exiting > 0 {
					t.Fatalf("spray %v at %d: port %d (to a host %v) has %d records queued to go on, %d to leave", spray, sim.Now(), j, toHost[j], p.onward, p.exiting)
				}
			}
		}
		if sim.FrameHops() == 0 {
			t.Fatalf("spray %v: no frame moved", spray)
		}
	}
	// On a parking lot, flows both cross and leave the first bottleneck,
	// and all leave the second: only the first may mix, and says so; the
	// second, as a dumbbell's, is served as a port to a host (portOddLeaves).
	qcn, err := algos.Lookup("qcn")
	if err != nil {
		t.Fatal(err)
	}
	cfg := parkingLot(qcn, 3e9, 3e9, 3e9)
	if cfg.Params, err = qcn.Resolve(cfg.Network(), nil); err != nil {
		t.Fatal(err)
	}
	chain, err := NewPacket(cfg)
	if err != nil {
		t.Fatal(err)
	}
	for j, want := range []uint8{portOddMixed, portOddLeaves} {
		if odd := chain.ports[j].odd & (portOddMixed | portOddLeaves); odd != want {
			t.Errorf("parking lot's port %d: mixed %v, leaves %v; want mixed %v, leaves %v", j,
				odd&portOddMixed != 0, odd&portOddLeaves != 0, want == portOddMixed, want == portOddLeaves)
		}
	}
}

// portsToHosts says, for each of sim's ports, whether it leads to a host
// of fabric ft.
func portsToHosts(sim *Packet, ft *topo.Topology) []bool {
	toHost := make([]bool, len(sim.ports))
	for j, tp := range sim.net.ports {
		toHost[j] = ft.Nodes[ft.Ports[tp].To].Kind == topo.Host
	}
	return toHost
}

// Huge pages under the heap are asked for from a k = 16 fat-tree on, whose
// ports and rings outgrow the TLB's reach in 4 KB pages, not for k = 8's.
func TestHugeHeapPaysFromK16(t *testing.T) {
	skipUnless64Bit(t)
	for k, want := range map[int]bool{4: false, 8: false, 16: true, 24: true} {
		ft, err := topo.FatTree(k, 10e9, 150e3, topo.Uniform(us))
		if err != nil {
			t.Fatal(err)
		}
		cfg := fabric(noneScheme(t), ft, []Flow{{From: 1, To: 0}})
		n, err := cfg.network()
		if err != nil {
			t.Fatal(err)
		}
		if got := hugeHeapPays(len(n.ports)); got != want {
			t.Errorf("k = %d (%d ports): huge pages %v, want %v", k, len(n.ports), got, want)
		}
	}
}

// TestPortRingsStartSmall checks that a port's ring starts with few
// slots, carved from the shared array: a ring cycles through all its
// slots, so on a fabric larger than the caches each slot a port has is
// in the working set, and three ports in four never hold more than four
// frames. A fabric's port has one: link if its frames go on, exits if
// they leave at a host. A port that holds more grows its ring by
// doubling.
func TestPortRingsStartSmall(t *testing.T) {
	skipUnless64Bit(t)
	const line = 64
	if first := ringMin * unsafe.Sizeof(frame{}); first > 4*line {
		t.Errorf("a port's rings start with %d bytes of slots, more than four cache lines", first)
	}
	sim, err := NewPacket(fabric(noneScheme(t), fatTree4(t, 150e3), []Flow{{From: 15, To: 0}})) // across the core
	if err != nil {
		t.Fatal(err)
	}
	p := sim.ports[sim.lims[0].route[0]]
	if cap(p.link.buf) != ringMin || cap(p.exits.buf) != 0 || p.order.buf != nil {
		t.Fatalf("the first port's rings start with %d, %d and %d slots, want %d, none, none", cap(p.link.buf), cap(p.exits.buf), cap(p.order.buf), ringMin)
	}
	route := sim.lims[0].route
	if last := sim.ports[route[len(route)-1]]; cap(last.exits.buf) != ringMin || last.link.buf != nil {
		t.Fatalf("the last port's exits start with %d slots and its link with %d, want %d and none", cap(last.exits.buf), cap(last.link.buf), ringMin)
	}
	for i := range ringMin + 1 {
		p.link.push(frame{lim: int32(i)})
	}
	if cap(p.link.buf) != 2*ringMin {
		t.Errorf("a ring of %d slots grew to %d, want %d", ringMin, cap(p.link.buf), 2*ringMin)
	}
	for i := range ringMin + 1 {
		if got := p.link.pop().lim; got != int32(i) {
			t.Fatalf("frame %d came out of the grown ring as %d", i, got)
		}
	}
}

// TestLimiterLayout checks what a hop's read of its flow's limiter rests
// on: a limiter is a whole number of cache lines, so that the allocator
// starts each on a line, and what every hop reads of it (route, hops,
// first, and into a port with classes its class) is on its first line,
// with a fat-tree's route itself (path), so that prefetchAhead's request
// for its first line covers them.
func TestLimiterLayout(t *testing.T) {
	const line = 64
	wholeLines(t, "limiter", unsafe.Sizeof(limiter{}), "limiterPad")
	var l limiter
	for name, end := range map[string]uintptr{
		"route": unsafe.Offsetof(l.route) + unsafe.Sizeof(l.route), "first": unsafe.Offsetof(l.first) + unsafe.Sizeof(l.first),
		"hops": unsafe.Offsetof(l.hops) + unsafe.Sizeof(l.hops), "path": unsafe.Offsetof(l.path) + unsafe.Sizeof(l.path),
		// a hop into a port with classes reads its frame's class (enterClasses)
		"class": unsafe.Offsetof(l.class) + unsafe.Sizeof(l.class),
	} {
		if end > line {
			t.Errorf("%s ends at byte %d of a limiter, past its first line", name, end)
		}
	}
	qcn, err := algos.Lookup("qcn")
	if err != nil {
		t.Fatal(err)
	}
	ft := fatTree4(t, 150e3)
	sim, err := NewPacket(fabric(qcn, ft, Permutation(len(ft.Hosts), 1)))
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range sim.lims {
		if at := uintptr(unsafe.Pointer(l)); at%line != 0 {
			t.Errorf("limiter %d at %#x, not on a line's start", l.id, at)
		}
		if len(l.route) == 0 || &l.route[0] != &l.path[0] {
			t.Errorf("limiter %d: its route (%d ports) is not on its hop's line", l.id, len(l.route))
		}
	}
}

// wholeLines checks, on a 64-bit build, that a record of size bytes is a
// whole number of cache lines, so that in an array, or in the allocator's
// size class for it, each starts a line; pad is the constant that pads it.
func wholeLines(t *testing.T, what string, size uintptr, pad string) {
	t.Helper()
	skipUnless64Bit(t)
	if size%64 != 0 {
		t.Errorf("a %s is %d bytes, not a multiple of 64: pad it (%s)", what, size, pad)
	}
}
