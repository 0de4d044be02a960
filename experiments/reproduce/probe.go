package reproduce

import (
	"sync"

	"qcnlab/experiments"
	"qcnlab/experiments/batch"
	"qcnlab/model"
)

// Probe watches the runs of a claim's part for what their summaries do not
// hold: the associations of ECM's rate limiters, the feedback sequence of
// an AP source, the rates over time. It may wrap the reaction points the
// model builds (cfg.Scheme) and sees every sample of the run.
type Probe interface {
	// Name tells probes apart: two parts with the same experiment and
	// the same probe share their runs.
	Name() string
	// Attach prepares one run.
	Attach(run experiments.Run, cfg *model.Config) ProbeRun
}

// ProbeRun watches one run.
type ProbeRun interface {
	Sample(x *model.Sample)
	// Finish returns what the probe measured, by name.
	Finish(s *model.Summary) map[string]float64
}

// probeSink is the batch sink of a probed part: it attaches the probe to
// each run and keeps what it measured, by run index.
type probeSink struct {
	probe Probe
	mu    sync.Mutex
	extra map[int]map[string]float64
}

func (ps *probeSink) Start(i int, run experiments.Run, cfg *model.Config) (batch.Recorder, error) {
	return &probeRecorder{sink: ps, i: i, run: ps.probe.Attach(run, cfg)}, nil
}

type probeRecorder struct {
	sink *probeSink
	i    int
	run  ProbeRun
}

func (pr *probeRecorder) Sample(x *model.Sample) { pr.run.Sample(x) }

func (pr *probeRecorder) Finish(s *batch.RunSummary) error {
	x := pr.run.Finish(&s.Summary)
	pr.sink.mu.Lock()
	defer pr.sink.mu.Unlock()
	if pr.sink.extra == nil {
		pr.sink.extra = map[int]map[string]float64{}
	}
	pr.sink.extra[pr.i] = x
	return nil
}

func (pr *probeRecorder) Discard() {}
