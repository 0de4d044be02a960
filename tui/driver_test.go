package tui

import (
	"reflect"
	"testing"
	"time"

	"qcnlab/algos"
	"qcnlab/experiments"
	"qcnlab/model"
)

// testExperiment is the default experiment, shortened so tests stay fast.
func testExperiment(t testing.TB, sets ...string) *experiments.Experiment {
	t.Helper()
	e, err := experiments.Open(experiments.DefaultName)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range append([]string{"duration=20ms", "warmup=4ms"}, sets...) {
		if err := e.Set(s); err != nil {
			t.Fatal(err)
		}
	}
	if err := e.Validate(); err != nil {
		t.Fatal(err)
	}
	return e
}

func testConfig(t testing.TB, e *experiments.Experiment, algo string) model.Config {
	t.Helper()
	cfg, err := e.Config(algo)
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

// waitFor blocks until the driver has published a snapshot at t (or the
// end of its run).
func waitFor(t testing.TB, d *driver, at algos.Time) *snapshot {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		s := d.snapshot()
		if s.now >= min(at, d.cfg.Duration) || s.done {
			return s
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: stuck at %v, waiting for %v", d.algo, s.now, at)
		}
		time.Sleep(50 * time.Microsecond)
	}
}

// parkedAt waits for the driver's goroutine to park at its target and
// returns the simulated time it parked at.
func parkedAt(t testing.TB, d *driver) algos.Time {
	t.Helper()
	select {
	case at := <-d.parked:
		return at
	case <-time.After(10 * time.Second):
		t.Fatalf("%s: never parked", d.algo)
	}
	return 0
}

// startParking starts a driver whose goroutine says where it parks.
func startParking(t testing.TB, e *experiments.Experiment) *driver {
	t.Helper()
	d, err := newDriver("qcn", testConfig(t, e, "qcn"))
	if err != nil {
		t.Fatal(err)
	}
	d.parked = make(chan algos.Time, 64)
	d.start()
	if at := parkedAt(t, d); at != 0 {
		t.Fatalf("parked first at %v, want 0: no target yet", at)
	}
	return d
}

func TestDriverAdvancesToTargetAndStops(t *testing.T) {
	defer verifyNoLeaks(t)
	e := testExperiment(t)
	d := startParking(t, e)
	defer d.stop()
	if s := d.snapshot(); s.now != 0 || s.done || len(s.points) != 0 {
		t.Fatalf("before any target: now %v done %v points %d", s.now, s.done, len(s.points))
	}
	d.setTarget(3 * algos.Millisecond)
	s := waitFor(t, d, 3*algos.Millisecond)
	if s.now != 3*algos.Millisecond || s.done {
		t.Fatalf("now %v done %v, want 3ms and running", s.now, s.done)
	}
	if got := len(s.points); got != 300 { // one point per 10us sample
		t.Errorf("%d points at 3ms, want 300", got)
	}
	// It parks at the target, where it published last: no event runs
	// without a new target.
	if at := parkedAt(t, d); at != 3*algos.Millisecond || d.snapshot() != s {
		t.Errorf("parked at %v; published again: %v", at, d.snapshot() != s)
	}
	d.setTarget(algos.Never)
	s = waitFor(t, d, algos.Never)
	if !s.done || s.now != 20*algos.Millisecond {
		t.Fatalf("now %v done %v, want finished at 20ms", s.now, s.done)
	}
	d.stop()
	d.stop() // twice is fine
}

// A driven run gives the same numbers as the model run in one go, however
// the UI slices its time.
func TestDriverMatchesBatchRun(t *testing.T) {
	e := testExperiment(t)
	cfg := testConfig(t, e, "qcn")
	var samples int
	cfg.OnSample = func(*model.Sample) { samples++ }
	sim, err := model.NewPacket(cfg)
	if err != nil {
		t.Fatal(err)
	}
	sim.Run()
	want := sim.Summary()

	d, err := startDriver("qcn", testConfig(t, e, "qcn"))
	if err != nil {
		t.Fatal(err)
	}
	defer d.stop()
	for _, at := range []algos.Time{algos.Microsecond, 1234567, 5 * algos.Millisecond, algos.Never} {
		d.setTarget(at)
		waitFor(t, d, at)
	}
	got := d.snapshot().summary
	if !reflect.DeepEqual(got, want) {
		t.Errorf("driven run:\n%+v\nbatch run:\n%+v", got, want)
	}
}

func TestDriverPausesOnLowerTarget(t *testing.T) {
	e := testExperiment(t)
	d := startParking(t, e)
	defer d.stop()
	d.setTarget(2 * algos.Millisecond)
	if at := parkedAt(t, d); at != 2*algos.Millisecond {
		t.Fatalf("parked at %v, want 2ms", at)
	}
	s := d.snapshot()
	d.setTarget(algos.Millisecond) // in the past: it wakes, stays, and parks again
	if at := parkedAt(t, d); at != 2*algos.Millisecond || d.snapshot() != s {
		t.Errorf("parked at %v after a target in the past, published again: %v", at, d.snapshot() != s)
	}
}

func TestHistoryStaysBounded(t *testing.T) {
	h := newHistory(1, 2, false)
	s := &model.Sample{Queues: []int{0}, Rates: []float64{0, 0}}
	const n = 100_000
	for i := 1; i <= n; i++ {
		s.Time = algos.Time(i)
		s.Queues[0] = i
		s.Rates[0], s.Rates[1] = 1, float64(i%2)
		h.add(s)
	}
	if len(h.points) > maxPoints || len(h.points) < maxPoints/2 {
		t.Fatalf("%d points after %d samples, want between %d and %d", len(h.points), n, maxPoints/2, maxPoints)
	}
	// Each point is the mean of its samples, and points cover the run in order.
	covered := n - h.n // the rest waits in the interval being filled
	last := h.points[len(h.points)-1]
	if last.t != algos.Time(covered) {
		t.Errorf("last point at %v, want %v", last.t, covered)
	}
	if want := float64(covered) - float64(h.stride-1)/2; last.v[0] != want {
		t.Errorf("last queue mean %v, want %v", last.v[0], want)
	}
	if last.v[1] != 1 || last.v[2] != 0.5 {
		t.Errorf("rates %v, want 1 and 0.5", last.v[1:])
	}
	// A snapshot taken before a compaction keeps its values.
	snap := h.snapshot()
	first := snap[0].v[0]
	for range maxPoints * h.stride {
		h.add(s)
	}
	if snap[0].v[0] != first {
		t.Error("compaction changed a point a snapshot holds")
	}
}

// With many sources a history keeps fewer points, so its memory stays
// bounded (maxValues values) whatever the count the experiment allows.
func TestHistoryMemoryBoundedWithManySources(t *testing.T) {
	const sources = 65535
	h := newHistory(1, sources, false)
	s := &model.Sample{Queues: []int{0}, Rates: make([]float64, sources)}
	for i := 1; i <= 200; i++ {
		s.Time = algos.Time(i)
		h.add(s)
	}
	if n := len(h.points); n > h.limit || n*(1+sources) > maxValues || n < minPoints/2 {
		t.Errorf("%d points of %d values (limit %d)", n, 1+sources, h.limit)
	}
	if h := newHistory(1, 4, false); h.limit != maxPoints {
		t.Errorf("4 sources: limit %d, want %d", h.limit, maxPoints)
	}
}
