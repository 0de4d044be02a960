package experiments_test

import (
	"math"
	"os"
	"strings"
	"testing"

	"qcnlab/algos"
	"qcnlab/experiments"
	"qcnlab/model"
)

// dumbbellUtilization runs the default experiment under one scheme with
// the settings sets and gives its bottleneck's utilization in percent.
func dumbbellUtilization(t *testing.T, scheme string, sets ...string) float64 {
	t.Helper()
	return 100 * dumbbellRun(t, scheme, sets...).Bottlenecks[0].Utilization
}

// dumbbellRun runs the default experiment under one scheme with the
// settings sets and gives its summary.
func dumbbellRun(t *testing.T, scheme string, sets ...string) model.Summary {
	t.Helper()
	e, err := experiments.Builtin("qcn-dumbbell")
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range append([]string{`algorithms=["` + scheme + `"]`}, sets...) {
		if err := e.Set(s); err != nil {
			t.Fatal(err)
		}
	}
	return simulate(t, e, scheme)
}

// simulate runs experiment e's packet model under one scheme, once, and
// gives its summary.
func simulate(t *testing.T, e *experiments.Experiment, scheme string) model.Summary {
	t.Helper()
	cfg, err := e.Config(scheme)
	if err != nil {
		t.Fatal(err)
	}
	sim, err := model.NewPacket(cfg)
	if err != nil {
		t.Fatal(err)
	}
	sim.Run()
	return sim.Summary()
}

// readmeSchemeRow is the README's row of a scheme in its tables of schemes.
func readmeSchemeRow(t *testing.T, name string) string {
	t.Helper()
	data, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(line, "| `"+name+"` |") {
			return line
		}
	}
	t.Fatalf("README.md has no row for %s", name)
	return ""
}

// Swift's and TIMELY's defaults are made for a fabric; on the default
// dumbbell's 100 us they leave the link mostly idle. Their notes (qcnlab
// list, qcnlab algos) and README rows quote what that costs, measured here.
func TestSchemeNotesQuoteTheDefaultDumbbell(t *testing.T) {
	for _, c := range []struct {
		scheme string
		quote  string // as the note and the README write it
		want   float64
		tol    float64 // relative
		sets   []string
	}{
		// Swift's target (20 us, plus 3 us a hop and at most 100 us of
		// flow scaling at a tenth of a frame) lies below 100 us of base RTT
		// unless the window is a fraction of a frame.
		{"swift", "0.73% used", 0.73, 0.01, nil},
		{"swift", "100%", 100, 0.0005, []string{"params.swift.target_adds_base_rtt=true"}},
		// Above T_low the gradient rule cuts on one frame's queueing.
		{"timely", "53.6% used", 53.6, 0.001, nil},
		{"timely", "at 40 us: 94.7%", 94.7, 0.001, []string{"network.rtt=40us"}},
	} {
		sc, err := algos.Lookup(c.scheme)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(sc.Note, c.quote) {
			t.Errorf("%s: the note %q does not say %q", c.scheme, sc.Note, c.quote)
		}
		if row := readmeSchemeRow(t, c.scheme); !strings.Contains(row, c.quote) {
			t.Errorf("%s: the README's row does not say %q", c.scheme, c.quote)
		}
		if got := dumbbellUtilization(t, c.scheme, c.sets...); math.Abs(got-c.want) > c.tol*c.want {
			t.Errorf("%s %v: utilization %.4g%%, the note says %q", c.scheme, c.sets, got, c.quote)
		}
	}
}
