package hopfloor

// An event is 32 bits: a flow (its source host) above three bits of hop.
// Hop i < 7 is the flow's frame reaching the node before its route's port
// i (i equal to the route's length: its destination host); hopEmit is the
// host finishing a frame.
const (
	hopBits = 3
	hopMask = 1<<hopBits - 1
	hopEmit = hopMask
)

// horizon is how many ticks ahead the bucket agenda holds: more than the
// farthest an event is scheduled, a full queue's wait and a link
// (BufferFrames*Serialization+Propagation = 605 ticks).
const horizon = 1024

// buckets is an agenda of one FIFO of events per tick, in a ring of
// horizon ticks. Every event falls on a tick and none is scheduled for the
// tick being handled (the shortest delay is a link's 5 ticks), so handling
// a bucket in order is handling events by time, then insertion: the
// tie-break by sequence number of a heap, with no comparison, and with
// reads in memory order, which the processor's prefetcher follows.
type buckets struct {
	b [horizon][]uint32
}

func (a *buckets) push(t Tick, e uint32) {
	i := t & (horizon - 1)
	a.b[i] = append(a.b[i], e)
}

// bytes is what the buckets occupy: their headers and the events they
// have room for (their capacity, reached once and then reused).
func (a *buckets) bytes() int64 {
	n := int64(len(a.b)) * 24
	for _, b := range a.b {
		n += int64(cap(b)) * 4
	}
	return n
}
