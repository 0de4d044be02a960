package model

import (
	"math/bits"
	"unsafe"

	"qcnlab/algos"
)

// eventKind is what happens when an event's time comes: one kind per thing
// that happens, each handled by its own case of Packet.Advance.
type eventKind uint8

const (
	// Frames: the next frame of a FIFO in flight reaches the far end.
	evHostFrame    eventKind = iota // host: its NIC's next frame reaches its switch
	evLinkFrame                     // port: the next frame on its link reaches the next switch
	evDepart                        // port: the frame it is serving leaves, onto its link
	evReceiveFrame                  // port: the next frame it delivered reaches its receiver's notification point
	// Messages back to a reaction point, never queued or dropped.
	evFeedback     // limiter, msg: a congestion point's feedback frame arrives
	evNotification // limiter, msg: a notification point's CNP arrives
	// Timers and arrivals.
	evTimer       // limiter, gen: its reaction point's timer may expire
	evFlowArrival // a Poisson short flow starts
	// IEEE 802.1Qbb PFC (pfc.go).
	evPauseHost // host, on: an XOFF (on) or XON reaches a host's NIC
	evPausePort // port, on: an XOFF (on) or XON reaches a switch port
	evXonCheck  // port, gen: a pausing port may have drained to XON
	// port (an ingress link), gen: a paused link may have drained to XON
	evIngressXonCheck
	evDeadlockCheck // port, gen: a held port may be in a cycle of pauses (deadlock.go)
	evControlFrame  // limiter, msg: a control frame, generated, enters its first port (control.go)
	// The timeline: milestones (capacity changes, the window's and phases'
	// boundaries) and samples run before any other event at their time.
	evMilestone
	evSample
)

// event is a value in the agenda. Each field serves the kinds that name it
// above and is zero for the others. Events at the same time run in the
// order they were scheduled (seq), which keeps every run deterministic; an
// event whose gen no longer matches its owner's is stale and skipped.
type event struct {
	at      algos.Time
	seq     uint64
	kind    eventKind
	on      bool   // evPauseHost, evPausePort: XOFF, else XON
	class   uint8  // evPauseHost, evPausePort: the traffic class it pauses
	host    int32  // evHostFrame, evPauseHost
	port    int32  // evLinkFrame, evReceiveFrame, evPausePort, evXonCheck
	limiter int32  // evFeedback, evNotification, evTimer
	msg     int32  // evFeedback, evNotification: the message in flight (messages)
	gen     uint32 // evTimer, evXonCheck
}

func (a *event) before(b *event) bool {
	return a.at < b.at || (a.at == b.at && a.seq < b.seq)
}

// agenda is what happens next: the one place simulated time moves. Most
// events are frames reaching the end of a FIFO in flight (a host's NIC
// link, a port's link, a port's deliveries) or leaving a port's queue,
// which are streams: each FIFO, and each port's service, has one slot,
// keyed by its front frame's arrival (its departure), in a streamQueue: a
// tournament tree if they are few, a calendar queue if they are many (a
// radix heap if the links' delays do not suit a calendar). The ports'
// service slots are a queue of their own: few of them are ever keyed (a
// departure is mostly applied by what looks at the port next: serve), and
// among the others they would make every climb one level longer. The rest
// (feedback, timers, PAUSE) are one-shot events in a heap. All draw their
// tie-breaking sequence numbers from one counter. The timeline has two
// slots of its own, the next milestone and the next sample, which run
// before any other event at their time, a milestone before a sample.
type agenda struct {
	streams   streamQueue // hosts' slots [0, hosts), then ports' links, then ports' deliveries
	services  streamQueue // ports' service slots, by port
	oneShot   eventHeap
	seq       uint64
	milestone algos.Time // Never if none
	sample    algos.Time
	timeline  algos.Time // the earlier of the two
	root      *streamKey // the streams' earliest, if they are in a tree
	svcAt     algos.Time // the services' earliest time: next looks at them only from then
	hosts     int32
	ports     int32
	cur       event // the event next handed out
}

