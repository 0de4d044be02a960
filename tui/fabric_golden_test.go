package tui

import (
	"strings"
	"testing"

	"qcnlab/experiments"
)

// fabricExperiment is qcn-incast-leaf-spine shortened: 32 incast flows
// and, as [[flows]], the victims 32-35 the experiment is about.
func fabricExperiment(t *testing.T) *experiments.Experiment {
	t.Helper()
	e, err := experiments.Open("qcn-incast-leaf-spine")
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"duration=5ms", `algorithms=["none"]`} {
		if err := e.Set(s); err != nil {
			t.Fatal(err)
		}
	}
	if err := e.Validate(); err != nil {
		t.Fatal(err)
	}
	return e
}

// A fabric's workbench draws the victims (flows 32-35, watched first),
// counts every flow ("of 36 flows"), draws delivered rates (the t key
// turns to the sending rates) and, with PFC, each tier's share of the
// time paused; nothing is cut at 120 columns.
func TestGoldenFabricVictims(t *testing.T) {
	h := newHarness(t, fabricExperiment(t), 120, 40)
	for range 2 {
		h.advance(tick250)
	}
	v := h.view()
	for _, want := range []string{"delivered", "of 36 flows", "f32", "f33", "f34", "f35", "paused (PFC", "leaf up ", "spine0->leaf0 "} {
		if !strings.Contains(v, want) {
			t.Errorf("view lacks %q", want)
		}
	}
	hosts := false
	for _, line := range strings.Split(v, "\n") {
		if strings.Contains(line, "…") {
			t.Errorf("a line is cut: %q", line)
		}
		hosts = hosts || strings.HasPrefix(line, "host ") // the hosts' links: PFC holds them too
	}
	if !hosts {
		t.Error("the PFC view has no line for the hosts' links")
	}
	requireView(t, h, 120, 40)
	h.keys("t")
	if v := h.view(); !strings.Contains(v, "rates") || strings.Contains(v, "━ delivered") {
		t.Errorf("after t, the sending rates:\n%s", v)
	}
}

// On a shorter screen the PFC view keeps the tiers and drops the watched
// ports' lines first, the charts keeping their height.
func TestPFCViewTrimsPortsFirst(t *testing.T) {
	h := newHarness(t, fabricExperiment(t), 120, 30)
	for range 2 {
		h.advance(tick250)
	}
	v := h.view()
	for _, want := range []string{"paused (PFC", "host ", "leaf up ", "spine down "} {
		if !strings.Contains(v, want) {
			t.Errorf("view lacks %q:\n%s", want, v)
		}
	}
	if strings.Contains(v, "leaf3->spine0 ") {
		t.Errorf("the last watched port's pause line kept on a short screen:\n%s", v)
	}
}

// DCQCN marks between K_min and K_max: the queue chart draws and names
// that band, not a single target.
func TestDCQCNBand(t *testing.T) {
	h := newHarness(t, testExperiment(t, `algorithms=["dcqcn"]`), 120, 40)
	h.advance(tick250)
	v := h.view()
	if !strings.Contains(v, "K_min 1.25KB, K_max 50KB") || strings.Contains(v, "q_eq") {
		t.Errorf("the queue chart's marks:\n%s", v)
	}
}
