// Package model holds qcnlab's simulation models: the packet-level
// discrete-event simulation (Packet), seed 000's fluid model (Fluid) and
// seed 002's convergence model (Convergence), and the metrics they emit.
//
// # The network
//
// The packet model walks a network that is data (network.go): hosts and
// switches joined by full-duplex links (package topo), the switch egress
// ports it simulates, the flows between hosts and how their frames are
// routed. A dumbbell or a parking lot (Config.Links, Sources) is a chain of
// switches (chain.go); a leaf-spine, a fat-tree or a custom fabric
// (Config.Fabric) is routed over equal-cost shortest paths (fabric.go).
// The engine does not know which it runs.
//
// # The life of a frame
//
// A flow's frames leave its host through its rate limiter (limiter.go),
// the scheme's reaction point: the limiter earns credit at its current rate
// and releases a frame when it has a frame's worth. The host's link serves
// its limiters in turn at line rate (host.go, release), and the frame takes
// its transmission time and the link's propagation to reach the switch
// (life.go, hostFrameArrives). Routing names the port it leaves by: the
// next of its route, fixed at the flow's start (ECMP, a chain's path), or
// picked at each switch among the equal-cost next hops (spraying).
//
// At the port (enter) the frame joins a drop-tail queue, or is dropped if
// the buffer is full; either way the port's congestion point sees it
// (algos.CongestionPoint.Arrive), may mark it (ECN), and may answer with a
// feedback frame to the frame's flow. The port serves its queue in order
// at its link's rate (serve): the frame at the head is in service, its
// departure known; the next starts when it leaves. As the frame departs
// it goes onto the port's link, to reach the next switch after the link's
// propagation; a congestion point that acts as frames leave
// (algos.DepartingCP) sees it then, and its mark goes with the frame.
//
// Hop by hop the frame reaches the last port of its route, whose departure
// delivers it: its bytes count for its flow, and a flow of a given size
// completes with its last byte (traffic.go, flows.go). If the scheme has a
// notification point (DCQCN), the frame is followed to its receiver, which
// sees it after the last link's propagation (receiveFrame) and may send a
// CNP back.
//
// An ACK-clocked scheme (DCTCP, TIMELY, HPCC, Swift: an algos.Sender)
// runs over the transport (transport.go), which is then its flow's
// reaction point. Each frame carries the index of its first byte's frame;
// the window, when the scheme keeps one, holds the limiter while the
// bytes in flight fill it. As the frame leaves each egress port, the port
// stamps its telemetry (HPCC's INT) for the flow. Its receiver
// acknowledges it, or answers a gap with a NACK, and the ACK goes back
// to the sender (on a fabric routed by ECMP as a control frame through
// the reverse path's ports, see below; on a chain over the reverse path's
// propagation and its own transmission, never queued), which may resend from the gap (go-back-N) or the frames reported
// missing (selective repeat), or on a timeout; a flow of a given size is
// over when its receiver has every byte.
//
// Feedback and CNPs travel back to the flow's reaction point over the
// reverse of the frame's path, plus the switch's feedback latency, never
// queued or dropped (feedback.go); the reaction point's new rate takes
// effect from the moment it lands. With PFC a switch pauses a link into it
// whose frames in the switch rise above XOFF (pfc_ingress.go), or, with
// egress accounting, a port above XOFF pauses every link that may feed it
// (pfc.go); a paused port finishes the frame on the wire and starts no
// other until it is released below XON. A change of a link's capacity
// (changes.go) applies from the next frame the port starts.
//
// A port may have several traffic classes (classes.go), each its own
// queue: its own queue then holds the frame in service, and as each
// frame departs the scheduler (strict priority, then DWRR) starts the
// next from its class's queue, whose record moves then to the tail of
// the stream it joins, so that a link's records stay in departure order.
// While one class alone has frames the scheduler's choice is forced, and
// its waiting frames wait in the port's own queue, their records at the
// streams' tails, as at a port with one class, until a frame of another
// class, a control frame or a PAUSE of the class returns them to their
// class's queue.
// Under the shared buffer model (buffer.go) a switch's queues share one
// buffer, each lossy class admitted by a dynamic threshold; PFC then
// counts and pauses per link into a switch and class (pfc_classes.go).
// With control frames (control.go) feedback, CNPs and the transport's
// ACKs and NACKs travel back as frames, in a control queue served before
// every class, instead of out of band.
//
// Hosts' clocks run within a few parts per million of nominal, and a
// switch's forwarding latency varies from frame to frame by up to a
// bound (clock.go): without them, perfectly periodic senders lock in phase
// with the ports they share.
//
// # Time
//
// Simulated time is an integer number of picoseconds. Time moves in one
// place, the agenda (agenda.go): one kind of event per thing that happens,
// handled by its own case of Packet.Advance. The frames in flight on each
// link are a FIFO with one slot in a tournament tree (a calendar queue on
// large fabrics, a radix heap where the links do not suit a calendar),
// keyed by its front frame's arrival; each port's
// service has one slot in a second queue of the same kind, keyed by its
// head's departure when that must run at its time; feedback, timers and
// PAUSE are one-shot events in a heap; milestones and samples run first at
// their time. Ties run in the order they were scheduled, so every run is
// deterministic.
//
// Two things run late, lazily, because nothing outside them can tell. A
// port's departures change nothing outside the port until the frame
// arrives somewhere: a link's slot is keyed at the arrival of the frame in
// service when nothing is in flight before it, and its event brings the
// port up to date first, as does everything else that looks at the port
// (an arrival, a PAUSE, an XON check, a sample); the port's own slot is
// armed only when a departure would start a frame for an empty stream
// that nothing else watches (syncService). Each departure takes effect at
// its own time, in order, whenever it is applied. And a host's own
// events, its releases and its reaction points' timers, change nothing
// outside the host until its frames arrive, and so run in order whenever
// something from outside (a frame's arrival, feedback, a PAUSE) reaches it
// (catchUp). Frames and events are values in rings and heaps:
// a run allocates nothing per frame, and its memory is bounded by the
// network and the frames in flight.
//
// The package is large (about 8,600 lines): the packet engine (the life of
// a frame, the agenda, ports, hosts, PFC, flows, phases), the fluid and
// convergence models, and what they share (Config, Sample, Summary and the
// metric accumulators). The network's graph and its routes need none of
// that and are a package of their own, model/topo.
package model
