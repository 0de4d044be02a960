package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"qcnlab/experiments/outdir"
)

// A batch interrupted (Ctrl-C) on a full disk tells both: what its
// directory lacks, and that it was interrupted; exit status 1. The disk
// fills as run 0's figure is written, and Ctrl-C comes then, in run 1.
func TestInterruptedOnAFullDiskSaysBoth(t *testing.T) {
	out := filepath.Join(t.TempDir(), "out")
	outdir.TestHookBeforeRename = func(rel string) error {
		if strings.HasPrefix(rel, "plots/run") {
			syscall.Kill(os.Getpid(), syscall.SIGINT) // caught: the batch's signal handler is in place
			return syscall.ENOSPC
		}
		return nil
	}
	defer func() { outdir.TestHookBeforeRename = nil }()
	var stdout, stderr bytes.Buffer
	code := run([]string{"run", "qcn-dumbbell", "--set", "warmup=0s", "--set", `sweep.duration=["1ms", "100s"]`, "--workers", "1", "--out", out, "--plot", "svg"}, &stdout, &stderr)
	msg := stderr.String()
	for _, want := range []string{
		out + ": no space left on device, found writing run 0's files",
		out + " lacks: the figures of run 0",
		"qcnlab: interrupted; the summary above covers the 1 run that finished",
	} {
		if !strings.Contains(msg, want) {
			t.Errorf("stderr %q\nsays nothing of %q", msg, want)
		}
	}
	if code != exitRun {
		t.Errorf("exit %d, want %d", code, exitRun)
	}
}

// A batch stopped while it wrote its outputs prints what it had lost
// before, beside the interruption.
func TestBesidesTheInterruption(t *testing.T) {
	var stderr bytes.Buffer
	c := &call{stderr: &stderr}
	c.besides(errors.Join(errors.New("out/timeseries.csv.gz: no space left on device"), fmt.Errorf("writing: %w", context.Canceled)))
	if got := stderr.String(); got != "qcnlab: out/timeseries.csv.gz: no space left on device\n" {
		t.Errorf("%q, want the lost file alone", got)
	}
	stderr.Reset()
	c.besides(context.Canceled)
	if stderr.Len() > 0 {
		t.Errorf("%q for a cancellation alone", stderr.String())
	}
}
