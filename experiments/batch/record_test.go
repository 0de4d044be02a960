package batch

import (
	"context"
	"errors"
	"strings"
	"syscall"
	"testing"

	"qcnlab/experiments"
	"qcnlab/model"
)

// failingSink fails to start run startFails and to finish run finishFails,
// as a sink whose outputs meet a full disk does.
type failingSink struct {
	startFails, finishFails int
}

type failingRecorder struct {
	i, finishFails int
}

func (s failingSink) Start(i int, _ experiments.Run, _ *model.Config) (Recorder, error) {
	if i == s.startFails {
		return nil, errors.New("part of run: no space left on device")
	}
	return failingRecorder{i, s.finishFails}, nil
}

func (r failingRecorder) Sample(*model.Sample) {}
func (r failingRecorder) Discard()             {}
func (r failingRecorder) Finish(*RunSummary) error {
	if r.i == r.finishFails {
		return syscall.ENOSPC
	}
	return nil
}

// A run whose recording fails, as it starts or as it ends, still ran to its
// end: its summary is kept beside its error, which fails it.
func TestFinishedRunKeepsItsSummaryWhenItsRecordingFails(t *testing.T) {
	runs := sweep(t)
	sums, errs := Execute(context.Background(), runs, nil, Options{Workers: 2, Sink: failingSink{startFails: 1, finishFails: 2}})
	for i, s := range sums {
		if s == nil || s.Run != i || s.Frames == 0 {
			t.Errorf("run %d: summary %+v, want the run's numbers", i, s)
		}
	}
	if errs[0] != nil || errs[3] != nil || errs[1] == nil || !errors.Is(errs[2], syscall.ENOSPC) {
		t.Errorf("errors %v, want runs 1 and 2 failed", errs)
	}
	if err := Failures(runs, errs); err == nil || !strings.Contains(err.Error(), runs[2].Label()+": no space left") {
		t.Errorf("failures %v, want run 2 named", err)
	}
}
