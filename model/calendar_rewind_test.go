package model

import (
	"math/rand/v2"
	"testing"

	"qcnlab/algos"
)

// rewindRun drives a calendar of n streams in which parked slots are keyed
// at one time far ahead (flows, an incast, that start later), and flows
// of hops one after another: each flow starts after an idle gap in which
// the agenda looks at the streams (top), which turns the calendar to the
// parked keys' span; its first key comes before that span, as a one-shot
// event's does (a flow's arrival). A hop's event keys the next hop's slot
// and drops its own. active flows run at once, on distinct slots. It checks
// the order against the reference queue and returns the keys set, the
// rewinds, the keys they moved (the front's and early's, counted from
// outside: a rewind turns cur back), and the most keys early held.
func rewindRun(t *testing.T, n, parked, active, flows, hops int) (sets, rewinds, moved, mostEarly int) {
	t.Helper()
	shift, _ := calendarShape(testPace)
	var seq uint64
	var q streamQueue
	q.setupCalendar(n, &seq, shift, calBuckets)
	ref := refQueue{cur: make([]refKey, n)}
	for i := range ref.cur {
		ref.cur[i] = refKey{at: algos.Never}
	}
	set := func(slot int, at algos.Time) {
		cur, move := q.cal.cur, len(q.front)-q.head+len(q.early)
		ref.set(slot, at, q.set(slot, at))
		sets++
		if q.cal.cur < cur {
			rewinds++
			moved += move
		}
		mostEarly = max(mostEarly, len(q.early))
	}
	check := func(what string) streamKey {
		k, want := q.top(), ref.top()
		if k.at != want.at || want.at != algos.Never && k.slot() != want.slot {
			t.Fatalf("%s: top at %d slot %d, want at %d slot %d", what, k.at, k.slot(), want.at, want.slot)
		}
		return k
	}
	for i := range parked {
		set(n-1-i, algos.Second)
	}
	r := rand.New(rand.NewPCG(3, uint64(active)))
	hop := func() algos.Time { return algos.Microsecond + algos.Time(r.IntN(1000))*algos.Nanosecond }
	var now algos.Time
	for range flows {
		check("idle") // the calendar turns to the parked keys
		now += 20*algos.Microsecond + algos.Time(r.IntN(20000))*algos.Nanosecond
		for f := range active { // the flows' arrivals
			set(f*hops, now+hop())
		}
		for range active * hops {
			k := check("flow")
			now = k.at
			if s := k.slot(); (s+1)%hops != 0 {
				set(s+1, now+hop())
			}
			set(k.slot(), algos.Never)
		}
	}
	check("end")
	return sets, rewinds, moved, mostEarly
}

// TestCalendarRewindsPayTheirWay: a sparse fabric, one flow at a time over
// six hops with idle gaps between, and 1,000 keys parked far ahead in one
// span. A rewind turned the calendar back at every flow, moving every
// parked key to far and back, sorted again, a thousand keys at every gap:
// 26,000 to 62,000 instructions an event in the queue's code, the tree's
// 280 (cachegrind; a k = 16 fat-tree, 1 KB Poisson flows at load 1e-4,
// an incast of 1,000 senders at 1000 s; 20 and 60 ms runs). A rewind now moves
// at most one key more than early holds, so that its work is at most
// twice the keys set; and where many flows run before the parked span,
// it still turns the calendar back, once early holds as many keys as the
// front, at every gap. The sparse flows' keys go in the front before the
// parked keys (frontLeft), none to early.
func TestCalendarRewindsPayTheirWay(t *testing.T) {
	const n, parked = 20000, 1000
	for _, c := range []struct {
		name         string
		active, hops int
		rewinds      bool // the calendar must turn back
	}{
		{"one flow at a time", 1, 6, false},
		{"a few flows at once", 8, 6, false},
		{"many flows at once", 3000, 6, true},
	} {
		sets, rewinds, moved, mostEarly := rewindRun(t, n, parked, c.active, 40, c.hops)
		t.Logf("%s: %d keys set, %d rewinds moving %d keys, early held at most %d", c.name, sets, rewinds, moved, mostEarly)
		if moved > 2*sets {
			t.Errorf("%s: rewinds moved %d keys, more than twice the %d keys set", c.name, moved, sets)
		}
		if !c.rewinds && mostEarly > 0 { // the few keys before the parked go in the front
			t.Errorf("%s: early held up to %d keys, want none", c.name, mostEarly)
		}
		if c.rewinds && rewinds < 40 {
			t.Errorf("%s: %d rewinds in 40 gaps: want the calendar turned back at every one", c.name, rewinds)
		}
	}
}
