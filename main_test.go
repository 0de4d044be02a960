package main

import (
	"bytes"
	"strings"
	"testing"
)

// Without a terminal, bare qcnlab runs the default experiment in batch.
func TestBareWithoutTerminalRunsBatch(t *testing.T) {
	var out, errs bytes.Buffer
	if code := run(nil, &out, &errs); code != exitOK {
		t.Fatalf("exit %d: %s", code, errs.String())
	}
	if !strings.Contains(out.String(), "qcn  (seed 1)") || !strings.Contains(out.String(), "utilization") {
		t.Errorf("no summary:\n%s", out.String())
	}
}

func TestTuiCommand(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"tui"}, "the workbench needs a terminal"},
		{[]string{"tui", "no-such-experiment"}, `no built-in experiment "no-such-experiment"`},
		{[]string{"tui", "--set", "network.rtt=300"}, "network.rtt"},
		{[]string{"tui", "a", "b"}, "at most one experiment"},
	} {
		var out, errs bytes.Buffer
		if code := run(c.args, &out, &errs); code != exitUsage || !strings.Contains(errs.String(), c.want) {
			t.Errorf("%v: exit %d, stderr %q, want %d and %q", c.args, code, errs.String(), exitUsage, c.want)
		}
	}
}
