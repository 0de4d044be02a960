package experiments_test

// Scenarios run as batches: what an experiment file makes the simulation
// do, end to end through package results.

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"qcnlab/experiments"
	"qcnlab/experiments/batch"
	"qcnlab/experiments/results"
)

func mustParse(t testing.TB, text string) *experiments.Experiment {
	t.Helper()
	e, err := experiments.Parse("test.toml", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// The built-in's claim: the victim, which never crosses the primary
// bottleneck, loses most of its rate to pauses without congestion control
// and keeps it with QCN, and PFC drops nothing either way.
func TestPFCCongestionSpreadingBuiltin(t *testing.T) {
	e, err := experiments.Builtin("pfc-congestion-spreading")
	if err != nil {
		t.Fatal(err)
	}
	res, err := results.Execute(context.Background(), e, results.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range res.Runs {
		victim := r.Sources[1]
		for _, b := range r.Bottlenecks {
			if b.DropsTotal != 0 {
				t.Errorf("%s: %s dropped %d frames under PFC", r.Algorithm, b.Name, b.DropsTotal)
			}
		}
		switch r.Algorithm {
		case "none":
			if victim.ThroughputBps > 3e9 || victim.PausedFraction < 0.3 || r.Bottlenecks[1].PauseFrames == 0 {
				t.Errorf("none: victim %.2f Gbps, paused %.2f: no congestion spreading", victim.ThroughputBps/1e9, victim.PausedFraction)
			}
		case "qcn":
			if victim.ThroughputBps < 4.9e9 || victim.PausedFraction != 0 {
				t.Errorf("qcn: victim %.2f Gbps, paused %.2f", victim.ThroughputBps/1e9, victim.PausedFraction)
			}
		}
	}
}

// Seed 004's figure 4 (experiments.ParkingLotText): both links congested
// and busy, and a queue column for each in timeseries.csv.gz.
func TestParkingLotBatch(t *testing.T) {
	e := mustParse(t, experiments.ParkingLotText)
	dir := t.TempDir()
	res, err := results.Execute(context.Background(), e, results.Options{OutDir: dir, Plot: "png"})
	if err != nil {
		t.Fatal(err)
	}
	r := res.Runs[0]
	if len(r.Bottlenecks) != 2 {
		t.Fatalf("%d bottlenecks", len(r.Bottlenecks))
	}
	// Three flows on each link: after QCN's start-up (about 60 ms from
	// line rate) both links are congested and busy.
	for _, b := range r.Bottlenecks {
		if b.Utilization < 0.9 || b.QueueMean == 0 {
			t.Errorf("%s: utilization %.3f queue mean %.0f", b.Name, b.Utilization, b.QueueMean)
		}
	}
	f, err := os.Open(filepath.Join(dir, results.SeriesFile))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	z, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	header, _ := bufio.NewReader(z).ReadString('\n')
	if !strings.HasPrefix(header, "run,algorithm,seed,time_s,queue_sw0_bytes,queue_sw1_bytes,rate_0_bps,") {
		t.Errorf("header %q", header)
	}
}

// The scenario of heterogeneous delays, capacity changes and phases
// (experiments.ScenarioText) gives the same numbers whatever the workers.
func TestScenarioSameWhateverTheWorkers(t *testing.T) {
	e := mustParse(t, experiments.ScenarioText)
	one, err := results.Execute(t.Context(), e, results.Options{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	four, err := results.Execute(t.Context(), e, results.Options{Workers: 4})
	if err != nil {
		t.Fatal(err)
	}
	for i := range one.Runs {
		a, b := one.Runs[i], four.Runs[i]
		ja, _ := json.Marshal(a.Reproducible())
		jb, _ := json.Marshal(b.Reproducible())
		if !bytes.Equal(ja, jb) {
			t.Errorf("run %d differs with 4 workers:\n%s\n%s", i, ja, jb)
		}
		if len(a.Phases) != 3 || a.Phases[1].Bottlenecks[0].CapacityBps != 2e9 {
			t.Errorf("run %d: phases %+v", i, a.Phases)
		}
		for _, s := range a.Sources {
			if s.LoopDelayMin == nil || s.LoopDelayMax == nil {
				t.Fatalf("run %d source %d: no loop delays", i, s.ID)
			}
			if *s.LoopDelayMin < 50e-6+10e-6 || *s.LoopDelayMax > 80e-6+50e-6+30e-6+1e-12 {
				t.Errorf("run %d source %d: loop delays [%g, %g] outside what the delays allow", i, s.ID, *s.LoopDelayMin, *s.LoopDelayMax)
			}
		}
	}
	if *one.Runs[0].Sources[0].LoopDelayMin == *one.Runs[2].Sources[0].LoopDelayMin {
		t.Errorf("seeds 3 and 4 drew the same loop delay")
	}
}

// Short flows come from the experiment seed: the same numbers whatever the
// number of workers, different with another seed.
func TestFlowsSameWhateverTheWorkers(t *testing.T) {
	text := `
duration = "20ms"
algorithms = ["qcn", "none"]
[network]
topology = "parking_lot"
[sources]
count = 3
[traffic]
long_flows = 2
short_flow_rate = 2000.0
short_flow_sizes = "hadoop"
[sweep]
seed = [1, 2]
`
	var outs []string
	for _, workers := range []int{1, 3} {
		res, err := results.Execute(context.Background(), mustParse(t, text), results.Options{Workers: workers})
		if err != nil {
			t.Fatal(err)
		}
		js, _ := json.Marshal(batch.ReproducibleRuns(res.Runs))
		outs = append(outs, string(js))
		if f := res.Runs[0].Flows; f == nil || f.Started < 10 || f.Completed == 0 {
			t.Fatalf("flows %+v", f)
		}
		if a, b := res.Runs[0].Flows, res.Runs[2].Flows; a.Started == b.Started && a.FCTMean == b.FCTMean {
			t.Error("seeds 1 and 2 gave the same flows")
		}
	}
	if outs[0] != outs[1] {
		t.Error("results differ with the number of workers")
	}
}

// A source that is sent no feedback observed no loop: its loop delays are
// null, not 0, while a source of a scheme that sends feedback has them.
func TestNoFeedbackNoLoopDelay(t *testing.T) {
	e, err := experiments.Parse("none.toml", []byte("duration = \"5ms\"\nwarmup = \"1ms\"\nalgorithms = [\"none\", \"qcn\"]\n[sources]\ncount = 2\n"))
	if err != nil {
		t.Fatal(err)
	}
	res, err := results.Execute(t.Context(), e, results.Options{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range res.Runs[0].Sources {
		if s.FeedbackFrames != 0 || s.LoopDelayMin != nil || s.LoopDelayMax != nil {
			t.Errorf("none, source %d: %d feedback frames, loop delays %v %v; want none and null", s.ID, s.FeedbackFrames, s.LoopDelayMin, s.LoopDelayMax)
		}
	}
	for _, s := range res.Runs[1].Sources {
		if s.LoopDelayMin == nil || *s.LoopDelayMin <= 0 {
			t.Errorf("qcn, source %d: loop delay %v, want a positive one", s.ID, s.LoopDelayMin)
		}
	}
}
