package model_test

import (
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"testing"

	"qcnlab/algos"
	"qcnlab/experiments"
	"qcnlab/model"
)

// What a run watches and how it is stepped must not change its numbers:
// a port the time series follows is brought up to date at every sample,
// another only when something looks at it, and Advance's end brings every
// port up to its time, which one Run never does. The workbench steps a
// run with Advance, batch mode runs it whole: the two must agree.

// observeSpan and observeFabricSpan are what a built-in is cut to here:
// long enough that queues build, PFC pauses and flows end, short enough
// that every built-in runs six ways in a few seconds.
const (
	observeSpan       = 20 * algos.Millisecond
	observeFabricSpan = 2 * algos.Millisecond
)

// observeCase is one configuration the test runs every way.
type observeCase struct {
	label string
	cfg   model.Config
}

// observeWay is one way of watching and stepping a run.
type observeWay struct {
	name  string
	watch int  // a fabric's watched ports: 0 the default, math.MaxInt32 every port
	shown bool // something receives the samples (the workbench, batch's time series)
	step  func(sim model.Sim, end algos.Time)
}

// runWhole is one Run: batch mode's way.
func runWhole(sim model.Sim, end algos.Time) { sim.Advance(end) }

// unevenSteps are the workbench's way, unevenly: steps of many sizes, one
// of them a single picosecond, so that step ends fall before, between
// and on events; after each, the summary so far, as the workbench shows
// it.
var unevenSteps = []algos.Time{37*algos.Microsecond + 123, 1, 250*algos.Microsecond + 7, 3 * algos.Microsecond, 999*algos.Nanosecond + 1}

func stepUnevenly(sim model.Sim, end algos.Time) {
	for i := 0; !sim.Done() && sim.Now() < end; i++ {
		sim.Advance(sim.Now() + unevenSteps[i%len(unevenSteps)])
		sim.Summary()
	}
}

// stepAtEvents ends every step exactly at an event's time: AdvanceBounded
// stops between two events at the time of the last it handled, and the
// Advance to that time that follows runs the others at that time, then
// brings every port up to it.
func stepAtEvents(sim model.Sim, end algos.Time) {
	p, ok := sim.(*model.Packet)
	if !ok {
		stepUnevenly(sim, end)
		return
	}
	for i := uint64(0); !p.Done(); i++ {
		p.AdvanceBounded(end, 500+i%7*311)
		p.Advance(p.Now())
	}
}

var observeWays = []observeWay{
	{"run, nothing shown", 0, false, runWhole},
	{"run, one port watched", 1, true, runWhole},
	{"run, every port watched", math.MaxInt32, true, runWhole},
	{"uneven steps", 0, true, stepUnevenly},
	{"steps ending at events, every port watched", math.MaxInt32, true, stepAtEvents},
	{"steps ending at events, one port watched, nothing shown", 1, false, stepAtEvents},
}

// observeCases are every built-in (every algorithm, the first and last
// point of its sweep) and variant, cut short, and the two runs the
// defects were found in: DCQCN on the leaf-spine incast without PFC,
// whose victims' rates moved with the number of ports watched, and DCQCN
// on a fat-tree with its hosts' clocks and switches' jitter, PFC and
// classes (its control queue; two classes, routed by ECMP or sprayed),
// whose events moved when stepped.
func observeCases(t *testing.T) []observeCase {
	var cases []observeCase
	add := func(label string, e *experiments.Experiment, points int) {
		runs, err := e.Runs()
		if err != nil {
			t.Fatal(err)
		}
		per := len(e.Algorithms)
		last := len(runs)/per - 1
		for _, point := range []int{0, last}[:min(points, last+1)] {
			for _, run := range runs[point*per : (point+1)*per] {
				cfg, err := run.Exp.Config(run.Algorithm)
				if err != nil {
					t.Fatal(err)
				}
				span := observeSpan
				if run.Exp.IsFabric() {
					span = observeFabricSpan
				}
				shorten(&cfg, span)
				cases = append(cases, observeCase{label + "/" + run.Label(), cfg})
			}
		}
	}
	for _, name := range experiments.BuiltinNames() {
		e, err := experiments.Builtin(name)
		if err != nil {
			t.Fatal(err)
		}
		add(name, e, 1)
	}
	names := make([]string, 0, len(variants))
	for name := range variants {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		v := variants[name]
		e, err := experiments.OpenWith(v[0], v[1:])
		if err != nil {
			t.Fatal(err)
		}
		add("variant-"+name, e, 1)
	}
	for _, c := range []struct {
		name string
		sets []string
	}{
		{"qcn-incast-leaf-spine", []string{"network.pfc=false", "sweep={}", `algorithms=["dcqcn"]`, `duration="15ms"`}},
		{"pfc-spreading-fat-tree", []string{"sweep={}", `algorithms=["dcqcn"]`, `duration="4ms"`, `warmup="1ms"`}},
		{"pfc-spreading-fat-tree", []string{"sweep={}", `algorithms=["dcqcn"]`, `duration="3ms"`, `warmup="0s"`,
			"network.classes=2"}},
		{"pfc-spreading-fat-tree", []string{"sweep={}", `algorithms=["dcqcn"]`, `duration="3ms"`, `warmup="0s"`,
			"network.classes=2", `network.routing="spray"`}},
	} {
		e, err := experiments.OpenWith(c.name, c.sets)
		if err != nil {
			t.Fatal(err)
		}
		add(fmt.Sprint(c.name, c.sets), e, 1)
	}
	return cases
}

// TestObservationAndSteppingChangeNothing runs every case every way and
// requires the same summary (events, drops, every port's and flow's
// numbers, pauses) and the same flow records.
func TestObservationAndSteppingChangeNothing(t *testing.T) {
	for _, c := range observeCases(t) {
		t.Run(c.label, func(t *testing.T) {
			t.Parallel()
			var want []byte
			for i, way := range observeWays {
				got := observedSummary(t, c.cfg, way)
				if i == 0 {
					want = got
					continue
				}
				if string(got) != string(want) {
					t.Errorf("%s: the summary differs from %s's\n got: %s\nwant: %s", way.name, observeWays[0].name, got, want)
				}
			}
		})
	}
}

// observedSummary runs cfg the given way and returns its summary, without
// the names of what it watched, and every flow's record (flows.csv's
// rows), in the order of their flows.
func observedSummary(t *testing.T, cfg model.Config, way observeWay) []byte {
	t.Helper()
	if cfg.Fabric != nil {
		f := *cfg.Fabric
		f.WatchPorts = way.watch
		cfg.Fabric = &f
	}
	cfg.OnSample = nil
	if way.shown {
		cfg.OnSample = func(*model.Sample) {}
	}
	var flows []model.FlowRecord
	cfg.OnFlow = func(r *model.FlowRecord) { flows = append(flows, *r) }
	sim, err := model.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	way.step(sim, cfg.Duration)
	if !sim.Done() {
		t.Fatalf("%s: stopped at %d, before its end %d", way.name, sim.Now(), cfg.Duration)
	}
	sum := sim.Summary()
	sum.Watched = nil
	sort.SliceStable(flows, func(i, j int) bool { return flows[i].ID < flows[j].ID })
	js, err := json.Marshal(struct {
		Summary model.Summary
		Flows   []model.FlowRecord
	}{sum, flows})
	if err != nil {
		t.Fatal(err)
	}
	return js
}
