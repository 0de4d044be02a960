// Package model holds qcnlab's simulation models. The packet-level model is a
// discrete-event simulation of a dumbbell network: sources with rate limiters
// (the schemes' reaction points), access links with their own delays, one
// output-queued switch port whose congestion point sends feedback back to the
// sources, and a receiver.
//
// Three choices keep it fast and exact. Simulated time is an integer number of
// picoseconds. A source's frames reach the switch in the order they leave it,
// so each source keeps its in-flight frames in a FIFO and has a single entry
// in the event heap, keyed by its next arrival. And the switch port is a FIFO
// with a deterministic server, so departures are computed when a frame is
// enqueued and applied lazily: a frame costs about one heap operation.
package model
