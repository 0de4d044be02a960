// Package hopfloor is the floor of a frame-hop's cost: the least work a
// packet-level simulation of a k-ary fat-tree can do per frame leaving a
// switch port, with the leanest layouts we know, so that qcnlab's engine
// can be measured against it on the same machine.
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
// The layouts (Layouts) do the same work and give the same counts (up to
// which of two frames reaching a full port's last place in the same tick
// takes it); they differ in where a hop's state lives and in the agenda:
//
//   - structs: 64-byte port records, each with its own ring of frame
//     indices, and 24-byte frame records (the conventional layout);
//   - rings: 2 bytes of state per port, a queued frame a 4-byte entry in
//     its port's ring, no frame record (rings64: a line per port);
//   - stream: a port is the tick its last frame leaves, a frame exists
//     only as its next event (exact only for equal frames and no pause);
//
// each with the bucket agenda or a heap; and rings in fine time (0.2 ns),
// where the flows start off the tick grid, with a heap or a calendar
// queue, the agendas a general engine can use. BenchmarkFrameHop measures
// each per fabric size with the bytes its per-hop state occupies
// (hot-MB): the cost of a hop stays flat while that state fits the
// processor's own cache and climbs once it does not, whatever the
// fabric's size.
package hopfloor
