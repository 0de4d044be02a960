package tui

import (
	"flag"
	"fmt"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
)

// nineAlgorithms is a full bar: compare mode's grid of three rows.
const nineAlgorithms = `algorithms=["qcn", "qcn-t", "ap-n-aimd", "dsm", "dcqcn", "dctcp", "timely", "hpcc", "swift"]`

// layoutMode is one combination of what the screen shows.
type layoutMode struct {
	compare  bool
	params   string // "", "open" (the table has the keys), "editing"
	bottom   string // "" (the status line), "save", "open"
	fullHelp bool
}

func (lm layoutMode) String() string {
	return fmt.Sprintf("compare=%v params=%q bottom=%q fullHelp=%v", lm.compare, lm.params, lm.bottom, lm.fullHelp)
}

// layoutModes are every combination the keys can reach: a prompt takes
// the keys from the parameter pane, so it never opens while a value is
// edited.
func layoutModes() []layoutMode {
	var out []layoutMode
	for _, compare := range []bool{false, true} {
		for _, params := range []string{"", "open", "editing"} {
			for _, bottom := range []string{"", "save", "open"} {
				if params == "editing" && bottom != "" {
					continue
				}
				for _, full := range []bool{false, true} {
					out = append(out, layoutMode{compare, params, bottom, full})
				}
			}
		}
	}
	return out
}

// enter puts the harness's model in mode lm, from the charts.
func (h *harness) enter(lm layoutMode) {
	h.t.Helper()
	if lm.compare != h.m.compare {
		h.keys("c")
		h.advance(tick250)
	}
	switch lm.params {
	case "open":
		h.keys("e")
	case "editing":
		h.keys("e", "enter")
	}
	switch lm.bottom {
	case "save":
		h.keys("s")
	case "open":
		h.keys("o")
	}
	h.m.help.ShowAll = lm.fullHelp
}

// leave brings the model back to the charts, in the same compare mode.
func (h *harness) leave() {
	h.t.Helper()
	for h.m.focus != focusCharts || h.m.paramsOpen {
		h.keys("esc")
	}
	h.m.help.ShowAll = false
}

// Every mode lays out at every size from the smallest the workbench takes
// (60x16) to 140x50: no part and no pane is given a negative size, and the
// parts add up to the terminal's height. Compare mode with the parameter
// pane crashed on any terminal up to about 90 columns: its cells' height
// went negative.
func TestEveryLayoutFits(t *testing.T) {
	e := testExperiment(t, nineAlgorithms, `sweep.network.rtt=["100us", "300us"]`)
	h := newHarness(t, e, 140, 50)
	h.advance(tick250)
	for _, lm := range layoutModes() {
		h.enter(lm)
		for w := minWidth; w <= 140; w++ {
			for ht := minHeight; ht <= 50; ht++ {
				m := &h.m
				m.width, m.height, m.help.Width = w, ht, w
				sc := m.screen()
				at := fmt.Sprintf("%v at %dx%d", lm, w, ht)
				if sc.body < minBody || sc.chartsW < 0 || sc.chartsH < 0 || sc.paramsW < 0 || sc.paramsH < 0 {
					t.Fatalf("%s: body %d, charts %dx%d, params %dx%d", at, sc.body, sc.chartsW, sc.chartsH, sc.paramsW, sc.paramsH)
				}
				if lines := 2 + len(sc.bar) + sc.body + m.bottomHeight() + len(splitLines(sc.help)); lines != ht {
					t.Fatalf("%s: %d lines", at, lines)
				}
				switch {
				case lm.params != "" && sc.beside && (sc.chartsW+sc.paramsW+2 != w || sc.chartsH != sc.body || sc.paramsH != sc.body):
					t.Fatalf("%s: charts %dx%d beside params %dx%d in a body of %d", at, sc.chartsW, sc.chartsH, sc.paramsW, sc.paramsH, sc.body)
				case lm.params != "" && !sc.beside && sc.chartsH+sc.paramsH != sc.body:
					t.Fatalf("%s: charts %dx%d over params %dx%d in a body of %d", at, sc.chartsW, sc.chartsH, sc.paramsW, sc.paramsH, sc.body)
				case lm.params == "" && (sc.chartsW != w || sc.chartsH != sc.body):
					t.Fatalf("%s: charts %dx%d in a body of %d", at, sc.chartsW, sc.chartsH, sc.body)
				}
			}
		}
		h.send(tea.WindowSizeMsg{Width: 140, Height: 50})
		h.leave()
	}
}

