package tui

import (
	"strings"
	"testing"
)

// At the question o asks ("open another experiment without saving
// them?"), q is the user's first: it asks the question about quitting, as
// q does anywhere else with unsaved edits, and only a second q quits.
func TestQAtTheOpenQuestionAsksAboutQuitting(t *testing.T) {
	t.Chdir(t.TempDir())
	h := newHarness(t, testExperiment(t), 120, 40)
	editKey(h, "network.rtt", "300us")
	h.keys("esc", "o")
	if !strings.Contains(h.view(), "open another experiment without saving them?") {
		t.Fatalf("o did not ask:\n%s", h.view())
	}
	h.keys("q")
	if h.quit {
		t.Fatalf("one q at the open question quit, losing the unsaved edit (network.rtt = 300us)")
	}
	if !strings.Contains(h.view(), "quit without saving them?") {
		t.Fatalf("q at the open question did not ask about quitting:\n%s", h.view())
	}
	h.keys("q")
	if !h.quit {
		t.Error("a second q did not quit")
	}
}