// init sets up an empty agenda in place (its parts share its counter);
// pace is how the streams' keys come (calendarShape).
func (a *agenda) init(hosts, ports int, receivers bool, pace streamPace) {
	n := hosts + ports
	if receivers {
		n += ports
	}
	*a = agenda{hosts: int32(hosts), ports: int32(ports), milestone: algos.Never, sample: algos.Never, timeline: algos.Never}
	if shift, ok := calendarShape(pace); ok && n > calendarMin {
		a.streams.setupCalendar(n, &a.seq, shift, calBuckets)
	} else {
		a.streams.init(n, &a.seq)
	}
	if a.streams.nodes != nil {
		a.root = &a.streams.nodes[1]
	}
	a.services.init(ports, &a.seq)
	a.svcAt = algos.Never
	a.oneShot.seq = &a.seq
}

// The streams' slots.
func (a *agenda) hostSlot(h int32) int    { return int(h) }
func (a *agenda) linkSlot(p int32) int    { return int(a.hosts + p) }
func (a *agenda) receiveSlot(p int32) int { return int(a.hosts + a.ports + p) }

// setService keys port p's service slot at its departure, Never if none.
func (a *agenda) setService(p int32, at algos.Time) {
	a.services.set(int(p), at)
	a.svcAt = a.services.top().at
}

// setStream keys a stream's slot at its front frame's arrival, Never if
// none. Every call takes a new sequence number, which it returns.
func (a *agenda) setStream(slot int, at algos.Time) uint64 { return a.streams.set(slot, at) }

// setStreamSeq keys a stream's slot at at with the sequence number seq
// taken earlier by setStream on the same slot: its place among the events
// at at is where it was when seq was taken.
func (a *agenda) setStreamSeq(slot int, at algos.Time, seq uint64) { a.streams.setSeq(slot, at, seq) }

// schedule adds a one-shot event.
func (a *agenda) schedule(e event) { a.oneShot.push(e) }

// The timeline's slots.
func (a *agenda) setMilestone(at algos.Time) {
	a.milestone = at
	a.timeline = min(a.milestone, a.sample)
}

func (a *agenda) setSample(at algos.Time) {
	a.sample = at
	a.timeline = min(a.milestone, a.sample)
}

// next returns the earliest event if it is due by end, else nil. A
// one-shot event is taken off the heap; a stream's stays, and its handler
// re-keys it. The event is the agenda's until the next call.
func (a *agenda) next(end algos.Time) *event {
	var k streamKey
	if a.root != nil { // a tree's
		k = *a.root
	} else {
		k = a.streams.top()
	}
	service := false
	if a.svcAt <= k.at { // rarely: most runs key few service slots, if any
		if ks := a.services.top(); ks.before(k) {
			k, service = ks, true
		}
	}
	at := k.at
	var h *event
	if a.oneShot.settle(); len(a.oneShot.items) > 0 {
		if h = &a.oneShot.items[0]; h.at < at || (h.at == at && h.seq < k.seqSlot>>slotBits) {
			at = h.at
		} else {
			h = nil
		}
	}
	if tl := a.timeline; tl <= at {
		if tl > end {
			return nil
		}
		a.cur = event{at: tl, kind: evSample}
		if a.milestone == tl {
			a.cur.kind = evMilestone
			a.setMilestone(algos.Never)
		} else {
			a.setSample(algos.Never)
		}
		return &a.cur
	}
	if at > end {
		return nil
	}
	if h != nil {
		a.cur = a.oneShot.take()
		return &a.cur
	}
	// Only the fields a stream's kind names are set: the others are not read.
	a.cur.at = at
	switch slot := int32(k.seqSlot & (1<<slotBits - 1)); {
	case service:
		a.cur.kind, a.cur.port = evDepart, slot
	case slot < a.hosts:
		a.cur.kind, a.cur.host = evHostFrame, slot
	case slot < a.hosts+a.ports:
		a.cur.kind, a.cur.port = evLinkFrame, slot-a.hosts
	default:
		a.cur.kind, a.cur.port = evReceiveFrame, slot-a.hosts-a.ports
	}
	return &a.cur
}

