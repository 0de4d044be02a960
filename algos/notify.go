package algos

import "math/rand/v2"

// A scheme whose switch marks frames instead of answering them (DCQCN) has
// two more parts than a CP and an RP: the marking may happen as a frame
// leaves the queue, and a notification point at the receiver turns the
// marks of a flow into congestion notifications back to its reaction point.

// DepartingCP is a congestion point that also acts as a frame leaves its
// queue. The simulator calls Depart for every frame that leaves, so a
// scheme returns a CP with this method only when it needs it (DCQCN's
// marking on dequeue).
type DepartingCP interface {
	CongestionPoint
	// Depart runs as frame f finishes leaving the queue at now; qlen is
	// the occupancy in bytes it leaves behind. It may set f.ECN.
	Depart(now Time, f *Frame, qlen int)
}

// NotificationPoint runs at a receiver for one flow: it sees every data
// frame of the flow that arrives and decides whether a congestion
// notification goes back to the flow's reaction point (DCQCN's CNP). The
// notification travels back as feedback does and reaches the reaction point
// through its Feedback method.
type NotificationPoint interface {
	// Receive runs on a frame of the flow reaching the receiver. It
	// reports whether a notification goes back, and if so fills fb.
	Receive(now Time, f *Frame, fb *Feedback) bool
}

// NPEnv is what a notification point is built from.
type NPEnv struct {
	Network
	Flow int        // the flow (reaction point) it answers for
	Rand *rand.Rand // its own random stream
}
