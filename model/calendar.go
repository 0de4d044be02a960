package model

import (
	"math/bits"
	"slices"

	"qcnlab/algos"
)

// calendar is the ring of a streamQueue that is a calendar queue: a bucket
// per span of time (a power of two of picoseconds), 64 of them, a window
// twice as long as the farthest ahead a stream's key usually lands. A key
// after base lands unsorted at the tail of its span's bucket (chunk lists,
// as the radix heap's), or, past the window, in far, a heap; keys at or
// before base, the current span's last picosecond, go into the front in
// order, as in the radix heap (none do when a span is shorter than any
// link: calendarShape). When the front runs out, the next bucket that
// holds keys (a bitmap skips the empty ones) is sorted into the front, and
// the far keys the window now reaches move into the ring.
//
// The spans are wide (131 ns on 1 us links), so that a key is written to
// one of a few dozen tails, lines the cache keeps, and sorted once, with
// hundreds of others on a large fabric, by a counting sort without a
// comparison to mispredict; the front is long, and prefetching looks along
// it (prefetch.go). Narrow spans of 4 to 16 keys each measured no better
// than the tree at k = 16 and worse than the radix heap at k = 24: their
// thousands of tails, a line each, missed the cache as the radix heap's
// buckets do not (1.15 misses a hop in the calendar's code at k = 24).
// A tree climbs all its levels for each key; the radix heap moves a key
// once or twice between its buckets. Stale keys are the radix heap's: the
// queue's keys say which key is a slot's.
type calendar struct {
	ring  []keyList // a bucket per span: span s at s & (len(ring)-1)
	used  []uint64  // bit i: ring[i] holds keys
	shift uint      // a span is 1<<shift picoseconds
	cur   uint64    // the span being handled, a biased time >> shift
	far   keyHeap   // keys past the window
	count []int32   // radixSort's, a digit's keys
}

// streamPace is what a calendar's span is chosen from: the soonest a
// stream's key lands after the event that sets it (the shortest link's
// delay) and the farthest it usually does (the longest link's delay and a
// frame's time on the slowest link).
type streamPace struct{ soonest, reach algos.Time }

// calBuckets is a calendar's ring: the tails keys are written to.
const calBuckets = 64

// calendarShape is the span of a calendar at pace, its log2 in
// picoseconds: the ring reaches twice as far as a key lands. It suits
// (ok) if no span is longer than the soonest a key lands (the shortest
// link, a frame's time on the fastest: paceOf), so that a key lands in a
// span after the one being handled, not in the front, where it would be
// put in order among hundreds.
func calendarShape(pace streamPace) (shift uint, ok bool) {
	span := max(int64(pace.reach)/(calBuckets/2), 1)
	shift = uint(bits.Len64(uint64(span - 1)))
	return shift, algos.Time(1)<<shift <= pace.soonest
}

// setupCalendar is setup with a calendar of 1<<shift picosecond spans in a
// ring of buckets, a power of two of at least 64 (calBuckets; tests try
// others).
func (q *streamQueue) setupCalendar(n int, count *uint64, shift uint, buckets int) {
	q.setup(n, count, false)
	q.cal = calendar{ring: make([]keyList, buckets), used: make([]uint64, buckets/64), shift: shift}
	for i := range q.cal.ring {
		q.cal.ring[i].fill = chunkKeys
	}
	// base 0 and span 0: every key starts in far, and the first refill
	// moves the window to the earliest.
}

// calAdd adds k, whose biased time u is after base, to its span's bucket
// (calPut written out: a call less a key), or to far if the span is past
// the window.
func (q *streamQueue) calAdd(k streamKey, u uint64) {
	c := &q.cal
	s := u >> c.shift
	if s-c.cur >= uint64(len(c.ring)) {
		c.far.push(k)
		return
	}
	b := &c.ring[s&uint64(len(c.ring)-1)]
	if b.fill == chunkKeys {
		q.calGrow(b, s)
	}
	q.chunks[b.last][b.fill%chunkKeys] = k
	b.fill++
}

