package model_test

import (
	"testing"

	"qcnlab/algos"
	"qcnlab/experiments"
	"qcnlab/model"
)

// Every built-in and variant the goldens guard keeps its ports' records in
// step with their queues (model.CheckRecords), and derives what left its
// ports as it was counted (model.CheckCounters), at every step of a thousand:
// each algorithm at the first point of its sweep, shortened as the goldens
// shorten it.
func TestBuiltinsKeepTheirRecords(t *testing.T) {
	if testing.Short() {
		t.Skip("runs every built-in")
	}
	open := map[string]func() (*experiments.Experiment, error){}
	for _, name := range experiments.BuiltinNames() {
		open[name] = func() (*experiments.Experiment, error) { return experiments.Builtin(name) }
	}
	for name, v := range variants {
		open["variant-"+name] = func() (*experiments.Experiment, error) { return experiments.OpenWith(v[0], v[1:]) }
	}
	for name, o := range open {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			e, err := o()
			if err != nil {
				t.Fatal(err)
			}
			runs, err := e.Runs()
			if err != nil {
				t.Fatal(err)
			}
			for _, run := range runs[:len(e.Algorithms)] {
				cfg := regressionConfig(t, run)
				sim, err := model.New(cfg)
				if err != nil {
					t.Fatalf("%s: %v", run.Label(), err)
				}
				model.CountDepartures(sim)
				for k := algos.Time(1); k <= 1000; k++ {
					sim.Advance(cfg.Duration * k / 1000)
					if err := model.CheckRecords(sim); err != nil {
						t.Fatalf("%s: %v", run.Label(), err)
					}
					if err := model.CheckCounters(sim); err != nil {
						t.Fatalf("%s: %v", run.Label(), err)
					}
				}
			}
		})
	}
}
