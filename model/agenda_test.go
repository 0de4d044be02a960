package model

import (
	"container/heap"
	"math/bits"
	"math/rand/v2"
	"testing"
	"unsafe"

	"qcnlab/algos"
	"qcnlab/model/topo"
)

// refKey is the reference queue's entry: a slot's key as the agenda orders
// it, by time, then sequence number.
type refKey struct {
	at   algos.Time
	seq  uint64
	slot int
}

// refQueue is the reference: container/heap over every key ever set, a key
// counting only while it is its slot's (cur).
type refQueue struct {
	h   refHeap
	cur []refKey
}

type refHeap []refKey

func (h refHeap) Len() int { return len(h) }
func (h refHeap) Less(i, j int) bool {
	return h[i].at < h[j].at || h[i].at == h[j].at && h[i].seq < h[j].seq
}
func (h refHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *refHeap) Push(x any)   { *h = append(*h, x.(refKey)) }
func (h *refHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

func (r *refQueue) set(slot int, at algos.Time, seq uint64) {
	r.cur[slot] = refKey{at: at, seq: seq, slot: slot}
	if at != algos.Never {
		heap.Push(&r.h, r.cur[slot])
	}
}

// top is the earliest current key, at Never if none.
func (r *refQueue) top() refKey {
	for len(r.h) > 0 && r.h[0] != r.cur[r.h[0].slot] {
		heap.Pop(&r.h)
	}
	if len(r.h) == 0 {
		return refKey{at: algos.Never}
	}
	return r.h[0]
}

// agendaPattern drives a streamQueue and the reference with the engine's
// patterns: the earliest slot re-keyed by its own event (later, or to
// Never), a slot keyed from Never with a sequence number it took earlier
// (setStreamSeq), other slots re-keyed (earlier, later, Never), keys at
// the present or in its past, ties; and checks every earliest key.
type agendaPattern struct {
	n       int
	delay   func(r *rand.Rand) algos.Time // how far ahead a re-keyed slot lands
	past    bool                          // keys before the present too
	tree    bool                          // the queue as a tree
	cal     *calShape                     // the queue as a calendar of this shape
	others  int                           // in 100: a random slot re-keyed after an event
	steps   int
	seedKey uint64
}

func (p agendaPattern) run(t *testing.T) {
	r := rand.New(rand.NewPCG(p.seedKey, uint64(p.n)))
	var seq uint64
	var q streamQueue
	p.setup(&q, &seq)
	ref := refQueue{cur: make([]refKey, p.n)}
	for i := range ref.cur {
		ref.cur[i] = refKey{at: algos.Never}
	}
	taken := make([]uint64, p.n) // each slot's sequence number taken with Never, 0 once used
	set := func(slot int, at algos.Time) {
		s := q.set(slot, at)
		ref.set(slot, at, s)
		if at == algos.Never {
			taken[slot] = s
		}
	}
	var now algos.Time
	for i := 0; i < p.n; i++ {
		if r.IntN(3) > 0 {
			set(i, p.delay(r))
		}
	}
	for step := 0; step < p.steps; step++ {
		got, want := q.top(), ref.top()
		if got.at != want.at || want.at != algos.Never && (got.seqSlot>>slotBits != want.seq || got.slot() != want.slot) {
			t.Fatalf("n=%d tree %v calendar %v step %d: top at %d seq %d slot %d, want at %d seq %d slot %d", p.n, p.tree, p.cal, step,
				got.at, got.seqSlot>>slotBits, got.slot(), want.at, want.seq, want.slot)
		}
		if want.at != algos.Never {
			now = max(now, want.at)
			// The event re-keys its own slot: later, or to Never.
			if r.IntN(6) == 0 {
				set(want.slot, algos.Never)
			} else {
				set(want.slot, now+p.delay(r))
			}
		}
		// A slot taken to Never comes back with its sequence number.
		if s := r.IntN(p.n); taken[s] != 0 && ref.cur[s].at == algos.Never && r.IntN(2) == 0 {
			at := now + p.delay(r)
			if p.past && r.IntN(8) == 0 {
				at = max(0, now-algos.Time(r.IntN(1000))) // the engine's times are never negative
			}
			q.setSeq(s, at, taken[s])
			ref.set(s, at, taken[s])
			taken[s] = 0
		}
		if r.IntN(100) < p.others {
			s := r.IntN(p.n)
			switch r.IntN(4) {
			case 0:
				set(s, algos.Never)
			case 1:
				set(s, now) // at the present: ties with the earliest
			case 2:
				if p.past {
					set(s, max(0, now-algos.Time(r.IntN(1000))))
					break
				}
				fallthrough
			default:
				set(s, now+p.delay(r))
			}
		}
	}
}

// calShape is a calendar's span (log2, in picoseconds) and ring size.
type calShape struct {
	shift   uint
	buckets int
}

// setup sets q up in the pattern's form.
func (p agendaPattern) setup(q *streamQueue, seq *uint64) {
	if p.cal != nil {
		q.setupCalendar(p.n, seq, p.cal.shift, p.cal.buckets)
		return
	}
	q.setup(p.n, seq, p.tree)
}

// testPace is the bench fabric's: 1500-byte frames at 10 Gbps over 1 us links.
var testPace = streamPace{soonest: algos.Microsecond, reach: 2200 * algos.Nanosecond}

// calShapes are the calendars each pattern runs in: as the agenda would
// choose at the bench's pace; one whose ring is so short (64 spans of
// 256 ps) that most keys wait in far and move into the ring as it turns;
// and one of spans so wide (1 us) that most keys of a span are radix
// sorted and many land in the span being handled.
func calShapes(n int) []calShape {
	shift, _ := calendarShape(testPace)
	return []calShape{{shift, calBuckets}, {8, 64}, {20, 64}}
}

// The agenda's streams come out exactly in the order of a plain priority
// queue over (time, sequence number), over sizes from one slot to a k = 24
// fabric's and delays from none to seconds, in a radix heap, in calendars
// and (for the sizes it takes) in a tree.
func TestStreamQueueMatchesAReferenceQueue(t *testing.T) {
	frameDelay := func(r *rand.Rand) algos.Time { // a link, a frame time, jitter
		return algos.Microsecond + 1200*algos.Nanosecond + algos.Time(r.IntN(1200))*algos.Nanosecond
	}
	coarse := func(r *rand.Rand) algos.Time { return algos.Time(r.IntN(8)) * 1000 } // many ties
	wide := func(r *rand.Rand) algos.Time { return algos.Time(r.Int64N(int64(algos.Second))) >> r.IntN(40) }
	for _, p := range []agendaPattern{
		{n: 1, delay: coarse, others: 30, steps: 2000},
		{n: 2, delay: coarse, past: true, others: 30, steps: 5000},
		{n: 3, delay: coarse, past: true, others: 30, steps: 5000},
		{n: 4, delay: coarse, past: true, others: 30, steps: 5000},
		{n: 5, delay: coarse, past: true, others: 40, steps: 10000},
		{n: 17, delay: coarse, past: true, others: 50, steps: 20000},
		{n: 17, delay: wide, past: true, others: 50, steps: 20000},
		{n: 65, delay: coarse, past: true, others: 50, steps: 20000},
		{n: 300, delay: frameDelay, others: 5, steps: 50000},
		{n: 300, delay: wide, past: true, others: 20, steps: 50000},
		{n: 1000, delay: coarse, past: true, others: 30, steps: 50000},
		{n: 1000, delay: frameDelay, others: 5, steps: 50000},
		{n: 3000, delay: frameDelay, past: true, others: 3, steps: 100000},
		{n: 4097, delay: coarse, past: true, others: 20, steps: 50000},
		{n: treeMax, delay: frameDelay, others: 10, steps: 50000},
		{n: 55296, delay: frameDelay, others: 3, steps: 200000},
	} {
		p.seedKey = 3
		p.run(t)
		for _, c := range calShapes(p.n) {
			p.cal = &c
			p.run(t)
		}
		p.cal = nil
		if p.n <= treeMax {
			p.tree = true
			p.run(t)
		}
	}
}

// Every node of a tree above the leaves holds the earliest of its two
// children's keys after every step of the engine's patterns, over trees
// of one level to several, full and not, with many ties in time.
func TestStreamTreeNodesHoldTheirChildrensWinner(t *testing.T) {
	for _, n := range []int{1, 2, 3, 4, 5, 6, 16, 17, 21, 64, 85, 100, 1000, 1025} {
		var seq uint64
		var q streamQueue
		q.setup(n, &seq, true)
		r := rand.New(rand.NewPCG(uint64(n), 7))
		for step := range 20 * n {
			slot := r.IntN(n)
			switch r.IntN(5) {
			case 0:
				q.set(slot, algos.Never)
			default:
				q.set(slot, algos.Time(r.IntN(max(n/2, 3)))*algos.Nanosecond) // ties, often
			}
			if step%7 != 0 && step != 20*n-1 {
				continue
			}
			for i := 1; i < q.size; i++ {
				want := q.nodes[2*i]
				if q.nodes[2*i+1].before(want) {
					want = q.nodes[2*i+1]
				}
				if q.nodes[i] != want {
					t.Fatalf("n=%d step %d: node %d holds %+v, want its children's winner %+v", n, step, i, q.nodes[i], want)
				}
			}
			if got := q.top(); got != q.nodes[1] {
				t.Fatalf("n=%d: top %+v, not the root %+v", n, got, q.nodes[1])
			}
		}
	}
}

// A tree orders keys at the ends of time's range (0, Never and next to
// them), where the difference of two times is largest, and ties there; so
// does a calendar, whose last span (Never's) ends time.
func TestStreamTreeOrdersTheExtremesOfTime(t *testing.T) {
	times := []algos.Time{algos.Never - 1, 0, algos.Never - 1, 1 << 62, 0, 1<<62 + 1, algos.Never - 2, 1, 0, algos.Never - 1}
	for _, p := range []agendaPattern{{tree: true}, {cal: &calShape{10, 64}}, {cal: &calShape{0, 64}}} {
		var seq uint64
		var q streamQueue
		p.n = len(times)
		p.setup(&q, &seq)
		ref := refQueue{cur: make([]refKey, len(times))}
		for i, at := range times {
			ref.set(i, at, q.set(i, at))
		}
		for range times {
			got, want := q.top(), ref.top()
			if got.at != want.at || got.slot() != want.slot {
				t.Fatalf("calendar %v: top at %d slot %d, want at %d slot %d", p.cal, got.at, got.slot(), want.at, want.slot)
			}
			ref.set(want.slot, algos.Never, q.set(want.slot, algos.Never))
		}
		if got := q.top(); got.at != algos.Never {
			t.Errorf("calendar %v: top at %d slot %d after all, want none", p.cal, got.at, got.slot())
		}
	}
}

// Stale keys (slots re-keyed while their keys wait) are dropped all at once
// when they pile up, and the order stays right.
func TestStreamQueuePurgesStaleKeys(t *testing.T) {
	for _, p := range []agendaPattern{{}, {cal: &calShape{8, 64}}, {cal: &calShape{30, 64}}} {
		p.n = 4
		testPurge(t, p)
	}
}

// testPurge is TestStreamQueuePurgesStaleKeys in one form.
func testPurge(t *testing.T, p agendaPattern) {
	var seq uint64
	var q streamQueue
	p.setup(&q, &seq)
	ref := refQueue{cur: make([]refKey, 4)}
	for i := range ref.cur {
		ref.cur[i] = refKey{at: algos.Never}
	}
	set := func(slot int, at algos.Time) { ref.set(slot, at, q.set(slot, at)) }
	set(0, 1)
	purged := false
	for i := 0; i < 5000; i++ { // slot 1's next time moves again and again
		set(1, algos.Time(1e9-i))
		if q.stale == 0 && i > 0 {
			purged = true
		}
	}
	set(2, 5)
	if !purged {
		t.Errorf("%d stale keys were never purged", q.stale)
	}
	for step := 0; step < 3; step++ {
		got, want := q.top(), ref.top()
		if got.at != want.at || got.slot() != want.slot {
			t.Fatalf("step %d: top at %d slot %d, want at %d slot %d", step, got.at, got.slot(), want.at, want.slot)
		}
		set(want.slot, algos.Never)
	}
	if got := q.top(); got.at != algos.Never {
		t.Fatalf("top at %d slot %d, want none", got.at, got.slot())
	}
}

// benchmarkAgenda runs the engine's pattern on the agenda alone: hosts and
// 3 streams a port (its link, its deliveries, its service), two fifths of
// them keyed; each event re-keys its own stream a link and a frame time
// ahead (with a frame time of jitter), or takes it to Never and keys
// another stream from Never instead, as a frame moving on does.
func benchmarkAgenda(b *testing.B, hosts, ports int) {
	var a agenda
	a.init(hosts, ports, true, testPace)
	n := hosts + 3*ports
	r := rand.New(rand.NewPCG(1, 1))
	delay := func() algos.Time {
		return algos.Microsecond + 1200*algos.Nanosecond + algos.Time(r.IntN(1200))*algos.Nanosecond
	}
	// Streams [0, hosts+2*ports) are the agenda's slots; the rest, the
	// ports' services.
	set := func(s int, at algos.Time) {
		if p := s - hosts - 2*ports; p >= 0 {
			a.setService(int32(p), at)
			return
		}
		a.setStream(s, at)
	}
	idle := make([]int, 0, n)
	for s := 0; s < n; s++ {
		if r.IntN(5) < 2 {
			set(s, delay())
		} else {
			idle = append(idle, s)
		}
	}
	b.ResetTimer()
	for b.Loop() {
		ev := a.next(algos.Never - 1)
		s := eventStream(&a, ev)
		if r.IntN(8) > 0 {
			set(s, ev.at+delay())
			continue
		}
		set(s, algos.Never)
		i := r.IntN(len(idle))
		set(idle[i], ev.at+delay())
		idle[i] = s
	}
}

// eventStream is benchmarkAgenda's number of a stream's event.
func eventStream(a *agenda, ev *event) int {
	switch ev.kind {
	case evHostFrame:
		return a.hostSlot(ev.host)
	case evLinkFrame:
		return a.linkSlot(ev.port)
	case evDepart:
		return int(a.hosts + 2*a.ports + ev.port)
	}
	return a.receiveSlot(ev.port)
}

func BenchmarkAgendaDumbbell(b *testing.B)  { benchmarkAgenda(b, 10, 1) }
func BenchmarkAgendaFatTree8(b *testing.B)  { benchmarkAgenda(b, 128, 640) }
func BenchmarkAgendaFatTree16(b *testing.B) { benchmarkAgenda(b, 1024, 5120) }
func BenchmarkAgendaFatTree24(b *testing.B) { benchmarkAgenda(b, 3456, 17280) }

// TestAgendaOrdersServicesAmongStreams drives an agenda's streams and its
// ports' service slots (a queue of their own) with keys that often tie in
// time, and checks that it hands out every event in the order of one
// reference queue over all of them, by time then sequence number, as the
// kind and the port the slot stands for. A tree for both, a radix heap for
// the streams, a radix heap for both.
func TestAgendaOrdersServicesAmongStreams(t *testing.T) {
	for _, c := range []struct{ hosts, ports int }{{5, 7}, {1000, 10000}, {1000, 20000}} {
		var a agenda
		a.init(c.hosts, c.ports, true, testPace)
		n := c.hosts + 3*c.ports // the reference's slots: the streams', then the services'
		ref := refQueue{cur: make([]refKey, n)}
		set := func(s int, at algos.Time) {
			var seq uint64
			if p := s - c.hosts - 2*c.ports; p >= 0 {
				a.setService(int32(p), at)
				seq = a.seq
			} else {
				seq = a.setStream(s, at)
			}
			ref.set(s, at, seq)
		}
		r := rand.New(rand.NewPCG(uint64(c.ports), 3))
		now := algos.Time(0)
		ahead := func() algos.Time { return now + algos.Time(r.IntN(4))*algos.Nanosecond } // ties, often
		for range 3 * 64 {
			set(r.IntN(n), ahead())
		}
		for step := 0; step < 20000; step++ {
			want := ref.top()
			ev := a.next(algos.Never - 1)
			if want.at == algos.Never {
				if ev != nil {
					t.Fatalf("%v: step %d: event at %d, want none", c, step, ev.at)
				}
				break
			}
			if ev == nil || ev.at != want.at || eventStream(&a, ev) != want.slot {
				t.Fatalf("%v: step %d: got %+v, want at %d stream %d", c, step, ev, want.at, want.slot)
			}
			now = ev.at
			switch r.IntN(4) {
			case 0: // the stream empties; another is keyed
				set(want.slot, algos.Never)
				set(r.IntN(n), ahead())
			case 1: // and another is re-keyed or emptied
				set(want.slot, ahead())
				if s := r.IntN(n); r.IntN(2) == 0 {
					set(s, algos.Never)
				} else {
					set(s, ahead())
				}
			default:
				set(want.slot, ahead())
			}
		}
	}
}

// TestAgendaTiesRunInTheOrderScheduled keys a port's service, a stream and
// a one-shot event at one time, in every order, with a sample at that time
// too: the sample runs first, then the three in the order they were
// scheduled, whichever of the agenda's queues holds each (trees, radix
// heaps).
func TestAgendaTiesRunInTheOrderScheduled(t *testing.T) {
	const at = 5 * algos.Microsecond
	orders := [][3]eventKind{
		{evDepart, evReceiveFrame, evTimer}, {evDepart, evTimer, evReceiveFrame},
		{evReceiveFrame, evDepart, evTimer}, {evReceiveFrame, evTimer, evDepart},
		{evTimer, evDepart, evReceiveFrame}, {evTimer, evReceiveFrame, evDepart},
	}
	for _, c := range []struct{ hosts, ports int }{{2, 3}, {1000, 10000}, {1000, 20000}} {
		last := int32(c.ports - 1)
		for _, order := range orders {
			var a agenda
			a.init(c.hosts, c.ports, true, testPace)
			for _, kind := range order {
				switch kind {
				case evDepart:
					a.setService(last, at)
				case evReceiveFrame:
					a.setStream(a.receiveSlot(last), at)
				default:
					a.schedule(event{kind: evTimer, at: at, limiter: 3})
				}
			}
			a.setSample(at)
			for i, want := range append([]eventKind{evSample}, order[:]...) {
				ev := a.next(algos.Never - 1)
				if ev == nil || ev.kind != want || ev.at != at {
					t.Fatalf("%v, scheduled %v: event %d is %+v, want kind %d at %d", c, order, i, ev, want, at)
				}
				switch ev.kind {
				case evDepart:
					if ev.port != last {
						t.Fatalf("%v: port %d's service, want %d's", c, ev.port, last)
					}
					a.setService(ev.port, algos.Never)
				case evReceiveFrame:
					a.setStream(a.receiveSlot(ev.port), algos.Never)
				}
			}
			if ev := a.next(algos.Never - 1); ev != nil {
				t.Fatalf("%v: an event after all: %+v", c, ev)
			}
		}
	}
}

// TestAgendaMemoryWithinItsEstimate keys every slot of agendas of several
// sizes (either side of treeMax, with and without receivers) at one time,
// then re-keys them as events come and moves other slots' keys (leaving
// stale ones), and checks that the memory the agenda's queues hold never
// exceeds agendaMemory, the load-time estimate's share for it.
func TestAgendaMemoryWithinItsEstimate(t *testing.T) {
	held := func(q *streamQueue) float64 {
		key := float64(unsafe.Sizeof(streamKey{}))
		front := cap(q.front)
		if q.nodes != nil {
			front = 0 // the root, one of the nodes
		}
		return key*float64(cap(q.nodes)+cap(q.keys)+front+cap(q.scratch)+cap(q.cal.far)+cap(q.early)) +
			float64(unsafe.Sizeof(keyChunk{}))*float64(cap(q.chunks)) + float64(unsafe.Sizeof(uint32(0)))*float64(cap(q.next)) +
			float64(unsafe.Sizeof(keyList{}))*float64(cap(q.cal.ring)) + 8*float64(cap(q.cal.used)) + 4*float64(cap(q.cal.count))
	}
	for _, c := range []struct {
		hosts, ports int
		receivers    bool
	}{{10, 1, false}, {128, 640, true}, {1024, 5120, true}, {2000, 10000, false}, {2000, 10000, true}, {20000, 2, true}, {65536, 2, false}} {
		var a agenda
		a.init(c.hosts, c.ports, c.receivers, testPace)
		streams := c.hosts + c.ports
		if c.receivers {
			streams += c.ports
		}
		estimate := agendaEstimate(c.hosts, c.ports)
		peak := 0.0
		look := func() { peak = max(peak, held(&a.streams)+held(&a.services)) }
		for s := range streams {
			a.setStream(s, algos.Microsecond)
		}
		for p := range c.ports {
			a.setService(int32(p), algos.Microsecond)
		}
		look()
		r := rand.New(rand.NewPCG(uint64(streams), 5))
		for i := range 4 * (streams + c.ports) {
			ev := a.next(algos.Never - 1)
			ahead := ev.at + algos.Time(r.IntN(3000))*algos.Nanosecond
			if ev.kind == evDepart {
				a.setService(ev.port, ahead)
			} else {
				a.setStream(eventStream(&a, ev), ahead)
			}
			a.setStream(r.IntN(streams), ev.at+algos.Time(r.IntN(5000))*algos.Nanosecond)
			if i%997 == 0 {
				look()
			}
		}
		look()
		if peak > estimate {
			t.Errorf("%+v: the agenda holds %.0f bytes, more than its estimate %.0f", c, peak, estimate)
		}
	}
}

// A calendar's radix sort puts a span's keys in order of the top bits of
// their time within it, as many bits as it takes to tell the keys apart,
// keys of one digit in the order they came (the insertion sort after it
// relies on it only for speed: this is what makes it fast).
func TestCalendarRadixSortOrdersBySpanTime(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, shift := range []uint{1, 11, 12, 17, 22, 30} {
		c := calendar{shift: shift}
		base := algos.Time(r.Int64N(1<<40)) &^ (1<<shift - 1)
		keys := make([]streamKey, 1+r.IntN(3000))
		for i := range keys {
			keys[i] = streamKey{at: base + algos.Time(r.Int64N(1<<shift)), seqSlot: uint64(i)}
		}
		c.radixSort(keys, nil)
		lo := shift - min(uint(bits.Len(uint(len(keys)))), shift, 12)
		for i := 1; i < len(keys); i++ {
			if a, b := keys[i-1], keys[i]; a.at>>lo > b.at>>lo || a.at>>lo == b.at>>lo && a.seqSlot > b.seqSlot {
				t.Fatalf("span 2^%d: key %d at %d seq %d after key at %d seq %d", shift, i, b.at, b.seqSlot, a.at, a.seqSlot)
			}
		}
	}
}

// A fabric's streams are in a calendar only where a key lands in a span
// after the one being handled: its spans no longer than the shortest link
// and than a frame's time on the fastest one (paceOf), which back-to-back
// frames re-key their link's stream by. Links of 1 ms gave spans of 31 us
// while frames came 1.2 us apart, all into the span being handled.
func TestCalendarOnlyWhereKeysLandAhead(t *testing.T) {
	for _, c := range []struct {
		name     string
		capacity float64
		delay    algos.Time
		calendar bool
	}{
		{"1 us links at 10 Gbps (the bench)", 10e9, algos.Microsecond, true},
		{"1 ms links at 10 Gbps", 10e9, algos.Millisecond, false},
		{"1 us links at 400 Gbps", 400e9, algos.Microsecond, false},
	} {
		ft, err := topo.FatTree(12, c.capacity, 150e3, topo.Uniform(c.delay))
		if err != nil {
			t.Fatal(err)
		}
		_, ok := calendarShape(paceOf(ft, 1500))
		if ok != c.calendar {
			t.Errorf("%s: a calendar %v, want %v", c.name, ok, c.calendar)
		}
	}
}
