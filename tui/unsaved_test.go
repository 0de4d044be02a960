package tui

import (
	"os"
	"strings"
	"testing"

	"qcnlab/algos"
)

const leaveQuestion = "unsaved edits: quit without saving them? (y/n, s saves)"

// q with an unsaved edit asks first; n keeps the edit, and a second q at
// the question quits at once.
func TestQuitAsksBeforeLosingEdits(t *testing.T) {
	h := newHarness(t, twoAlgos(t), 120, 40)
	editKey(h, "network.rtt", "300us")
	h.keys("esc")
	h.keys("q")
	if h.quit {
		t.Fatalf("q quit with an unsaved edit (network.rtt = 300us), asking nothing:\n%s", h.view())
	}
	if !strings.Contains(h.view(), leaveQuestion) {
		t.Fatalf("no question:\n%s", h.view())
	}
	h.keys("n")
	if h.quit || h.m.focus != focusCharts || algos.Time(h.m.exp.Network.RTT) != 300*algos.Microsecond {
		t.Fatalf("n: quit %v, focus %v, rtt %v", h.quit, h.m.focus, h.m.exp.Network.RTT)
	}
	h.keys("q", "q")
	if !h.quit {
		t.Error("a second q at the question did not quit")
	}
}

// ctrl+c asks too, and a second ctrl+c quits; y quits.
func TestCtrlCTwiceQuitsWithEdits(t *testing.T) {
	h := newHarness(t, twoAlgos(t), 120, 40)
	editKey(h, "network.rtt", "300us")
	h.keys("ctrl+c")
	if h.quit || h.m.focus != focusLeave {
		t.Fatalf("ctrl+c: quit %v, focus %v", h.quit, h.m.focus)
	}
	h.keys("ctrl+c")
	if !h.quit {
		t.Error("a second ctrl+c did not quit")
	}
	h = newHarness(t, twoAlgos(t), 120, 40)
	editKey(h, "network.rtt", "300us")
	h.keys("esc", "q", "y")
	if !h.quit {
		t.Error("y did not quit")
	}
}

// o with an unsaved edit asks before opening another experiment: n keeps
// it; s saves it, after which o opens at once.
func TestOpenAsksBeforeLosingEdits(t *testing.T) {
	t.Chdir(t.TempDir())
	h := newHarness(t, testExperiment(t), 120, 40)
	editKey(h, "network.rtt", "300us")
	h.keys("esc", "o")
	if h.m.focus != focusLeave || !strings.Contains(h.view(), "unsaved edits: open another experiment without saving them?") {
		t.Fatalf("o did not ask (focus %v):\n%s", h.m.focus, h.view())
	}
	h.keys("n")
	if h.m.focus != focusCharts {
		t.Fatalf("n: focus %v", h.m.focus)
	}
	h.keys("o", "s")
	if h.m.focus != focusSave {
		t.Fatalf("s at the question: focus %v", h.m.focus)
	}
	h.typeText("kept.toml")
	h.keys("enter")
	if data, err := os.ReadFile("kept.toml"); err != nil || !strings.Contains(string(data), `rtt = "300us"`) {
		t.Fatalf("not saved: %v\n%s", err, data)
	}
	h.keys("o")
	if h.m.focus != focusOpen {
		t.Errorf("o after the save asked again: focus %v", h.m.focus)
	}
}

// What counts as unsaved is what s would write: an edit set back, and
// nothing changed, quit at once; another algorithm active, whose name s
// writes first, asks.
func TestUnsavedIsWhatSaveWouldWrite(t *testing.T) {
	h := newHarness(t, twoAlgos(t), 120, 40)
	h.keys("q")
	if !h.quit {
		t.Fatal("q without edits asked")
	}
	h = newHarness(t, twoAlgos(t), 120, 40)
	editKey(h, "network.rtt", "300us")
	editKey(h, "network.rtt", "100us")
	h.keys("esc", "q")
	if !h.quit {
		t.Fatalf("q asked after an edit set back:\n%s", h.view())
	}
	h = newHarness(t, twoAlgos(t), 120, 40)
	h.keys("tab", "q")
	if h.quit || h.m.focus != focusLeave {
		t.Errorf("q quit after a switch of algorithm that s would save")
	}
}