// peek is the time of the earliest event.
func (a *agenda) peek() algos.Time {
	at := min(a.streams.top().at, a.services.top().at, a.milestone, a.sample)
	if a.oneShot.len() > 0 {
		at = min(at, a.oneShot.peek().at)
	}
	return at
}

// eventHeap is a binary min-heap of events by value: no allocation per event.
// take hands out the earliest event but leaves its slot in place, so that the
// push that usually follows (a timer re-armed, feedback answered) reuses the
// root with one sift down instead of a pop and a push.
type eventHeap struct {
	items []event
	seq   *uint64 // shared with the streams, whose events interleave deterministically
	taken bool    // items[0] was handed out by take and is free
}

func (h *eventHeap) len() int {
	h.settle()
	return len(h.items)
}

// take returns the earliest event, whose slot the next push may reuse.
func (h *eventHeap) take() event {
	h.settle()
	h.taken = true
	return h.items[0]
}

// settle removes a taken event that no push has reused.
func (h *eventHeap) settle() {
	if h.taken {
		h.taken = false
		h.pop()
	}
}

// The heap is 4-ary: a sift down, the common operation, visits half as many
// levels as in a binary heap, and moves a hole instead of swapping.
const heapArity = 4

func (h *eventHeap) push(e event) {
	*h.seq++
	e.seq = *h.seq
	if h.taken {
		h.taken = false
		h.siftDown(0, e)
		return
	}
	h.items = append(h.items, e)
	i := len(h.items) - 1
	for i > 0 {
		parent := (i - 1) / heapArity
		if !e.before(&h.items[parent]) {
			break
		}
		h.items[i] = h.items[parent]
		i = parent
	}
	h.items[i] = e
}

func (h *eventHeap) pop() event {
	h.settle()
	top := h.items[0]
	last := len(h.items) - 1
	e := h.items[last]
	h.items = h.items[:last]
	if last > 0 {
		h.siftDown(0, e)
	}
	return top
}

// siftDown places e in the hole at i and below.
func (h *eventHeap) siftDown(i int, e event) {
	items := h.items
	n := len(items)
	for {
		first := heapArity*i + 1
		if first >= n {
			break
		}
		best := first
		for c := first + 1; c < first+heapArity && c < n; c++ {
			if items[c].before(&items[best]) {
				best = c
			}
		}
		if !items[best].before(&e) {
			break
		}
		items[i] = items[best]
		i = best
	}
	items[i] = e
}

func (h *eventHeap) peek() *event {
	h.settle()
	return &h.items[0]
}

// streamQueue orders the streams' next arrivals: a radix heap over their
// times, with a sorted front. A key lands in the bucket named by the
// highest 6-bit digit in which its time differs from base and by that
// digit's value; every key in a bucket is after base, every key at or
// before it is in the front, in order. When the front runs out, the lowest
// bucket's keys, the earliest of all, are sorted into the front if they
// are few (base becomes the latest of them), or else spread over the
// buckets below relative to the earliest of them, which becomes base. A
// frame's arrival lands a few microseconds ahead and is moved once or twice
// before it runs, on arrays read and written in order, whatever the number
// of streams, where a tree over every stream climbed and rewrote all its
// levels (17 at 55,000 streams, most of them cache misses). Any correct
// priority queue over the same keys gives the same run: the keys, (time,
// sequence number), are unique.
//
// A slot re-keyed while its key waits in a bucket leaves that key behind,
// stale: the keys array says which key is the slot's, and stale keys are
// dropped as they reach the front (or all at once, should they pile up).
// The engine's usual pattern, the earliest slot re-keyed by its own event,
// takes its key off the front at once.
//
// With up to treeMax streams, a tournament tree costs less, and the
// queue is one: every stream owns a leaf; changing a stream's key replays
// the matches on its path to the root, which holds the earliest key and
// is the front. Its matches take no branch and its upper levels stay in
// the cache, where the radix heap's sort of each bucket into the front
// loses about a branch a key and its buckets' chunks miss the cache.
//
// With more than calendarMin streams, where the links suit it, the queue
// is a calendar (calendar.go): the radix heap's front, keys and stale keys,
// with a ring of wide spans instead of the buckets, each span's keys
// written at one of a few dozen tails and sorted into the front by a
// counting sort.
type streamQueue struct {
	nodes   []streamKey // the tree, if any: nodes[1] is the root, leaves start at size; empty leaves are Never
	size    int
	keys    []streamKey // each slot's key, at Never if it has none
	front   []streamKey // keys at or before base, in order from head
	head    int
	ready   int    // front[head:ready] are current keys (no stale one among them)
	stale   int    // keys held for slots re-keyed since
	base    uint64 // a biased time (signBit)
	levels  uint32 // bit l: a bucket of level l holds keys
	used    [radixLevels][radixWidth / 64]uint64
	buckets [radixLevels * radixWidth]keyList
	chunks  []keyChunk // the buckets' keys; chunks[0] is none
	next    []uint32   // each chunk's next in its list
	free    uint32     // a list of unused chunks, 0 if none
	count   *uint64
	scratch []streamKey // purge's
	cal     calendar    // the calendar's ring, if the queue is one (calendar.go)
	early   keyHeap     // a calendar's keys at or before base set since its span was sorted
}

