package tui

import (
	"testing"

	tea "github.com/charmbracelet/bubbletea"
)

// bubbletea delivers keys read together as one KeyMsg with several runes:
// every key of such a burst must act, wherever the focus is.
func TestKeyBurstsActKeyByKey(t *testing.T) {
	burst := func(s string) tea.KeyMsg { return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(s)} }
	h := newHarness(t, twoAlgos(t), 120, 40)
	h.send(burst("+++"))
	if h.m.speed != defaultSpeed+3 {
		t.Errorf(`"+++" moved the speed %d steps, want 3`, h.m.speed-defaultSpeed)
	}
	h.send(burst("--"))
	if h.m.speed != defaultSpeed+1 {
		t.Errorf(`"--" left speed step %d, want %d`, h.m.speed, defaultSpeed+1)
	}
	h.send(burst("ccc"))
	if !h.m.compare || len(h.m.sess.drivers) != 2 {
		t.Error(`"ccc" did not leave compare mode on`)
	}
	h.send(burst("21"))
	if h.m.active != 0 {
		t.Errorf(`"21" left algorithm %d active, want 0`, h.m.active)
	}
	h.send(burst("  ")) // pause, resume: spaces act as the space key
	if h.m.paused {
		t.Error(`"  " left the run paused`)
	}
	h.send(burst(" "))
	if !h.m.paused {
		t.Error(`" " did not pause`)
	}
	// In the parameter pane, "jjj" moves down three rows.
	h.keys("e")
	h.send(burst("jjj"))
	if got := h.m.params.table.Cursor(); got != 3 {
		t.Errorf(`"jjj" moved to row %d, want 3`, got)
	}
	// In a text input a burst is text, and a paste stays whole.
	h.keys("esc", "s", "ctrl+u")
	h.send(burst("a+b"), tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("c d"), Paste: true})
	if got := h.m.save.input.Value(); got != "a+bc d" {
		t.Errorf("save prompt holds %q, want %q", got, "a+bc d")
	}
	// Keys after a quit in the same burst do nothing.
	q := newHarness(t, testExperiment(t), 120, 40)
	sess := q.m.sess
	q.send(burst("qr"))
	if !q.quit || q.m.sess != sess {
		t.Error(`"qr" started a run after quitting`)
	}
}
