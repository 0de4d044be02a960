package tui

import (
	"slices"
	"strings"
	"testing"

	"qcnlab/experiments"
)

// Every built-in opens in the workbench and draws its header and charts,
// whatever keys it sets: an override's line rate leaves
// sources.initial_rate unset (pfc-congestion-spreading).
func TestEveryBuiltinOpens(t *testing.T) {
	for _, name := range experiments.BuiltinNames() {
		e, err := experiments.Builtin(name)
		if err != nil {
			t.Fatal(err)
		}
		h := newHarness(t, e, 120, 40)
		h.advance(tick250)
		if v := h.view(); !strings.Contains(v, name) {
			t.Errorf("%s: the view does not name it:\n%s", name, v)
		}
	}
}

// A fabric in the workbench: the header names its shape, the queue chart
// its watched ports, the stats line its tiers, and the parameter pane its
// keys.
func TestFabricInTheWorkbench(t *testing.T) {
	e, err := experiments.Builtin("pfc-spreading-fat-tree")
	if err != nil {
		t.Fatal(err)
	}
	h := newHarness(t, e, 160, 44)
	for range 40 {
		h.advance(tick250)
	}
	v := h.view()
	for _, want := range []string{"fat-tree k=4", "ecmp, incast", "->"} {
		if !strings.Contains(v, want) {
			t.Errorf("the view lacks %q:\n%s", want, v)
		}
	}
	if !strings.Contains(v, "tiers host") && !strings.Contains(v, "max host") {
		t.Errorf("the stats line names no tier:\n%s", v)
	}
	if s := h.m.mainSnap(); s == nil || !strings.Contains(tierText(s.summary, false), "edge up") || !strings.Contains(tierText(s.summary, false), "pauses") {
		t.Errorf("the tier line: %q", tierText(h.m.mainSnap().summary, false))
	}
	rows := paramRows(e, "qcn")
	var keys []string
	for _, r := range rows {
		keys = append(keys, r.key)
	}
	for _, want := range []string{"network.k", "network.routing", "traffic.pattern", "traffic.incast_to"} {
		if !slices.Contains(keys, want) {
			t.Errorf("the parameter pane lacks %s: %v", want, keys)
		}
	}
	if slices.Contains(keys, "sources.count") {
		t.Error("the parameter pane offers sources.count on a fabric")
	}
}