// keyList is a bucket's keys, in a list of chunks: the memory held
// follows the keys held, whatever the buckets a run goes through.
type keyList struct {
	first, last uint32 // chunks, 0 if none
	fill        uint32 // keys in the last chunk
}

// chunkKeys is the size of a chunk, and the most keys of a bucket sorted
// into the front at once (a bucket of one chunk): they come in no order,
// and an insertion sort of more would cost more than spreading them.
const chunkKeys = 32

type keyChunk [chunkKeys]streamKey

// streamKey is a slot's key: its time, and the tie-breaking sequence number
// with the slot in its low bits.
type streamKey struct {
	at      algos.Time
	seqSlot uint64 // seq<<slotBits | slot
}

func (k streamKey) before(o streamKey) bool {
	return k.at < o.at || k.at == o.at && k.seqSlot < o.seqSlot
}

func (k streamKey) slot() int { return int(k.seqSlot & (1<<slotBits - 1)) }

const (
	// A level for each 8-bit digit of a time, 256 buckets in each.
	radixBits   = 8
	radixWidth  = 1 << radixBits
	radixLevels = 64 / radixBits
	// signBit biases a time so that its bits order as the signed time does.
	signBit = 1 << 63
)

// slotBits bounds the streams the agenda holds (hosts and three per switch
// port: about a million), and leaves 44 bits of sequence numbers, two days
// of scheduling at 10^8 a second.
const slotBits = 20

// MaxSources is the most sources a chain can have.
const MaxSources = 1 << 16

// maxStreams is the most streams, hosts' and three per port, the engine
// can follow.
const maxStreams = 1 << slotBits

// treeMax is the most streams a tree orders, up to 16,384 leaves (14
// levels, 512 KB of nodes): fat-trees up to k = 16 (6,144 streams, 11,264
// with receivers followed; their 5,120 service slots in a tree of their
// own); from k = 20 with receivers followed (22,000 streams), which had a
// tree of 32,768 leaves before the service slots moved out, a radix heap.
// In CPU time the tree is the cheaper queue at k = 4, 8, 12 and 16,
// although it runs more instructions (at k = 8 the agenda took 18-25% less
// time, measured as its share of perf's samples against the rest of the
// run); the radix heap keeps the largest fabrics (k = 24 and up), whose
// tree would climb 15 levels and more, of which the lower miss the cache
// (at k = 24, 20,736 streams, a tree measured no faster: six alternating
// pairs, 0.93-1.13 of the heap's CPU time, median 1.05; with the faster
// matches, five pairs, 0.94-1.04, median 1.00).
const treeMax = 1 << 14

