package tui

import (
	"strings"
	"testing"
)

// Compare mode runs every algorithm of the bar at once: when their
// estimates do not fit the memory budget together it is refused with a
// status line, and the run on screen goes on (sources.count=60000 once
// took 8GB and more).
func TestCompareRefusedBeyondTheMemoryBudget(t *testing.T) {
	e := twoAlgos(t)
	one := e.RunCost(e.Algorithms[0]).Memory
	saved := memoryBudget
	defer func() { memoryBudget = saved }()
	memoryBudget = one // room for one run, not two
	h := newHarness(t, e, 120, 40)
	sess := h.m.sess
	h.keys("c")
	if h.m.compare || h.m.sess != sess {
		t.Fatal("compare mode started beyond the memory budget")
	}
	if !strings.Contains(h.view(), "compare mode's 2 runs would need ~") || !strings.Contains(h.view(), "of memory together") {
		t.Errorf("no status line saying why:\n%s", h.view())
	}
	// With room for both, it starts.
	memoryBudget = saved
	h.keys("c")
	if !h.m.compare || len(h.m.sess.drivers) != 2 {
		t.Error("compare mode did not start within the budget")
	}
}
