package tui

import (
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
