package model

import "qcnlab/algos"

// frame is a data frame in flight on a link: a host's, a port's on to the
// next switch, or one on its way to its receiver. Links keep their frames in
// FIFOs (ring), in the order they arrive. One is pushed and popped per hop,
// so it is kept to 32 bytes, two to a cache line and none across one
// (TestFrameLayout): what is its flow's and its hop's is not in it, as the
// propagation it has crossed (propOf).
type frame struct {
	arrive algos.Time // when its last bit reaches the link's far end
	sent   algos.Time // when it left its rate limiter (the CM-Tag timestamp)
	lim    int32      // its flow's rate limiter
	cpid   int32      // the CPID of its CM-Tag
	// route is where it is on its way: on a fixed route (ECMP, a chain),
	// the port it enters next, read as it arrives without its limiter's
	// route; sprayed, a hash of the ports it crossed, its path (path_count).
	route uint32
	bytes uint16
	hop   uint8 // the index in its route of the port it goes to next
	flags uint8 // frameEnd, frameECN, frameLast, frameCtl, frameAckReq
}

// Frame flags.
const (
	frameEnd    uint8 = 1 << iota // a chain's short flow's last frame (traffic.go)
	frameECN                      // marked congestion-experienced by a CP (DCQCN)
	frameLast                     // the last frame of a fabric's flow of a given size (flows.go)
	frameCtl                      // a control frame: a congestion point's feedback or a CNP (control.go)
	frameAckReq                   // its sender asks for an ACK at once (transport.go): a header bit, no bytes
	frameEarly                    // a record its receiver takes as it leaves the last port (markEarly, transport.go)
	frameQueued                   // a record counted in its flow's transport as it joined its port's deliveries (receiveQueued)
	frameSlow                     // a record foreseen not to be received early (receiveQueued)
)

// queued is a frame in a switch port's queue: 8 bytes, one per frame.
// Only the frame at the front of a port's queue may be in service, so its
// departure is the port's (port.headDone), not the entry's: every frame
// behind it, and every frame waiting in a class's queue, waits.
type queued struct {
	lim   int32
	bytes uint16
	flags uint8 // queuedExit, queuedEnd
	class uint8 // its traffic class (classes.go)
}

// Queue flags.
const (
	queuedEnd  uint8 = 1 << iota // it leaves the network here, and is a chain's short flow's last frame: frameEnd's bit
	queuedExit                   // it leaves the network at this port: its route's last
	_
	queuedCtl // a control frame (control.go): frameCtl's bit
)
