package batch

import (
	"context"
	"errors"
	"testing"

	"qcnlab/experiments"
)

// A run looks at its context at bounded work, not at bounded simulated
// time: on a fabric a step of simulated time can hold a million events and
// seconds of computing (SIGINT took 1.5 s to stop a 16,000-host run).
func TestRunChecksItsContextAtBoundedWork(t *testing.T) {
	e, err := experiments.Parse("fabric.toml", []byte(`
duration = "50ms"
algorithms = ["qcn"]
[network]
topology = "fat_tree"
k = 12
[traffic]
pattern = "permutation"
`))
	if err != nil {
		t.Fatal(err)
	}
	runs, err := e.Runs()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var checks int
	var last, most uint64
	checking = func(events uint64) {
		most = max(most, events-last)
		last = events
		if checks++; checks == 6 {
			cancel()
		}
	}
	defer func() { checking = nil }()
	_, errs := Execute(ctx, runs, nil, Options{Workers: 1})
	if !errors.Is(errs[0], context.Canceled) || checks != 6 {
		t.Fatalf("%d checks, error %v", checks, errs[0])
	}
	// A frame's arrival may release a few more at its host, and a sample
	// brings every switch port up to date (the delivered rates): at most
	// a departure each of the k = 12 fat-tree's 5k³/4 ports.
	const ports = 5 * 12 * 12 * 12 / 4
	if most > checkEvents+16+ports {
		t.Errorf("%d events between two looks at the context, the most is %d", most, checkEvents)
	}
}

// Building a simulation ends as soon as its context is cancelled, its
// result dropped when it comes.
func TestBuildingHonoursCancellation(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	release := make(chan struct{})
	defer close(release)
	started := make(chan struct{})
	go func() {
		<-started
		cancel()
	}()
	_, err := unlessCancelled(ctx, func() (int, error) {
		close(started)
		<-release // a build that would never end
		return 1, nil
	})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("got %v", err)
	}
	// A panic in the build is re-raised where the run waits, with the
	// build's stack, for safeExecute to report.
	defer func() {
		if ie, ok := recover().(*InternalError); !ok || ie.Value != "bad build" || len(ie.Stack) == 0 {
			t.Errorf("recovered %v", ie)
		}
	}()
	unlessCancelled(context.Background(), func() (int, error) { panic("bad build") })
}
