package model

import (
	"math/bits"

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
// keyed by its front frame's arrival (its departure), in a tournament tree.
// The rest (feedback, timers, PAUSE) are one-shot events in a heap. Both
// draw their tie-breaking sequence numbers from one counter. The timeline
// has two slots of its own, the next milestone and the next sample, which
// run before any other event at their time, a milestone before a sample.
type agenda struct {
	streams   streamTree
	oneShot   eventHeap
	seq       uint64
	milestone algos.Time // Never if none
	sample    algos.Time
	timeline  algos.Time // the earlier of the two
	root      *treeKey   // the streams' earliest
	hosts     int32      // streams [0, hosts) are hosts'; then ports' links; ports' service; ports' deliveries
	ports     int32
	cur       event // the event next handed out
}

// init sets up an empty agenda in place (its parts share its counter).
func (a *agenda) init(hosts, ports int, receivers bool) {
	n := hosts + 2*ports
	if receivers {
		n += ports
	}
	*a = agenda{hosts: int32(hosts), ports: int32(ports), milestone: algos.Never, sample: algos.Never, timeline: algos.Never}
	a.streams = newStreamTree(n, &a.seq)
	a.root = &a.streams.nodes[1]
	a.oneShot.seq = &a.seq
}

// The streams' slots.
func (a *agenda) hostSlot(h int32) int    { return int(h) }
func (a *agenda) linkSlot(p int32) int    { return int(a.hosts + p) }
func (a *agenda) serviceSlot(p int32) int { return int(a.hosts + a.ports + p) }
func (a *agenda) receiveSlot(p int32) int { return int(a.hosts + 2*a.ports + p) }

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
	k := a.root
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
	case slot < a.hosts:
		a.cur.kind, a.cur.host = evHostFrame, slot
	case slot < a.hosts+a.ports:
		a.cur.kind, a.cur.port = evLinkFrame, slot-a.hosts
	case slot < a.hosts+2*a.ports:
		a.cur.kind, a.cur.port = evDepart, slot-a.hosts-a.ports
	default:
		a.cur.kind, a.cur.port = evReceiveFrame, slot-a.hosts-2*a.ports
	}
	return &a.cur
}

// peek is the time of the earliest event.
func (a *agenda) peek() algos.Time {
	at := min(a.streams.top().at, a.milestone, a.sample)
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

// streamTree is a tournament tree over the streams' next arrivals. Every
// stream owns one leaf; changing a stream's key replays the matches on its
// path to the root, which holds the earliest arrival. Nodes hold the winning
// key itself, 16 bytes: the time, and the tie-breaking sequence number with
// the stream in its low bits.
type streamTree struct {
	nodes []treeKey // nodes[1] is the root, leaves start at size; empty leaves are Never
	size  int
	count *uint64
}

type treeKey struct {
	at      algos.Time
	seqSlot uint64 // seq<<slotBits | slot
}

// slotBits bounds the streams the tree holds (hosts and three per switch
// port: about a million), and leaves 44 bits of sequence numbers, two days
// of scheduling at 10^8 a second.
const slotBits = 20

// MaxSources is the most sources a chain can have.
const MaxSources = 1 << 16

// maxStreams is the most streams, hosts' and three per port, the engine
// can follow.
const maxStreams = 1 << slotBits

func newStreamTree(n int, count *uint64) streamTree {
	size := 1
	for size < n {
		size *= 2
	}
	t := streamTree{nodes: make([]treeKey, 2*size), size: size, count: count}
	for i := range t.nodes {
		t.nodes[i] = treeKey{at: algos.Never, seqSlot: 1<<slotBits - 1}
	}
	return t
}

// set gives stream slot the key at and replays its path. Each match is
// played without a branch: the keys compare as 128-bit numbers (time, then
// sequence), whose borrow selects the winner, for the outcome of a match is
// a coin toss the branch predictor would lose half the time.
func (t *streamTree) set(slot int, at algos.Time) uint64 {
	*t.count++
	t.setSeq(slot, at, *t.count)
	return *t.count
}

// setSeq is set with the sequence number seq.
func (t *streamTree) setSeq(slot int, at algos.Time, seq uint64) {
	nodes := t.nodes
	i := uint(t.size + slot)
	aAt, aSeq := uint64(at), seq<<slotBits|uint64(slot)
	nodes[i] = treeKey{at: at, seqSlot: aSeq}
	for ; i > 1; i >>= 1 {
		// a is the winner below i; play it against i's sibling b.
		b := &nodes[i^1]
		bAt, bSeq := uint64(b.at), b.seqSlot
		_, borrow := bits.Sub64(aSeq, bSeq, 0)
		_, borrow = bits.Sub64(aAt, bAt, borrow) // 1: a < b
		keep := -borrow                          // all ones if a wins
		aAt = bAt ^ ((aAt ^ bAt) & keep)
		aSeq = bSeq ^ ((aSeq ^ bSeq) & keep)
		nodes[i>>1] = treeKey{at: algos.Time(aAt), seqSlot: aSeq}
	}
}

// top returns the earliest arrival as an event whose host field holds the
// slot; its at is Never if there is none.
func (t *streamTree) top() event {
	k := t.nodes[1]
	return event{at: k.at, seq: k.seqSlot >> slotBits, host: int32(k.seqSlot & (1<<slotBits - 1))}
}
