package model

import (
	"reflect"
	"testing"

	"qcnlab/algos"
	"qcnlab/model/topo"
)

// Prefetching reads ahead and writes nothing: a fabric whose agenda is a
// radix heap (a k = 20 fat-tree with DCQCN's receivers followed: 22,000
// streams) gives the same numbers with it and without.
func TestPrefetchingChangesNoNumber(t *testing.T) {
	if testing.Short() {
		t.Skip("a k = 20 fat-tree")
	}
	sc, err := algos.Lookup("dcqcn")
	if err != nil {
		t.Fatal(err)
	}
	ft, err := topo.FatTree(20, 10e9, 150e3, topo.Uniform(us))
	if err != nil {
		t.Fatal(err)
	}
	cfg := fabric(sc, ft, Permutation(len(ft.Hosts), 1))
	cfg.Duration, cfg.Warmup = 60*us, 20*us
	if cfg.Params, err = sc.Resolve(cfg.Network(), nil); err != nil {
		t.Fatal(err)
	}
	summary := func(lookahead bool) (Summary, uint64) {
		sim, err := NewPacket(cfg)
		if err != nil {
			t.Fatal(err)
		}
		if !sim.lookahead {
			t.Fatal("the agenda is a tree: no front to prefetch along")
		}
		sim.lookahead = lookahead
		sim.Run()
		return sim.Summary(), sim.FrameHops()
	}
	with, hops := summary(true)
	without, _ := summary(false)
	if hops < 10000 {
		t.Fatalf("only %d frame-hops", hops)
	}
	if !reflect.DeepEqual(with, without) {
		t.Errorf("prefetching changed the run:\n%+v\n%+v", with, without)
	}
}

// ahead names the keys to come, in order: the d-th after the earliest is
// the d-th the queue hands out next, while nothing is re-keyed but the
// earliest, taken off as it runs.
func TestAgendaAheadNamesTheKeysToCome(t *testing.T) {
	var count uint64
	var q streamQueue
	q.setup(5000, &count, false)
	for slot := range 5000 {
		q.set(slot, algos.Time(1000+(slot*7919)%5000*13))
	}
	var want [4]int
	checked := 0
	for range 4000 {
		k := q.top()
		if k.at == algos.Never {
			break
		}
		for d := 1; d < len(want); d++ {
			if slot, ok := q.ahead(d); ok {
				want[d] = slot
			} else {
				want[d] = -1
			}
		}
		q.set(k.slot(), algos.Never)
		next := q.top()
		if want[1] >= 0 && next.at != algos.Never {
			checked++
			if next.slot() != want[1] {
				t.Fatalf("ahead(1) named slot %d, then %d came", want[1], next.slot())
			}
		}
	}
	if checked < 1000 {
		t.Errorf("ahead named the next key only %d times", checked)
	}
	var tree streamQueue
	tree.setup(8, &count, true)
	tree.set(3, 5)
	if _, ok := tree.ahead(0); ok {
		t.Error("a tree has no front, yet ahead named a key")
	}
}
