// Package hopfloor measures what a frame-hop costs on this machine in
// lean layouts: a packet-level simulation of a k-ary fat-tree doing
// little more than move frames, laid out in several ways, so that
// qcnlab's engine can be measured against it on the same machine and the
// growth of a hop's cost with the fabric's size told apart by cause.
//
// The fabric is qcnlab's speed benchmark minus congestion control: every
// link 10 Gbps with 1 us of propagation, 1500-byte frames, drop-tail
// output ports holding 100 frames (150 KB), greedy hosts sending at line
// rate to a fixed random derangement, each flow on one ECMP path. The
// semantics are exact discrete events: a frame reaches a switch when its
// last bit has crossed the link, joins its output port's FIFO or is
// dropped when 100 frames are there (the one in service included), and is
// served in order at the port's rate.
//
// Time is counted in ticks of 200 ns, the greatest common divisor of a
// frame's serialization (1.2 us) and a link's propagation (1 us): every
// event falls on a tick, so an agenda of one FIFO bucket per tick orders
// events exactly by time and then by insertion, with no comparison at all.
//
// The layouts in ticks (Layouts) do the same work and give the same
// counts (up to which of two frames reaching a full port's last place in
// the same tick takes it; stream handles a hop as one event, not two);
// they differ in where a hop's state lives and in the agenda:
//
//   - structs: 64-byte port records, each with a ring of frame indices
//     of its own, and 24-byte frame records (the conventional layout);
//     structs-inline: the same ports, a queued frame a 4-byte entry in its
//     port's ring and no frame record;
//   - rings: 2 bytes of state per port, a queued frame a 4-byte entry in
//     its port's ring, no frame record (rings64: a line per port);
//   - stream: a port is the tick its last frame leaves, a frame exists
//     only as its next event (exact only for equal frames and no pause);
//
// each with the bucket agenda or a heap. The rings in fine time (0.2 ns)
// start the flows off the tick grid, as a congestion-controlled source's
// frames would be, and so run a different simulation, with a heap or a
// calendar queue. The buckets need every event on the tick grid; the
// calendar as written sees 16 spans (3.3 us) ahead and nothing within the
// span being handled: neither is an agenda for an engine with timers,
// samples and sources at any rate, as qcnlab's is; they show what an
// agenda that does not compare keys would save.
//
// BenchmarkFrameHop measures each per fabric size with the bytes of the
// state a hop reads that is held at the end (hot-MB: the frames queued,
// not the rings' capacity). The heaps' cost climbs with the fabric at
// the same state as the buckets', whose cost stays flat: the state's
// size is not all that decides it. The workload is not qcnlab's: without
// congestion control the colliding ports' queues are full and most frames
// are dropped (31% at k = 4, 59% at k = 8, 65% at k = 16 and 24), so a
// layout here holds several times the frames qcnlab's engine does.
package hopfloor
