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
// ticks longer than the farthest ahead an event is scheduled. Every event
// falls on a tick and none is scheduled for the tick being handled (the
// shortest delay is a link's 5 ticks), so handling
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

// An event's key orders it by time, then kind (departures first), then
// insertion: 32 bits of time, one of kind, 31 of sequence number.
const (
	seqBits   = 31
	kindBit   = 1 << seqBits
	timeShift = seqBits + 1
)

func eventKey(t Tick, arrival bool, seq uint64) uint64 {
	if t < 0 || t >= 1<<(64-timeShift) || seq >= 1<<seqBits {
		panic("hopfloor: a run past the event key's times or sequence numbers")
	}
	key := uint64(t)<<timeShift | seq
	if arrival {
		key |= kindBit
	}
	return key
}

type keyed struct {
	key uint64
	e   uint32
}

func (x keyed) time() Tick      { return Tick(x.key >> timeShift) }
func (x keyed) isArrival() bool { return x.key&kindBit != 0 }

// heap4 is an agenda as a 4-ary heap of 16-byte entries keyed by one
// integer. A 4-ary heap is half as deep as a binary one and its four
// children share a cache line.
type heap4 struct {
	h   []keyed
	seq uint64
}

func (a *heap4) push(t Tick, arrival bool, e uint32) {
	x := keyed{eventKey(t, arrival, a.seq), e}
	a.seq++
	a.h = append(a.h, x)
	h := a.h
	i := len(h) - 1
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
func (a *heap4) pop() keyed {
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
	return top
}

// calendar is an agenda for times off the tick grid (Brown's calendar
// queue with a fixed width, the delays being fixed): a ring of buckets,
// each the events of a span of time, appended in any order and sorted
// when the span's turn comes. An entry is 8 bytes, its time and its event
// with the kind in the top bit: no sequence number, for a span's entries
// are appended in the order of insertion and the sort is stable. No event
// here is scheduled within the span being handled (the shortest delay is
// a link, longer than a span); an engine whose events can be would insert
// those into the sorted rest of the span.
type calendar struct {
	b      [calendarBuckets][]calEntry
	cur    Tick // the span being handled: [cur, cur+1) << calendarShift
	pos    int  // its next entry, once sorted
	sorted bool
	spare  []calEntry // room to sort a span in
}

type calEntry struct {
	t uint32 // fine time
	e uint32 // the event, calArrival set for an arrival
}

const (
	calendarShift   = 10 // a span of 1024 fine units: 204.8 ns
	calendarBuckets = 16 // more spans than the farthest ahead an event is (a host's first frame: 12 ticks, 11.7 spans)
	calArrival      = 1 << 31
)

func (c *calendar) push(t Tick, arrival bool, e uint32) {
	span := t >> calendarShift
	if span < c.cur || span == c.cur && c.sorted || span-c.cur >= calendarBuckets || t >= 1<<32 {
		panic("hopfloor: an event within the span being handled, past the calendar's ring or its 32 bits of time")
	}
	if arrival {
		e |= calArrival
	}
	b := &c.b[span&(calendarBuckets-1)]
	*b = append(*b, calEntry{uint32(t), e})
}

// next takes the soonest entry before until, if there is one.
func (c *calendar) next(until Tick) (calEntry, bool) {
	for {
		b := &c.b[c.cur&(calendarBuckets-1)]
		if !c.sorted {
			c.sort(*b)
			c.sorted, c.pos = true, 0
		}
		if c.pos < len(*b) {
			x := (*b)[c.pos]
			if Tick(x.t) >= until {
				return calEntry{}, false
			}
			c.pos++
			return x, true
		}
		*b = (*b)[:0]
		c.cur++
		c.sorted = false
		if c.cur<<calendarShift >= until {
			return calEntry{}, false
		}
	}
}

// digit is what orders a span's entries before insertion: the time within
// the span, then the kind (departures first).
func (x calEntry) digit() uint32 {
	return (x.t&(1<<calendarShift-1))<<1 | x.e>>31
}

// sort orders a span's entries by digit, stably: two passes of a counting
// sort on 6 bits each, with no comparison to mispredict (a comparison sort
// of a large fabric's spans, thousands of events each, cost several times
// as much); a short span by insertion.
func (c *calendar) sort(b []calEntry) {
	if len(b) <= 32 {
		for i := 1; i < len(b); i++ {
			x := b[i]
			j := i
			for ; j > 0 && b[j-1].digit() > x.digit(); j-- {
				b[j] = b[j-1]
			}
			b[j] = x
		}
		return
	}
	if cap(c.spare) < len(b) {
		c.spare = make([]calEntry, len(b))
	}
	spare := c.spare[:len(b)]
	pass := func(from, to []calEntry, shift uint) {
		var at [64]int32
		for _, x := range from {
			at[x.digit()>>shift&63]++
		}
		var sum int32
		for i, n := range at {
			at[i] = sum
			sum += n
		}
		for _, x := range from {
			d := x.digit() >> shift & 63
			to[at[d]] = x
			at[d]++
		}
	}
	pass(b, spare, 0)
	pass(spare, b, 6)
}

func (c *calendar) bytes() int64 {
	n := int64(len(c.b))*24 + int64(cap(c.spare))*8
	for _, b := range c.b {
		n += int64(cap(b)) * 8
	}
	return n
}