// everySize has TestEveryLayoutRenders draw every size, not a sample: some
// minutes (go test ./tui -run TestEveryLayoutRenders -args -every-size).
var everySize = flag.Bool("every-size", false, "TestEveryLayoutRenders: draw every size from 60x16 to 140x50")

// Every mode renders, with runs on screen, at the sizes where the layout
// changes form (the smallest, the reviewer's 80x24 and 90x28, both sides
// of the width from which the parameter pane sits beside the charts, the
// largest): exactly the terminal's lines, none wider than it. Each size
// draws every chart anew, so not every size is drawn by default (-every-size
// draws them all): TestEveryLayoutFits lays every one out, and
// TestComparisonFitsEveryHeight draws the comparison's cells at every
// height.
func TestEveryLayoutRenders(t *testing.T) {
	e := testExperiment(t, nineAlgorithms, `sweep.network.rtt=["100us", "300us"]`)
	h := newHarness(t, e, 140, 50)
	h.advance(tick250)
	widths, heights := []int{minWidth, 80, 90, wideParams - 1, wideParams, 140}, []int{minHeight, 17, 18, 24, 28, 50}
	if *everySize {
		widths, heights = nil, nil
		for w := minWidth; w <= 140; w++ {
			widths = append(widths, w)
		}
		for ht := minHeight; ht <= 50; ht++ {
			heights = append(heights, ht)
		}
	}
	for _, lm := range layoutModes() {
		h.enter(lm)
		for _, w := range widths {
			for _, ht := range heights {
				renderAt(t, h, lm, w, ht)
			}
		}
		h.send(tea.WindowSizeMsg{Width: 140, Height: 50})
		h.leave()
	}
}

// renderAt sizes the model to w x ht and checks its view and its panes'
// sizes; a panic is reported with the mode and the size.
func renderAt(t *testing.T, h *harness, lm layoutMode, w, ht int) {
	t.Helper()
	defer func() {
		if r := recover(); r != nil {
			t.Fatalf("%v at %dx%d: panic: %v", lm, w, ht, r)
		}
	}()
	h.send(tea.WindowSizeMsg{Width: w, Height: ht})
	for name, p := range map[string]*common{
		"charts": &h.m.charts.common, "comparison": &h.m.comparison.common, "params": &h.m.params.common,
		"save": &h.m.save.common, "open": &h.m.opener.common,
	} {
		if p.width < 0 || p.height < 0 {
			t.Fatalf("%v at %dx%d: the %s pane is %dx%d", lm, w, ht, name, p.width, p.height)
		}
	}
	lines := strings.Split(h.view(), "\n")
	if len(lines) != ht {
		t.Fatalf("%v at %dx%d: %d lines:\n%s", lm, w, ht, len(lines), strings.Join(lines, "\n"))
	}
	for i, l := range lines {
		if n := ansi.StringWidth(l); n > w {
			t.Fatalf("%v at %dx%d: line %d is %d cells wide: %q", lm, w, ht, i+1, n, l)
		}
	}
}

// The comparison of n runs fills exactly its area at every height, from a
// line per run in columns when a chart under each name does not fit to the
// charts of each; it was given two lines under the parameter pane, which
// left its cells a negative height.
func TestComparisonFitsEveryHeight(t *testing.T) {
	e := testExperiment(t, nineAlgorithms)
	h := newHarness(t, e, 140, 50)
	h.keys("c")
	h.advance(tick250)
	h.advance(tick250) // past the warm-up: the cells show their summaries
	m := &h.m
	for _, n := range []int{1, 2, 5, 9} {
		c := comparePane{common: common{keys: m.keys}}
		c.setData(m.scenario, m.sess.names[:n], m.sess.snaps[:n], n-1, 0)
		for _, w := range []int{1, 20, 54, 80, 140} {
			for ht := 0; ht <= 50; ht++ {
				c.setSize(w, ht)
				lines := splitLines(c.view())
				if ht == 0 {
					if c.view() != "" {
						t.Fatalf("%d runs at %dx0: %q", n, w, c.view())
					}
					continue
				}
				if len(lines) != ht {
					t.Fatalf("%d runs at %dx%d: %d lines:\n%s", n, w, ht, len(lines), c.view())
				}
				for i, l := range lines {
					if lw := ansi.StringWidth(l); lw > w {
						t.Fatalf("%d runs at %dx%d: line %d is %d cells wide: %q", n, w, ht, i+1, lw, l)
					}
				}
			}
		}
	}
}
