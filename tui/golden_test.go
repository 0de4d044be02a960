package tui

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"
)

// Golden views: colours off (TestMain), fixed sizes, simulated time moved
// by explicit ticks. Rewrite them with go test ./tui -update.

// tick is one tick's worth of wall time in the tests: at the default 0.01x
// it moves the run 2.5 ms.
const tick250 = 250 * time.Millisecond

func requireView(t *testing.T, h *harness, w, ht int) {
	t.Helper()
	v := h.view()
	checkSize(t, v, w, ht)
	golden.RequireEqual(t, []byte(v+"\n"))
}

// checkSize fails unless the view is exactly h lines of at most w cells.
func checkSize(t testing.TB, v string, w, h int) {
	t.Helper()
	lines := strings.Split(v, "\n")
	if len(lines) != h {
		t.Errorf("view has %d lines, want %d", len(lines), h)
	}
	for i, l := range lines {
		if n := ansi.StringWidth(l); n > w {
			t.Errorf("line %d is %d cells wide, want at most %d: %q", i+1, n, w, l)
		}
	}
}

func TestGoldenMain(t *testing.T) {
	for _, size := range []struct{ w, h int }{{120, 40}, {80, 24}} {
		t.Run(fmt.Sprintf("%dx%d", size.w, size.h), func(t *testing.T) {
			h := newHarness(t, testExperiment(t), size.w, size.h)
			for range 5 {
				h.advance(tick250)
			}
			requireView(t, h, size.w, size.h)
		})
	}
}

func TestGoldenCompare(t *testing.T) {
	e := testExperiment(t, `algorithms=["qcn", "`+gentleQCN+`"]`)
	h := newHarness(t, e, 120, 40)
	h.keys("c")
	for range 8 { // to the end of the 20 ms run
		h.advance(tick250)
	}
	if h.m.state() != stateFinished {
		t.Fatalf("state %v, want finished", h.m.state())
	}
	requireView(t, h, 120, 40)
}

func TestGoldenParamsError(t *testing.T) {
	for _, size := range []struct{ w, h int }{{120, 40}, {80, 24}} {
		t.Run(fmt.Sprintf("%dx%d", size.w, size.h), func(t *testing.T) {
			h := newHarness(t, testExperiment(t), size.w, size.h)
			h.advance(tick250)
			editKey(h, "network.rtt", "300")
			requireView(t, h, size.w, size.h)
		})
	}
}

func TestGoldenHelp(t *testing.T) {
	h := newHarness(t, testExperiment(t), 120, 40)
	h.advance(tick250)
	h.keys("?")
	requireView(t, h, 120, 40)
}

func TestGoldenSavePrompt(t *testing.T) {
	h := newHarness(t, testExperiment(t), 80, 24)
	h.advance(tick250)
	h.keys("s")
	requireView(t, h, 80, 24)
}

func TestGoldenTooSmall(t *testing.T) {
	h := newHarness(t, testExperiment(t), 50, 12)
	requireView(t, h, 50, 12)
}