// calendarMin is the most streams a tree orders where a calendar suits
// (calendarShape): above it, the calendar costs less. CPU time a hop,
// `qcnlab bench` on fat-trees, the two runs of a pair at once, one a core,
// eight pairs, medians and ranges of the calendar's over the tree's:
// k = 8 (768 streams) 1.06 (1.03-1.09), k = 12 (2,592) 0.95 (0.92-0.97),
// k = 16 (6,144) 0.90 (0.85-0.97) without prefetching and 0.93 (0.85-1.01)
// with it (aheadMin); over the radix heap's at k = 24 (20,736) 0.72
// (0.63-0.91). The tree's climbs take no branch and its nodes stay in the
// cache up to some thousands of streams; the calendar's ring and its
// spans' tails stay in the cache at any size, it runs fewer instructions
// than the radix heap (399 against 487 a hop at k = 24) and misses less
// (1.28 misses a hop against 1.56, cachegrind with the 1 MB L2 as its last
// level), and its long front lets prefetching look ahead at every event.
const calendarMin = 2048

// agendaEstimate is the most the queues of an agenda for hosts and ports
// hold, receivers followed or not: the load-time estimate's share for it
// (TestAgendaMemoryWithinItsEstimate).
func agendaEstimate(hosts, ports int) float64 {
	return agendaMemory(hosts+2*ports) + agendaMemory(ports)
}

// agendaMemory is the most a streamQueue of the agenda's streams holds
// with n streams, in whichever form init may give it: a tree's nodes; or
// each slot's key, the keys held (every slot's, as many stale ones before
// a purge, and a chunk begun in every bucket), the front (up to every key
// held, in a slice grown by appends) and a scratch slice: purge's in a
// radix heap; in a calendar, as much as the front, to sort a span in, far
// and early (each up to every key held, grown by appends).
func agendaMemory(n int) float64 {
	key := float64(unsafe.Sizeof(streamKey{}))
	keys := float64(2*n + 1024)
	chunked := func(buckets int) float64 { // the keys held in chunks, and their next links
		held := keys + float64(buckets*chunkKeys)
		return key*held + float64(unsafe.Sizeof(uint32(0)))*held/chunkKeys
	}
	most := 0.0
	if n <= treeMax {
		most = 2 * key * float64(uint64(1)<<bits.Len64(uint64(n)))
	} else {
		most = key*float64(n+2*n+n) + chunked(radixLevels*radixWidth)
	}
	if n > calendarMin {
		ring := float64(calBuckets)*float64(unsafe.Sizeof(keyList{})+1) + 4<<12 // and radixSort's counts
		most = max(most, key*(float64(n)+2*keys+2*keys+2*keys+2*keys)+chunked(calBuckets)+ring)
	}
	return most + float64(unsafe.Sizeof(streamQueue{}))
}

// init sets up n empty slots whose sequence numbers come from count.
func (q *streamQueue) init(n int, count *uint64) { q.setup(n, count, n <= treeMax) }

// setup is init with a tree or a radix heap (setupCalendar: a calendar).
func (q *streamQueue) setup(n int, count *uint64, tree bool) {
	*q = streamQueue{count: count}
	if tree {
		q.size = 1
		for q.size < n {
			q.size *= 2
		}
		q.nodes = make([]streamKey, 2*q.size)
		for i := range q.nodes {
			q.nodes[i] = streamKey{at: algos.Never, seqSlot: 1<<slotBits - 1}
		}
		q.front, q.ready = q.nodes[1:2:2], 1 // the root, always current
		return
	}
	q.keys = make([]streamKey, n)
	for i := range q.keys {
		q.keys[i] = streamKey{at: algos.Never, seqSlot: uint64(i)}
	}
	q.chunks, q.next = make([]keyChunk, 1, 8), make([]uint32, 1, 8)
	for i := range q.buckets {
		q.buckets[i].fill = chunkKeys
	}
}

// set gives stream slot the key at with a new sequence number, which it
// returns.
func (q *streamQueue) set(slot int, at algos.Time) uint64 {
	*q.count++
	q.setSeq(slot, at, *q.count)
	return *q.count
}

