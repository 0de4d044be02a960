package tui

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
)

// A paste of any length into any text input is cut at what the input
// holds, says so, and leaves the keys working: 100,000 characters froze
// the screen for minutes when the inputs had no limit. The paste comes as
// a terminal sends it, one message (bracketed paste), or in chunks of 256
// bytes, as bubbletea reads an unbracketed one.
func TestLongPasteIsCutAtTheInputsLimit(t *testing.T) {
	const n = 100_000
	paste := strings.Repeat("a", n)
	inputs := []struct {
		name  string
		open  func(h *harness)
		value func(m Model) string
		err   func(m Model) string
		limit int
	}{
		{"save", func(h *harness) { h.keys("s", "ctrl+u") },
			func(m Model) string { return m.save.input.Value() }, func(m Model) string { return m.save.err }, maxPathChars},
		{"open", func(h *harness) { h.keys("o", "ctrl+u") },
			func(m Model) string { return m.opener.input.Value() }, func(m Model) string { return m.opener.err }, maxPathChars},
		{"params", func(h *harness) { selectKey(h, "network.rtt"); h.keys("enter", "ctrl+u") },
			func(m Model) string { return m.params.input.Value() }, func(m Model) string { return m.params.err }, maxValueChars},
	}
	for _, in := range inputs {
		for _, chunked := range []bool{false, true} {
			h := newHarness(t, testExperiment(t), 120, 40)
			in.open(h)
			focus := h.m.focus
			if chunked {
				for i := 0; i < n; i += 256 {
					h.send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(paste[i:min(n, i+256)])})
				}
			} else {
				h.send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(paste), Paste: true})
			}
			if got := len(in.value(h.m)); got != in.limit {
				t.Errorf("%s (chunked %v): the input holds %d characters after the paste, want its limit %d", in.name, chunked, got, in.limit)
			}
			if !strings.Contains(in.err(h.m), "holds at most") || !strings.Contains(h.view(), "holds at most") {
				t.Errorf("%s (chunked %v): no word that the paste was cut: %q", in.name, chunked, in.err(h.m))
			}
			h.keys("esc")
			if h.m.focus == focus && in.name != "params" || in.name == "params" && h.m.params.editing {
				t.Errorf("%s (chunked %v): esc did not close the input after the paste", in.name, chunked)
			}
		}
	}
	// A burst read together that opens the prompt with its first key: the
	// rest is the prompt's text.
	h := newHarness(t, testExperiment(t), 120, 40)
	h.send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("s" + paste)})
	if h.m.focus != focusSave || len(h.m.save.input.Value()) < maxPathChars-len(defaultSavePath(h.m.exp.Name)) {
		t.Errorf("s and a paste read together: focus %v, the prompt holds %d characters", h.m.focus, len(h.m.save.input.Value()))
	}
}
