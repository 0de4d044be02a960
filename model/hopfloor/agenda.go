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

// buckets is an agenda of one FIFO of events per tick, in a ring of
// ticks longer than the farthest ahead an event is scheduled. Every event falls on a tick and none is scheduled for the
// tick being handled (the shortest delay is a link's 5 ticks), so handling
// a bucket in order is handling events by time, then insertion: the
// tie-break by sequence number of a heap, with no comparison, and with
// reads in memory order, which the processor's prefetcher follows.
type buckets struct {
	b    [][]uint32
	mask Tick
}

// newBuckets holds events up to horizon ticks ahead, a power of two.
func newBuckets(horizon int) buckets {
	return buckets{b: make([][]uint32, horizon), mask: Tick(horizon - 1)}
}

func (a *buckets) push(t Tick, e uint32) {
	i := t & a.mask
	a.b[i] = append(a.b[i], e)
}

// at is the bucket of tick t.
func (a *buckets) at(t Tick) *[]uint32 { return &a.b[t&a.mask] }

// bytes is what the buckets occupy: their headers and the events they
// have room for (their capacity, reached once and then reused).
func (a *buckets) bytes() int64 {
	n := int64(len(a.b)) * 24 // slice headers
	for _, b := range a.b {
		n += int64(cap(b)) * 4
	}
	return n
}

// heap4 is an agenda as a 4-ary heap of 16-byte entries, each keyed by
// one integer: the tick, then one bit of kind (departures first), then a
// sequence number. A 4-ary heap is half as deep as a binary one and its
// four children share a cache line.
type heap4 struct {
	h   []heapEntry
	seq uint64
}

type heapEntry struct {
	key uint64
	e   uint32
}

const (
	seqBits  = 38
	kindBit  = 1 << seqBits
	tickBits = 64 - seqBits - 1
)

func (a *heap4) push(t Tick, arrival bool, e uint32) {
	if t >= 1<<tickBits || a.seq >= 1<<seqBits {
		panic("hopfloor: a run past the heap key's ticks or sequence numbers")
	}
	key := uint64(t)<<(seqBits+1) | a.seq
	if arrival {
		key |= kindBit
	}
	a.seq++
	a.h = append(a.h, heapEntry{key, e})
	h := a.h
	i := len(h) - 1
	x := h[i]
	for i > 0 {
		p := (i - 1) / 4
		if h[p].key <= x.key {
			break
		}
		h[i] = h[p]
		i = p
	}
	h[i] = x
}

// pop takes the soonest entry; the heap is not empty.
func (a *heap4) pop() (Tick, bool, uint32) {
	h := a.h
	top := h[0]
	n := len(h) - 1
	x := h[n]
	h = h[:n]
	i := 0
	for {
		c := 4*i + 1
		if c >= n {
			break
		}
		m := c
		for j := c + 1; j < min(c+4, n); j++ {
			if h[j].key < h[m].key {
				m = j
			}
		}
		if x.key <= h[m].key {
			break
		}
		h[i] = h[m]
		i = m
	}
	if n > 0 {
		h[i] = x
	}
	a.h = h
	return Tick(top.key >> (seqBits + 1)), top.key&kindBit != 0, top.e
}
