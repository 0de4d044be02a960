package model

import (
	"math/rand/v2"
	"sort"
	"testing"
	"unsafe"

	"qcnlab/algos"
)

// Hostile patterns for the calendar against the reference queue (review
// R17's).
// Keys placed relative to the calendar's own base and window edges,
// bimodal delays (1 ns and 10 ms), time jumps far past the window, times
// near 0 and Never, setSeq with any earlier sequence number (also the
// slot's own, an identical key), floods of stale keys (purges) with most
// keys far, rings of more than one bitmap word.
func TestCalendarHostileKeysInReferenceOrder(t *testing.T) {
	shapes := []calShape{{17, 64}, {8, 64}, {0, 64}, {3, 128}, {5, 256}, {20, 64}, {40, 64}, {17, 1024}}
	sizes := []int{1, 2, 7, 100, 3000}
	for _, c := range shapes {
		for _, n := range sizes {
			for seed := uint64(1); seed <= 4; seed++ {
				hostileRun(t, c, n, seed, 30000)
			}
		}
	}
}

func hostileRun(t *testing.T, c calShape, n int, seed uint64, steps int) {
	r := rand.New(rand.NewPCG(seed, uint64(n)*1000+uint64(c.shift)*7+uint64(c.buckets)))
	var seq uint64
	var q streamQueue
	q.setupCalendar(n, &seq, c.shift, c.buckets)
	ref := refQueue{cur: make([]refKey, n)}
	for i := range ref.cur {
		ref.cur[i] = refKey{at: algos.Never}
	}
	span := algos.Time(1) << c.shift
	var now algos.Time
	seqs := make([][]uint64, n) // each slot's sequence numbers taken, for setSeq
	peakHeld := 0.0
	held := func() float64 {
		key := float64(unsafe.Sizeof(streamKey{}))
		return key*float64(cap(q.keys)+cap(q.front)+cap(q.scratch)+cap(q.cal.far)+cap(q.early)) +
			float64(unsafe.Sizeof(keyChunk{}))*float64(cap(q.chunks)) + float64(unsafe.Sizeof(uint32(0)))*float64(cap(q.next)) +
			float64(unsafe.Sizeof(keyList{}))*float64(cap(q.cal.ring)) + 8*float64(cap(q.cal.used)) + 4*float64(cap(q.cal.count))
	}
	clampAt := func(at algos.Time) algos.Time {
		if at < 0 {
			return 0
		}
		if at >= algos.Never {
			return algos.Never - 1
		}
		return at
	}
	// pick is a time chosen to hurt.
	pick := func() algos.Time {
		biasedBase := q.base
		baseAt := algos.Time(biasedBase ^ signBit) // the current span's last picosecond
		winEnd := algos.Time(((q.cal.cur+uint64(len(q.cal.ring)))<<c.shift)^signBit) - 1
		switch r.IntN(16) {
		case 0:
			return clampAt(baseAt + algos.Time(r.IntN(3)) - 1) // at base, base±1
		case 1:
			return clampAt(winEnd + algos.Time(r.IntN(3)) - 1) // the window's edge
		case 2:
			return clampAt(now + algos.Nanosecond + algos.Time(r.IntN(1000)))
		case 3:
			return clampAt(now + 10*algos.Millisecond + algos.Time(r.IntN(1000)))
		case 4:
			return clampAt(now + algos.Time(r.Int64N(int64(64*span)+1)))
		case 5:
			return clampAt(now + algos.Time(r.Int64N(1<<50))) // far jump
		case 6:
			return algos.Never - 1 - algos.Time(r.IntN(3))
		case 7:
			return now // ties with the present
		case 8:
			return clampAt(now - algos.Time(r.IntN(1000))) // the past
		case 9:
			return clampAt(now + algos.Time(r.IntN(8))*span) // span starts
		default:
			return clampAt(now + algos.Microsecond + algos.Time(r.IntN(2000))*algos.Nanosecond)
		}
	}
	set := func(slot int, at algos.Time) {
		s := q.set(slot, at)
		ref.set(slot, at, s)
		if len(seqs[slot]) < 64 {
			seqs[slot] = append(seqs[slot], s)
		}
	}
	setSeq := func(slot int, at algos.Time, s uint64) {
		q.setSeq(slot, at, s)
		ref.set(slot, at, s)
	}
	for i := 0; i < n; i++ {
		if r.IntN(2) == 0 {
			set(i, pick())
		}
	}
	for step := 0; step < steps; step++ {
		got, want := q.top(), ref.top()
		if got.at != want.at || want.at != algos.Never && (got.seqSlot>>slotBits != want.seq || got.slot() != want.slot) {
			t.Fatalf("cal %v n=%d seed %d step %d: top at %d seq %d slot %d, want at %d seq %d slot %d", c, n, seed, step,
				got.at, got.seqSlot>>slotBits, got.slot(), want.at, want.seq, want.slot)
		}
		_, _ = q.ahead(r.IntN(8))
		if want.at != algos.Never {
			now = max(now, want.at)
			if r.IntN(5) == 0 {
				set(want.slot, algos.Never)
			} else {
				set(want.slot, max(now, pick()))
			}
		} else {
			// idle: something comes far ahead
			set(r.IntN(n), clampAt(now+algos.Time(r.Int64N(1<<45))))
		}
		for range r.IntN(4) {
			s := r.IntN(n)
			switch r.IntN(6) {
			case 0:
				set(s, algos.Never)
			case 1:
				if l := seqs[s]; len(l) > 0 { // one of the slot's earlier sequence numbers, at any time
					setSeq(s, max(now, pick()), l[r.IntN(len(l))])
				}
			case 2: // the same key again: an identical key while one waits
				if k := ref.cur[s]; k.at != algos.Never && k.at >= now {
					setSeq(s, k.at, k.seq)
				}
			default:
				set(s, max(now, pick()))
			}
		}
		if r.IntN(500) == 0 { // a flood of stale keys, far
			for range 2*n + 2000 {
				s := r.IntN(n)
				set(s, clampAt(now+10*algos.Millisecond+algos.Time(r.IntN(1<<30))))
			}
		}
		if step%251 == 0 {
			peakHeld = max(peakHeld, held())
		}
	}
	peakHeld = max(peakHeld, held())
	if c.buckets == calBuckets {
		est := agendaMemory(n) - float64(unsafe.Sizeof(streamQueue{}))
		if n > calendarMin {
			t.Logf("cal %v n=%d seed %d: held at most %.0f bytes of the estimate's %.0f (%.2f)", c, n, seed, peakHeld, est, peakHeld/est)
		}
		if n > calendarMin && peakHeld > est {
			t.Errorf("cal %v n=%d: held %.0f bytes, estimate %.0f", c, n, peakHeld, est)
		}
	}
}