// setSeq gives stream slot the key at with the sequence number seq.
func (q *streamQueue) setSeq(slot int, at algos.Time, seq uint64) {
	if nodes := q.nodes; nodes != nil {
		// Each match is played without a branch, for its outcome is a
		// coin toss the branch predictor would lose half the time: the
		// keys compare as 128-bit numbers (time, then sequence), and the
		// sign of their difference selects the winner (two conditional
		// moves). A key's time is never negative (a time past Never is
		// Never: host.go's later), so the difference of two times, less
		// the sequence's borrow, cannot overflow; the borrow
		// out of it says the same, but Go makes a number of it before
		// testing it (two more instructions on every match's path). The
		// climb walks byte offsets into the nodes, checked once: every
		// offset it takes is below the leaf's (a sibling's or a
		// parent's), which indexing would check again at every level, a
		// third of the climb's instructions.
		//
		// A 4-ary tree (each group of siblings one aligned cache line:
		// half the levels, half the lines a climb writes) measured
		// slower, with the same matches: at k = 16 a median 1.21 times
		// this tree's CPU time (0.87-2.13, 44 alternating rounds), at
		// k = 8 1.00-1.08 (the medians of three sets of rounds). Under
		// cachegrind it ran a quarter more of the agenda's instructions
		// (three matches a level) for half its first-level write misses.
		const size = unsafe.Sizeof(streamKey{})
		var _ [1]struct{} = [size&(size-1) + 1]struct{}{} // a power of two: o^size, o>>1&^(size-1)
		leaf := uintptr(q.size + slot)
		base := unsafe.Pointer(&nodes[leaf])
		base = unsafe.Add(base, -int(leaf*size)) // &nodes[0]
		aAt, aSeq := uint64(at), seq<<slotBits|uint64(slot)
		o := leaf * size
		*(*streamKey)(unsafe.Add(base, o)) = streamKey{at: at, seqSlot: aSeq}
		for ; o > size; o = o >> 1 &^ (size - 1) {
			// a is the winner below o; play it against its sibling b.
			b := (*streamKey)(unsafe.Add(base, o^size))
			bAt, bSeq := uint64(b.at), b.seqSlot
			_, borrow := bits.Sub64(bSeq, aSeq, 0)
			if d, _ := bits.Sub64(bAt, aAt, borrow); int64(d) < 0 { // b wins
				aAt, aSeq = bAt, bSeq
			}
			*(*streamKey)(unsafe.Add(base, o>>1&^(size-1))) = streamKey{at: algos.Time(aAt), seqSlot: aSeq}
		}
		return
	}
	k := streamKey{at: at, seqSlot: seq<<slotBits | uint64(slot)}
	old := &q.keys[slot]
	if old.at != algos.Never {
		if q.head < len(q.front) && q.front[q.head] == *old {
			q.head++ // the earliest, re-keyed by its own event: off at once
		} else {
			q.stale++
			q.ready = q.head // it may be in the front
		}
	}
	*old = k
	if at != algos.Never {
		if u := uint64(at) ^ signBit; u > q.base {
			if q.cal.ring != nil {
				q.calAdd(k, u)
			} else {
				q.bucket(k, u)
			}
		} else if q.cal.ring != nil {
			q.calEarly(k, u)
		} else {
			q.toFront(k)
		}
	}
	if q.stale > len(q.keys)+1024 {
		q.purge()
	}
}

// bucket adds k, whose biased time u is after base, to its bucket.
func (q *streamQueue) bucket(k streamKey, u uint64) {
	l := uint(bits.Len64(u^q.base)-1) / radixBits
	d := u >> (radixBits * l & 63) & (radixWidth - 1)
	b := &q.buckets[(l*radixWidth+uint(d))%(radixLevels*radixWidth)]
	if b.fill == chunkKeys {
		q.grow(b, l, uint(d))
	}
	q.chunks[b.last][b.fill%chunkKeys] = k
	b.fill++
}

// grow gives list b, of bucket d of level l, a new last chunk.
func (q *streamQueue) grow(b *keyList, l, d uint) {
	if q.chain(b) {
		q.used[l%radixLevels][d/64%(radixWidth/64)] |= 1 << (d % 64)
		q.levels |= 1 << l
	}
}

// chain gives list b a new last chunk, and reports whether it is the
// list's first.
func (q *streamQueue) chain(b *keyList) bool {
	c := q.free
	if c != 0 {
		q.free = q.next[c]
	} else {
		c = uint32(len(q.chunks))
		q.chunks = append(q.chunks, keyChunk{})
		q.next = append(q.next, 0)
	}
	q.next[c] = 0
	first := b.first == 0
	if first {
		b.first = c
	} else {
		q.next[b.last] = c
	}
	b.last, b.fill = c, 0
	return first
}

