package model

import "qcnlab/algos"

// eventKind says what an event does when its time comes.
type eventKind uint8

const (
	evArrival  eventKind = iota // the next frame of a source reaches the switch
	evFeedback                  // a feedback frame reaches a source
	evTimer                     // a source's reaction-point timer may expire
	evFlow                      // a short flow arrives (traffic.go)
	evPause                     // a PFC XOFF (gen 1) or XON reaches a feeder (pfc.go)
	evXon                       // a pausing port may have drained to XON (pfc.go)
)

// event is a value in the event heap. Events at the same time run in the
// order they were scheduled (seq), which keeps every run deterministic.
// An event whose gen no longer matches its source's is stale and skipped.
type event struct {
	at   algos.Time
	seq  uint64
	src  int32
	gen  uint32
	kind eventKind
}

func (a *event) before(b *event) bool {
	return a.at < b.at || (a.at == b.at && a.seq < b.seq)
}

// eventHeap is a binary min-heap of events by value: no allocation per event.
// take hands out the earliest event but leaves its slot in place, so that the
// push that usually follows (a source scheduling its next arrival) reuses the
// root with one sift down instead of a pop and a push.
type eventHeap struct {
	items []event
	seq   *uint64 // shared by heaps whose events must interleave deterministically
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

// arrivalTree is a tournament tree over the sources' next arrivals. Every
// source owns one leaf; changing a source's key replays the matches on its
// path to the root, which holds the earliest arrival. Nodes hold the winning
// key itself, 16 bytes: the time, and the tie-breaking sequence number (the
// same counter as the heap of rare events) with the source in its low bits.
type arrivalTree struct {
	nodes []treeKey // nodes[1] is the root, leaves start at size; empty leaves are Never
	size  int
	count *uint64
}

type treeKey struct {
	at     algos.Time
	seqSrc uint64 // seq<<srcBits | source
}

// srcBits bounds the number of sources the tree can hold.
const srcBits = 16

// MaxSources is the most sources a simulation can have.
const MaxSources = 1 << srcBits

func newArrivalTree(n int, count *uint64) arrivalTree {
	size := 1
	for size < n {
		size *= 2
	}
	t := arrivalTree{nodes: make([]treeKey, 2*size), size: size, count: count}
	for i := range t.nodes {
		t.nodes[i] = treeKey{at: algos.Never, seqSrc: 1<<srcBits - 1}
	}
	return t
}

// set gives source src the key at and replays its path.
func (t *arrivalTree) set(src int, at algos.Time) {
	*t.count++
	nodes := t.nodes
	i := uint(t.size + src)
	a := treeKey{at: at, seqSrc: *t.count<<srcBits | uint64(src)}
	nodes[i] = a
	for ; i > 1; i >>= 1 {
		// a is the winner below i; play it against i's sibling.
		if b := nodes[i^1]; b.at < a.at || (b.at == a.at && b.seqSrc < a.seqSrc) {
			a = b
		}
		nodes[i>>1] = a
	}
}

// top returns the earliest arrival as an event; its at is Never if there is
// none.
func (t *arrivalTree) top() event {
	k := t.nodes[1]
	return event{at: k.at, seq: k.seqSrc >> srcBits, src: int32(k.seqSrc & (1<<srcBits - 1)), kind: evArrival}
}
