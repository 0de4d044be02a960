// Package algos holds the congestion control schemes of the IEEE 802.1Qau
// family as plain state machines: a congestion point (CP), which runs on a
// switch queue and turns arriving frames into feedback, and a reaction point
// (RP), which is a source's rate limiter reacting to feedback, to the bytes it
// sends and to its own timers.
//
// The ACK-clocked schemes (DCTCP, TIMELY, HPCC, Swift) are a Sender per
// flow instead (ack.go), which reacts to acknowledgements, ECN echoes, RTT
// samples and in-band telemetry and tells the transport its window and rate;
// the packet model's transport (model/transport.go) runs them.
//
// Nothing here simulates anything: time, frame sizes, queue lengths and random
// numbers come in as arguments, so every rule can be tested line by line
// against the seed it comes from. Each scheme registers itself (see Register)
// with its parameters, their units, defaults and one-line meanings.
//
// The package is large (about 4,100 lines) because it holds every scheme, a
// file each beside its tests; they share the registry, the parameter kinds
// and QCN's reaction point (QCN-T, QCN-TIMER, QCN-AIMD and DCQCN build on
// it), and the ACK-clocked schemes share the Sender interface and the same
// registry, so a package per scheme would only add imports.
package algos