// take empties bucket b and returns its keys, whose chunks are the
// bucket's until release.
func take(b *keyList) keyList {
	list := *b
	*b = keyList{fill: chunkKeys}
	return list
}

// release puts the chunks of list, read, on the free list.
func (q *streamQueue) release(list keyList) {
	q.next[list.last] = q.free
	q.free = list.first
}

// toFront adds k, at or before base, to the front in order.
func (q *streamQueue) toFront(k streamKey) {
	if len(q.front) == cap(q.front) && q.head > 0 { // room from the keys gone
		q.front = q.front[:copy(q.front, q.front[q.head:])]
		q.head = 0
	}
	q.front = append(q.front, k)
	i := len(q.front) - 1
	for ; i > q.head && k.before(q.front[i-1]); i-- {
		q.front[i] = q.front[i-1]
	}
	q.front[i] = k
	q.ready = q.head
}

// top returns the earliest key, at Never if there is none.
func (q *streamQueue) top() streamKey {
	if q.head < q.ready {
		return q.front[q.head]
	}
	return q.settle()
}

// settle drops the stale keys at the front and refills it when it runs
// out, and returns the earliest key.
func (q *streamQueue) settle() streamKey {
	for {
		if len(q.early) > 0 {
			if k, ok := q.settleEarly(); ok {
				return k
			}
		}
		if q.head < len(q.front) {
			k := q.front[q.head]
			if q.stale == 0 {
				q.ready = len(q.front)
				return k
			}
			if k == q.keys[k.slot()] {
				q.ready = q.head + 1
				return k
			}
			q.head++
			q.stale--
			continue
		}
		q.front, q.head, q.ready = q.front[:0], 0, 0
		if q.cal.ring != nil {
			if !q.calRefill() {
				return streamKey{at: algos.Never}
			}
			continue
		}
		if q.levels == 0 {
			return streamKey{at: algos.Never}
		}
		q.refill()
	}
}

// settleEarly is settle for a calendar with early keys: the earlier of the
// front's and early's earliest current keys; false if early holds only
// stale keys, now dropped. The front is ready (top's fast path) only as
// far as its keys come before early's earliest: with no stale key, the
// front's keys before it, found by halving.
func (q *streamQueue) settleEarly() (streamKey, bool) {
	for q.head < len(q.front) && q.stale > 0 && q.front[q.head] != q.keys[q.front[q.head].slot()] {
		q.head++
		q.stale--
	}
	for len(q.early) > 0 && q.stale > 0 && q.early[0] != q.keys[q.early[0].slot()] {
		q.early.pop()
		q.stale--
	}
	q.ready = q.head
	if len(q.early) == 0 {
		return streamKey{}, false
	}
	e := q.early[0]
	if q.head == len(q.front) || e.before(q.front[q.head]) {
		return e, true
	}
	if q.stale > 0 {
		q.ready = q.head + 1
		return q.front[q.head], true
	}
	lo, hi := q.head+1, len(q.front) // front[lo-1] is before e; front[hi] is not, if any
	for lo < hi {
		if m := int(uint(lo+hi) / 2); q.front[m].before(e) {
			lo = m + 1
		} else {
			hi = m
		}
	}
	q.ready = lo
	return q.front[q.head], true
}