// TestCalendarKeysAtBaseNotInsertedAmongMany drives a calendar of 20,000
// streams, every slot re-keyed by its own event, in the two patterns of
// review R17 where keys come at or before base: one key far ahead while
// no other is held (a flow that starts later, on an idle fabric: the
// window jumps to it, and every key after is before it), and keys landing
// in the span being handled (frames shorter than a span: 64-byte ACKs,
// 1,500 bytes on 400G). It counts the keys moved to put a key in order in
// the front, a whole span's keys, sorted: moving up to all of them per
// key cost 2-3 times the tree's instructions an event (r17-review/n4.toml,
// e1.toml); no key may move more than frontNear, after it or before it. The order is checked
// against the reference queue.
func TestCalendarKeysAtBaseNotInsertedAmongMany(t *testing.T) {
	shift, _ := calendarShape(testPace)
	span := algos.Time(1) << shift
	for _, c := range []struct {
		name  string
		late  bool
		after func(r *rand.Rand) algos.Time // a re-key's time after its event
	}{
		{"late key", true, func(r *rand.Rand) algos.Time { return algos.Microsecond + algos.Time(r.IntN(2000))*algos.Nanosecond }},
		{"short frames", false, func(r *rand.Rand) algos.Time {
			if r.IntN(2) == 0 {
				return span / 4
			}
			return algos.Microsecond + algos.Time(r.IntN(2000))*algos.Nanosecond
		}},
	} {
		var seq uint64
		var q streamQueue
		n := 20000
		q.setupCalendar(n, &seq, shift, calBuckets)
		ref := refQueue{cur: make([]refKey, n)}
		for i := range ref.cur {
			ref.cur[i] = refKey{at: algos.Never}
		}
		set := func(slot int, at algos.Time) uint64 {
			s := q.set(slot, at)
			ref.set(slot, at, s)
			return s
		}
		if c.late {
			set(n-1, 10*algos.Millisecond) // the only key: a flow starting at 10 ms
		}
		q.top() // the agenda looks at the streams at every event
		r := rand.New(rand.NewPCG(1, 1))
		for i := range n - 1 {
			set(i, c.after(r))
		}
		inserted, most := 0, 0
		for step := range 100000 {
			k, want := q.top(), ref.top()
			if k.at != want.at || k.slot() != want.slot {
				t.Fatalf("%s, step %d: top at %d slot %d, want at %d slot %d", c.name, step, k.at, k.slot(), want.at, want.slot)
			}
			at := k.at + c.after(r)
			s := set(k.slot(), at)
			key := streamKey{at: at, seqSlot: s<<slotBits | uint64(k.slot())}
			f := q.front[q.head:]
			if i := sort.Search(len(f), func(i int) bool { return !f[i].before(key) }); i < len(f) && f[i] == key {
				// Put in order: past the keys after it, or, more than
				// frontNear of them, the keys before it (frontLeft).
				inserted++
				if moved := len(f) - 1 - i; moved <= frontNear {
					most = max(most, moved)
				} else {
					most = max(most, i)
				}
			}
		}
		t.Logf("%s: %d of 100,000 re-keys put in the front, moving at most %d keys", c.name, inserted, most)
		if most > frontNear {
			t.Errorf("%s: a key moved %d keys in the front, more than frontNear (%d)", c.name, most, frontNear)
		}
	}
}

// The hostile pattern at a k = 20 fabric's size, where the estimate is
// checked too.
func TestCalendarHostileKeysLargeInReferenceOrder(t *testing.T) {
	for _, c := range []calShape{{17, 64}, {8, 64}} {
		hostileRun(t, c, 22000, 9, 60000)
	}
}
