package model

import (
	"fmt"
	"hash/fnv"
	"reflect"
	"testing"
	"unsafe"

	"qcnlab/algos"
	"qcnlab/model/topo"
)

// Prefetching reads ahead and writes nothing: runs whose agenda is a
// radix heap, where it runs, give the same numbers with it and without,
// their summaries and every sample of their series. A k = 20 fat-tree
// with DCQCN's receivers followed (22,000 streams) takes the stages
// through ports' links; a chain of 17,000 sources through hosts'.
func TestPrefetchingChangesNoNumber(t *testing.T) {
	if testing.Short() {
		t.Skip("a k = 20 fat-tree and a chain of 17,000 sources")
	}
	dcqcn, err := algos.Lookup("dcqcn")
	if err != nil {
		t.Fatal(err)
	}
	ft, err := topo.FatTree(20, 10e9, 150e3, topo.Uniform(us))
	if err != nil {
		t.Fatal(err)
	}
	fat := fabric(dcqcn, ft, Permutation(len(ft.Hosts), 1))
	fat.Duration, fat.Warmup = 60*us, 20*us
	if fat.Params, err = dcqcn.Resolve(fat.Network(), nil); err != nil {
		t.Fatal(err)
	}
	chain := benchConfig(t, 300*us)
	src := chain.Sources[0]
	src.LineRate, src.InitialRate = 1e9, 1e9
	chain.Sources = make([]SourceConfig, 17000)
	for i := range chain.Sources {
		chain.Sources[i] = src
	}
	for name, cfg := range map[string]Config{"k = 20 fat-tree": fat, "chain": chain} {
		without := runPrefetching(t, cfg, nil)
		if without.events < 10000 {
			t.Fatalf("%s: only %d events", name, without.events)
		}
		for _, stages := range []prefetchStages{aheadStages, deepStages} {
			with := runPrefetching(t, cfg, &stages)
			if !reflect.DeepEqual(with.summary, without.summary) {
				t.Errorf("%s, stages %+v: prefetching changed the summary:\n%+v\n%+v", name, stages, with.summary, without.summary)
			}
			if with.series != without.series {
				t.Errorf("%s, stages %+v: prefetching changed the series", name, stages)
			}
		}
	}
}

// prefetchedRun is what a run under runPrefetching gives: its summary,
// its events, a hash of its samples, and the simulator.
type prefetchedRun struct {
	summary Summary
	events  uint64
	series  uint64
	sim     *Packet
}

// runPrefetching runs cfg, a network large enough for four stages of
// prefetching (it fails the test if not), with the stages given, or none.
func runPrefetching(t *testing.T, cfg Config, stages *prefetchStages) prefetchedRun {
	t.Helper()
	series := fnv.New64a()
	cfg.OnSample = func(x *Sample) { fmt.Fprintf(series, "%+v\n", *x) }
	sim, err := NewPacket(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if !sim.lookahead || sim.stages != deepStages {
		t.Fatalf("lookahead %v, stages %+v: the agenda is a tree, or the network small: no front to prefetch along in four stages", sim.lookahead, sim.stages)
	}
	if sim.lookahead = stages != nil; stages != nil {
		sim.stages = *stages
	}
	sim.Run()
	return prefetchedRun{sim.Summary(), sim.events, series.Sum64(), sim}
}

// ifaceData finds the value an interface holds, which prefetchEntry asks
// the memory for: behind a port's congestion point (an interface with
// methods, as fmt.Stringer) and a limiter's reaction point, the pointer
// they were given.
func TestIfaceDataIsTheValue(t *testing.T) {
	v := &stringerForTest{name: "cp"}
	var i fmt.Stringer = v
	if got := ifaceData(unsafe.Pointer(&i)); got != unsafe.Pointer(v) {
		t.Errorf("ifaceData = %p, want %p", got, v)
	}
}

type stringerForTest struct{ name string }

func (s *stringerForTest) String() string { return s.name }

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
	const depth = 8
	named := map[int][]int{} // pop -> the slots named for it
	checked := make([]int, depth)
	for pop := 0; ; pop++ {
		k := q.top()
		if k.at == algos.Never {
			break
		}
		for _, slot := range named[pop] {
			if slot != k.slot() {
				t.Fatalf("pop %d: slot %d was named for it, slot %d came", pop, slot, k.slot())
			}
		}
		delete(named, pop)
		for d := 1; d < depth; d++ {
			if slot, ok := q.ahead(d); ok {
				named[pop+d] = append(named[pop+d], slot)
				checked[d]++
			}
		}
		q.set(k.slot(), algos.Never)
	}
	for d := 1; d < depth; d++ {
		if checked[d] < 1000 {
			t.Errorf("ahead(%d) named a key only %d times", d, checked[d])
		}
	}
	var tree streamQueue
	tree.setup(8, &count, true)
	tree.set(3, 5)
	tree.set(4, 6)
	if _, ok := tree.ahead(0); ok {
		t.Error("a tree has no front, yet ahead named a key")
	}
}