// refill moves the lowest bucket's keys to the front (sorted, if they are
// few), or else spreads them below.
func (q *streamQueue) refill() {
	l := uint(bits.TrailingZeros32(q.levels)) % radixLevels
	used := &q.used[l]
	w := uint(0)
	for used[w%(radixWidth/64)] == 0 {
		w++
	}
	w %= radixWidth / 64
	d := w*64 + uint(bits.TrailingZeros64(used[w]))
	if used[w] &^= 1 << (d % 64); used[w] == 0 && *used == [radixWidth / 64]uint64{} {
		q.levels &^= 1 << l
	}
	b := &q.buckets[(l*radixWidth+d)%(radixLevels*radixWidth)]
	list := take(b)
	if list.first == list.last {
		f := append(q.front, q.chunks[list.first][:list.fill]...) // the front is empty
		q.release(list)
		for j := 1; j < len(f); j++ {
			k, i := f[j], j
			for ; i > 0 && k.before(f[i-1]); i-- {
				f[i] = f[i-1]
			}
			f[i] = k
		}
		q.front = f
		q.base = uint64(f[len(f)-1].at) ^ signBit
		return
	}
	// Spread below, relative to the earliest. The chunks are read by
	// index: adding to other buckets may move them.
	base := uint64(q.chunks[list.first][0].at) ^ signBit
	for c := list.first; ; c = q.next[c] {
		n := chunkKeys
		if c == list.last {
			n = int(list.fill)
		}
		for _, k := range q.chunks[c][:n] {
			base = min(base, uint64(k.at)^signBit)
		}
		if c == list.last {
			break
		}
	}
	q.base = base
	for c := list.first; ; c = q.next[c] {
		n := chunkKeys
		if c == list.last {
			n = int(list.fill)
		}
		for i := range n {
			k := q.chunks[c][i]
			if u := uint64(k.at) ^ signBit; u != base {
				q.bucket(k, u)
			} else {
				q.front = append(q.front, k)
			}
		}
		if c == list.last {
			break
		}
	}
	q.release(list)
	// The front's keys share a time: in order of their sequence numbers.
	f := q.front
	for j := 1; j < len(f); j++ {
		k := f[j]
		i := j
		for ; i > 0 && k.seqSlot < f[i-1].seqSlot; i-- {
			f[i] = f[i-1]
		}
		f[i] = k
	}
}

// purge drops every stale key, should they pile up: a slot re-keyed again
// and again before its keys' times (a host's next arrival moved by each
// ACK).
func (q *streamQueue) purge() {
	current := func(k streamKey) bool { return k == q.keys[k.slot()] }
	kept := 0
	for _, k := range q.front[q.head:] {
		if current(k) {
			q.front[kept] = k
			kept++
		}
	}
	q.front, q.head, q.ready = q.front[:kept], 0, 0
	if q.cal.ring != nil {
		kept += q.calPurge(current) + q.early.keep(current)
	}
	for i := range q.buckets {
		b := &q.buckets[i]
		if b.first == 0 {
			continue
		}
		q.keepCurrent(take(b), current)
		l, d := uint(i/radixWidth), uint(i%radixWidth)
		if len(q.scratch) == 0 {
			q.used[l][d/64] &^= 1 << (d % 64)
			if q.used[l] == [radixWidth / 64]uint64{} {
				q.levels &^= 1 << l
			}
		}
		for _, k := range q.scratch {
			if b.fill == chunkKeys {
				q.grow(b, l, d)
			}
			q.chunks[b.last][b.fill%chunkKeys] = k
			b.fill++
		}
		kept += len(q.scratch)
	}
	// Identical keys set twice both stay: the extra is stale.
	q.stale = kept
	for _, k := range q.keys {
		if k.at != algos.Never {
			q.stale--
		}
	}
}

// ahead is the slot of the key d places after the earliest in a radix
// heap's front, if the front holds one (it may have gone stale): an event
// to come, for prefetching (prefetch.go). A tree has no front.
func (q *streamQueue) ahead(d int) (int, bool) {
	if i := q.head + d; i < len(q.front) && q.nodes == nil {
		return q.front[i].slot(), true
	}
	return 0, false
}

// keepCurrent sets scratch to the keys of list, a bucket's taken whole,
// that current reports, and frees list's chunks (purge, calPurge).
func (q *streamQueue) keepCurrent(list keyList, current func(streamKey) bool) {
	q.scratch = q.scratch[:0]
	for c := list.first; ; c = q.next[c] {
		n := chunkKeys
		if c == list.last {
			n = int(list.fill)
		}
		for _, k := range q.chunks[c][:n] {
			if current(k) {
				q.scratch = append(q.scratch, k)
			}
		}
		if c == list.last {
			break
		}
	}
	q.release(list)
}
