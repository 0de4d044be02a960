package hopfloor

import (
	"fmt"
	"math/rand/v2"
)

// Tick is simulated time in units of 200 ns.
type Tick int64

const (
	TickNanos     = 200
	Serialization = Tick(6) // 1500 B at 10 Gbps: 1.2 us
	Propagation   = Tick(5) // 1 us
	BufferFrames  = 100     // 150 KB of 1500-byte frames
	// Fine is the units per tick of the layouts that keep time off the
	// grid: 0.2 ns.
	Fine    = 1000
	maxHops = 5 // edge, aggregation, core, aggregation, edge
)

// Flow is a greedy source: host Src sends to host Dst at line rate, its
// first frame's last bit leaving the host at Start+Serialization, over the
// path whose up-ports are Up1 (edge to aggregation) and Up2 (aggregation
// to core), each in [0, k/2). The layouts in fine time start it Phase
// fine units (of Fine a tick) later, off the tick grid; those in ticks
// do not.
type Flow struct {
	Src, Dst int32
	Up1, Up2 int32
	Start    Tick
	Phase    int32
}

// route lists the switch output ports a flow's frames enter, in order:
// 24 bytes, so that a flow's whole path is one read.
type route struct {
	port [maxHops]int32
	n    int32
}

// Fabric is a k-ary fat-tree with its flows. Switch output ports are
// numbered by tier, so that a switch's ports are neighbours: edge switch e's
// port p is e*k+p (p < k/2 down to its hosts, the others up), aggregation
// switch a's is k³/2+a*k+p (p < k/2 down to its pod's edges), core switch
// c's is k³+c*k+p (p the pod). Hosts are numbered pod by pod, edge by edge.
type Fabric struct {
	K     int
	Hosts int
	Ports int     // switch output ports, 5k³/4
	flows []Flow  // by source host; Src < 0 for a host that sends nothing
	route []route // by source host
}

// NewFabric is a k-ary fat-tree (k even, 4..32) carrying flows, at most
// one per source host.
func NewFabric(k int, flows []Flow) (*Fabric, error) {
	if k < 4 || k > 32 || k%2 != 0 {
		return nil, fmt.Errorf("hopfloor: k = %d: a fat-tree here has an even k from 4 to 32", k)
	}
	f := &Fabric{K: k, Hosts: k * k * k / 4, Ports: 5 * k * k * k / 4}
	f.flows = make([]Flow, f.Hosts)
	f.route = make([]route, f.Hosts)
	for i := range f.flows {
		f.flows[i].Src = -1
	}
	h := int32(k / 2)
	for _, fl := range flows {
		switch {
		case fl.Src < 0 || int(fl.Src) >= f.Hosts || fl.Dst < 0 || int(fl.Dst) >= f.Hosts || fl.Src == fl.Dst:
			return nil, fmt.Errorf("hopfloor: flow %d -> %d: hosts are 0..%d and distinct", fl.Src, fl.Dst, f.Hosts-1)
		case fl.Up1 < 0 || fl.Up1 >= h || fl.Up2 < 0 || fl.Up2 >= h:
			return nil, fmt.Errorf("hopfloor: flow %d -> %d: up-ports are 0..%d", fl.Src, fl.Dst, h-1)
		case fl.Start < 0 || fl.Start >= Serialization:
			return nil, fmt.Errorf("hopfloor: flow %d -> %d: start %d is not within a frame time", fl.Src, fl.Dst, fl.Start)
		case fl.Phase < 0 || fl.Phase >= Fine:
			return nil, fmt.Errorf("hopfloor: flow %d -> %d: phase %d is not within a tick", fl.Src, fl.Dst, fl.Phase)
		case f.flows[fl.Src].Src >= 0:
			return nil, fmt.Errorf("hopfloor: host %d has two flows", fl.Src)
		}
		f.flows[fl.Src] = fl
		f.route[fl.Src] = f.routeOf(fl)
	}
	return f, nil
}