// calPut adds k to the bucket of span s, within the window.
func (q *streamQueue) calPut(k streamKey, s uint64) {
	b := &q.cal.ring[s&uint64(len(q.cal.ring)-1)]
	if b.fill == chunkKeys {
		q.calGrow(b, s)
	}
	q.chunks[b.last][b.fill%chunkKeys] = k
	b.fill++
}

// calGrow gives b, span s's bucket, a new chunk, and marks it as holding
// keys if it held none.
func (q *streamQueue) calGrow(b *keyList, s uint64) {
	if q.chain(b) {
		c := &q.cal
		i := s & uint64(len(c.ring)-1)
		c.used[i/64%uint64(len(c.used))] |= 1 << (i % 64)
	}
}

// calEarly adds k, whose biased time u is at or before base, to the front
// in order if at most frontNear of its keys come after k (found by
// halving, moved by one copy) or before it (frontLeft), or else to early,
// the heap beside the front; or, if u comes before the span being handled while the ring
// holds no key, turns the calendar back (calRewind) and adds it to the
// ring, where the rewind pays.
func (q *streamQueue) calEarly(k streamKey, u uint64) {
	if u>>q.cal.shift < q.cal.cur && q.calRewind(u) {
		q.calAdd(k, u)
		return
	}
	lo, hi := q.head, len(q.front) // the first key after k is in front[lo:hi+1]
	for lo < hi {
		if m := int(uint(lo+hi) / 2); q.front[m].before(k) {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if len(q.front)-lo > frontNear {
		if lo-q.head <= frontNear {
			q.frontLeft(k, lo)
			return
		}
		q.early.push(k)
		q.ready = q.head // top compares the two
		return
	}
	if len(q.front) == cap(q.front) && q.head > 0 { // room from the keys gone
		q.front = q.front[:copy(q.front, q.front[q.head:])]
		lo -= q.head
		q.ready -= q.head
		q.head = 0
	}
	q.front = append(q.front, k)
	copy(q.front[lo+1:], q.front[lo:])
	q.front[lo] = k
	q.ready = min(q.ready, lo) // front[head:ready] still current, and before early's
}

// frontLeft puts k in the front before front[lo] by moving the keys
// before it, at most frontNear, one place toward the head, into room made
// before the front (frontRoom keys, one copy of the front) if none is
// left. It serves a sparse fabric's few keys, which come before the many
// that wait in the front, parked far ahead (calRewind): in early, a heap
// deep with keys that return to the parked span, they cost the queue's
// code 650 instructions an event where the tree's cost 275, and 327 here
// (cachegrind; a k = 16 fat-tree, 1 KB flows at load 1e-4, an incast of
// 1,000 senders at 1000 s, 60 ms).
func (q *streamQueue) frontLeft(k streamKey, lo int) {
	if q.head == 0 {
		n := len(q.front)
		q.front = slices.Grow(q.front, frontRoom)[:n+frontRoom]
		copy(q.front[frontRoom:], q.front[:n])
		q.head, q.ready, lo = frontRoom, q.ready+frontRoom, lo+frontRoom
	}
	copy(q.front[q.head-1:], q.front[q.head:lo])
	q.head--
	q.front[lo-1] = k
	q.ready = q.head // settle looks again
}

// frontRoom is the room frontLeft makes before the front.
const frontRoom = frontNear

// frontNear is the most keys of the front moved to put a key in order
// there (8 KB, one copy): past it a key goes to early, whose keys make
// every event's top compare the two (settleEarly). On the bench's k = 16
// fabric some thousands of keys (hosts', CNPs') land in the span being
// handled, at random in it: with every one to early the calendar ran 18
// instructions a hop more than with insertion; frontNear 64 and 512 cost
// 13 and 8 (setSeq's fast path for early since dropped), and on
// r17-review/e1.toml 509 and 455 instructions an event (the tree 424).
const frontNear = 512

// calRewind turns the calendar back to the span before the earliest of u
// and the keys held, all of them in the front, early or far: the window
// jumped to a key far ahead (a flow that starts later, on an idle fabric),
// and every key set before it would otherwise go to early for as long as
// that key waits. The front's and early's keys go back to the ring or far;
// u is then after base. False if u's span is the first of all, or if the
// front holds more than one key more than early: a rewind moves them all,
// to be sorted again when the window comes back to them, and it waits
// until as many keys in early pay for that. Its work is then at most
// twice the keys put in early since the front was sorted, where a sparse
// fabric whose front held a thousand keys parked far ahead (an incast
// that starts later) moved them all at every idle gap: the queue's code
// ran 26,000 to 62,000 instructions an event, the tree's 280
// (calendar_rewind_test.go).
func (q *streamQueue) calRewind(u uint64) bool {
	c := &q.cal
	if len(q.front)-q.head > len(q.early)+1 {
		return false
	}
	for _, w := range c.used {
		if w != 0 {
			return false
		}
	}
	low := u
	if q.head < len(q.front) {
		low = min(low, uint64(q.front[q.head].at)^signBit)
	}
	if len(q.early) > 0 {
		low = min(low, uint64(q.early[0].at)^signBit)
	}
	if low>>c.shift == 0 {
		return false
	}
	c.cur = low>>c.shift - 1
	q.base = (c.cur+1)<<c.shift - 1
	for _, k := range q.front[q.head:] {
		q.calAdd(k, uint64(k.at)^signBit)
	}
	for _, k := range q.early {
		q.calAdd(k, uint64(k.at)^signBit)
	}
	q.front, q.head, q.ready, q.early = q.front[:0], 0, 0, q.early[:0]
	return true
}

// calRefill moves the next span that holds keys into the front, which is
// empty, sorted; false if no key is held.
func (q *streamQueue) calRefill() bool {
	c := &q.cal
	s, ok := c.nextSpan()
	if !ok {
		for len(c.far) > 0 && c.far[0] != q.keys[c.far[0].slot()] {
			c.far.pop()
			q.stale--
		}
		if len(c.far) == 0 {
			return false
		}
		s = (uint64(c.far[0].at) ^ signBit) >> c.shift
	}
	c.cur = s
	q.base = (s+1)<<c.shift - 1 // past Never's span it wraps to the end of time, as it should
	for len(c.far) > 0 {
		fs := (uint64(c.far[0].at) ^ signBit) >> c.shift
		if fs-s >= uint64(len(c.ring)) {
			break
		}
		q.calPut(c.far.pop(), fs)
	}
	i := s & uint64(len(c.ring)-1)
	list := take(&c.ring[i])
	c.used[i/64%uint64(len(c.used))] &^= 1 << (i % 64)
	if list.first == 0 {
		return true
	}
	f := q.front
	for ch := list.first; ; ch = q.next[ch] {
		n := chunkKeys
		if ch == list.last {
			n = int(list.fill)
		}
		f = append(f, q.chunks[ch][:n]...)
		if ch == list.last {
			break
		}
	}
	q.release(list)
	if len(f) > chunkKeys {
		q.scratch = c.radixSort(f, q.scratch)
	}
	sortKeys(f)
	q.front = f
	return true
}

// radixSort puts a span's keys nearly in order of time, stably: one pass
// of a counting sort on the top bits of their time within the span, about
// as many digits as keys, with no comparison to mispredict; the insertion
// sort after it has the few keys that share a digit to order. spare is
// room for them, returned grown.
func (c *calendar) radixSort(f, spare []streamKey) []streamKey {
	if cap(spare) < len(f) {
		spare = make([]streamKey, len(f), 2*len(f))
	}
	spare = spare[:len(f)]
	width := min(uint(bits.Len(uint(len(f)))), c.shift, 12)
	lo, mask := c.shift-width, uint64(1)<<width-1
	if len(c.count) <= int(mask) {
		c.count = make([]int32, 1<<12)
	}
	counts := c.count[:mask+1]
	clear(counts)
	for _, k := range f {
		counts[uint64(k.at)>>lo&mask]++
	}
	sum := int32(0)
	for i, n := range counts {
		counts[i] = sum
		sum += n
	}
	for _, k := range f {
		d := uint64(k.at) >> lo & mask
		spare[counts[d]] = k
		counts[d]++
	}
	copy(f, spare)
	return spare
}

// sortKeys sorts keys by insertion: a span's few, or many put in order of
// time by radixSort, where it puts the keys of one time in order.
func sortKeys(f []streamKey) {
	for j := 1; j < len(f); j++ {
		k, i := f[j], j
		for ; i > 0 && k.before(f[i-1]); i-- {
			f[i] = f[i-1]
		}
		f[i] = k
	}
}

// nextSpan is the first span after cur whose bucket holds keys, if any.
func (c *calendar) nextSpan() (uint64, bool) {
	mask := uint64(len(c.ring) - 1)
	words := uint64(len(c.used))
	i := (c.cur + 1) & mask
	w := i / 64
	m := c.used[w%words] >> (i % 64) << (i % 64)
	for range words + 1 { // the first word twice: its bits before i last
		if m != 0 {
			b := w*64 + uint64(bits.TrailingZeros64(m))
			return c.cur + 1 + (b-i)&mask, true
		}
		w = (w + 1) % words
		m = c.used[w]
	}
	return 0, false
}

// calPurge keeps only the ring's and far's keys that current reports.
func (q *streamQueue) calPurge(current func(streamKey) bool) (kept int) {
	c := &q.cal
	for i := range c.ring {
		b := &c.ring[i]
		if b.first == 0 {
			continue
		}
		c.used[i/64] &^= 1 << (i % 64)
		q.keepCurrent(take(b), current)
		for _, k := range q.scratch {
			q.calPut(k, (uint64(k.at)^signBit)>>c.shift)
		}
		kept += len(q.scratch)
	}
	return kept + c.far.keep(current)
}

// keyHeap is a 4-ary min-heap of keys: a calendar's far keys, and its
// early ones (streamQueue).
type keyHeap []streamKey

// push adds k.
func (h *keyHeap) push(k streamKey) {
	*h = append(*h, k)
	s := *h
	i := len(s) - 1
	for i > 0 {
		parent := (i - 1) / heapArity
		if !k.before(s[parent]) {
			break
		}
		s[i] = s[parent]
		i = parent
	}
	s[i] = k
}

// pop takes the earliest key.
func (h *keyHeap) pop() streamKey {
	s := *h
	top := s[0]
	last := len(s) - 1
	k := s[last]
	*h = s[:last]
	if last > 0 {
		h.siftDown(0, k)
	}
	return top
}

// keep keeps only the keys that current reports, and returns how many.
func (h *keyHeap) keep(current func(streamKey) bool) int {
	kept := (*h)[:0]
	for _, k := range *h {
		if current(k) {
			kept = append(kept, k)
		}
	}
	*h = kept
	for i := (len(kept) - 2) / heapArity; i >= 0 && len(kept) > 1; i-- {
		h.siftDown(i, kept[i])
	}
	return len(kept)
}

// siftDown places k in the hole at i and below.
func (h *keyHeap) siftDown(i int, k streamKey) {
	s := *h
	n := len(s)
	for {
		first := heapArity*i + 1
		if first >= n {
			break
		}
		best := first
		for j := first + 1; j < first+heapArity && j < n; j++ {
			if s[j].before(s[best]) {
				best = j
			}
		}
		if !s[best].before(k) {
			break
		}
		s[i] = s[best]
		i = best
	}
	s[i] = k
}