// routeOf is a fat-tree's route as a formula: the up-ports are the flow's
// ECMP choice, the down-ports follow from the destination.
func (f *Fabric) routeOf(fl Flow) route {
	k, h := int32(f.K), int32(f.K/2)
	edgePort := func(e, p int32) int32 { return e*k + p }
	aggPort := func(a, p int32) int32 { return k*k*k/2 + a*k + p }
	corePort := func(c, p int32) int32 { return k*k*k + c*k + p }
	s, d := fl.Src, fl.Dst
	edgeS, edgeD := s/h, d/h
	podS, podD := s/(h*h), d/(h*h)
	switch {
	case edgeS == edgeD:
		return route{port: [maxHops]int32{edgePort(edgeD, d%h)}, n: 1}
	case podS == podD:
		return route{port: [maxHops]int32{edgePort(edgeS, h+fl.Up1), aggPort(podS*h+fl.Up1, edgeD%h), edgePort(edgeD, d%h)}, n: 3}
	}
	return route{port: [maxHops]int32{
		edgePort(edgeS, h+fl.Up1),
		aggPort(podS*h+fl.Up1, h+fl.Up2),
		corePort(fl.Up1*h+fl.Up2, podD),
		aggPort(podD*h+fl.Up1, edgeD%h),
		edgePort(edgeD, d%h),
	}, n: maxHops}
}

// Permutation is every host sending to a random derangement of the hosts
// (Sattolo's shuffle: one cycle, so no host sends to itself), each flow on
// an ECMP path and starting at a random tick within a frame time (and a
// random phase within the tick), all drawn from seed.
func Permutation(k int, seed uint64) []Flow {
	n := k * k * k / 4
	r := rand.New(rand.NewPCG(seed, 1))
	dst := make([]int32, n)
	for i := range dst {
		dst[i] = int32(i)
	}
	for i := n - 1; i > 0; i-- {
		j := r.IntN(i)
		dst[i], dst[j] = dst[j], dst[i]
	}
	flows := make([]Flow, n)
	for i := range flows {
		flows[i] = Flow{Src: int32(i), Dst: dst[i], Up1: int32(r.IntN(k / 2)), Up2: int32(r.IntN(k / 2)),
			Start: Tick(r.IntN(int(Serialization)))}
	}
	phases := rand.New(rand.NewPCG(seed, 2)) // apart: the tick layouts' flows are the same without
	for i := range flows {
		flows[i].Phase = int32(phases.IntN(Fine))
	}
	return flows
}

// Counts are what a run did. A frame-hop is a frame that left a switch
// port, counted when its last bit reaches the far end of the link.
type Counts struct {
	Sent      uint64 // frames the hosts sent
	Delivered uint64 // frames that reached their destination host
	Dropped   uint64 // frames dropped at a full port
	FrameHops uint64
	Events    uint64
}

// Sim is one layout's simulation of a Fabric.
type Sim interface {
	// Run handles every event before until.
	Run(until Tick)
	Counts() Counts
	// InFlight counts the frames in queues and on links, from the
	// structures that hold them.
	InFlight() uint64
	// HotBytes is the memory a frame-hop's work reads or writes: the
	// ports' state, the routes, the frames queued and the agenda.
	HotBytes() int64
}

// A Layout is a way to lay out the simulation, in ticks or (Fine) in
// fine time.
type Layout struct {
	Name string
	New  func(*Fabric) Sim
	Fine bool
}

// Layouts are the layouts measured, the leanest last.
var Layouts = []Layout{
	{"structs-heap", func(f *Fabric) Sim { return newStructs(f, true, false) }, false},
	{"structs-bucket", func(f *Fabric) Sim { return newStructs(f, false, false) }, false},
	{"structs-inline-bucket", func(f *Fabric) Sim { return newStructs(f, false, true) }, false},
	{"rings-heap", func(f *Fabric) Sim { return newRings(f, 1, withHeap, false, false) }, false},
	{"rings-heap-fine", func(f *Fabric) Sim { return newRings(f, 1, withHeap, true, false) }, true},
	{"rings-calendar-fine", func(f *Fabric) Sim { return newRings(f, 1, withCalendar, true, false) }, true},
	{"rings64-bucket", func(f *Fabric) Sim { return newRings(f, 32, withBuckets, false, false) }, false},
	{"rings-bucket", func(f *Fabric) Sim { return newRings(f, 1, withBuckets, false, false) }, false},
	{"rings-bucket-prefetch", func(f *Fabric) Sim { return newRings(f, 1, withBuckets, false, true) }, false},
	{"stream-bucket", newStream, false},
}
