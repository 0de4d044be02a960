package tui

import (
	"testing"

	tea "github.com/charmbracelet/bubbletea"
)

// deliver delivers one message to a live-clocked model without running the
// command it returns (a real tick would sleep), and returns the command.
func deliver(h *harness, msg tea.Msg) tea.Cmd {
	next, cmd := h.m.Update(msg)
	h.m = next.(Model)
	return cmd
}

// builtIn runs cmd (no timer in it: they sleep) and returns the end of
// the build it holds, if any.
func builtIn(cmd tea.Cmd) *builtMsg {
	if cmd == nil {
		return nil
	}
	switch msg := cmd().(type) {
	case builtMsg:
		return &msg
	case tea.BatchMsg:
		for _, c := range msg {
			if b := builtIn(c); b != nil {
				return b
			}
		}
	}
	return nil
}

// An idle workbench (paused, finished) stops its clock; a key that sets a
// run going starts it again.
func TestIdleStopsTicking(t *testing.T) {
	h := newHarness(t, testExperiment(t), 120, 40)
	h.advance(tick250)
	h.m.autoTick, h.m.ticking = true, true // as New and Init leave it

	if cmd := deliver(h, tickMsg(h.now)); cmd == nil || !h.m.ticking {
		t.Fatal("a running workbench stopped ticking")
	}
	deliver(h, keyMsg("space"))
	for _, d := range h.m.sess.drivers {
		waitFor(t, d, h.m.target)
	}
	if cmd := deliver(h, tickMsg(h.now)); cmd != nil || h.m.ticking {
		t.Fatal("a paused workbench ticks on")
	}
	// Keys that change nothing that moves leave the clock stopped.
	for _, k := range []string{"?", "?", "e", "down", "esc"} {
		if cmd := deliver(h, keyMsg(k)); cmd != nil || h.m.ticking {
			t.Errorf("%q started the clock of a paused run", k)
		}
	}
	// Resuming starts it.
	if cmd := deliver(h, keyMsg("space")); cmd == nil || !h.m.ticking {
		t.Fatal("resuming did not start the clock")
	}
	// Run to the end: once the last snapshot is on screen, the clock stops.
	deliver(h, keyMsg("0"))
	stopped := false
	for range 200 {
		for _, d := range h.m.sess.drivers {
			waitFor(t, d, h.m.target)
		}
		h.now = h.now.Add(tickEvery)
		if deliver(h, tickMsg(h.now)) == nil {
			stopped = true
			break
		}
	}
	if !stopped || h.m.state() != stateFinished || h.m.ticking {
		t.Fatalf("finished run: clock stopped %v, state %v", stopped, h.m.state())
	}
	// r restarts the run, and the clock once the run is built.
	cmd := deliver(h, keyMsg("r"))
	if h.m.state() != stateBuilding || h.m.ticking {
		t.Fatalf("restart: state %v, ticking %v", h.m.state(), h.m.ticking)
	}
	if built := builtIn(cmd); built == nil || deliver(h, *built) == nil || !h.m.ticking {
		t.Error("restart did not start the clock")
	}
}

// A status message fades by its own timer, so it fades while idle too; a
// timer set for an older message leaves a newer one.
func TestStatusFadesWithoutTicks(t *testing.T) {
	h := newHarness(t, testExperiment(t), 120, 40)
	h.m.autoTick, h.m.ticking = true, true
	h.m.setStatus("first", false)
	first := h.m.statusSeq
	if cmd := h.m.clock(); cmd == nil {
		t.Fatal("no fade timer for a new message")
	}
	h.m.setStatus("second", false)
	deliver(h, fadeMsg(first))
	if h.m.status != "second" {
		t.Errorf("an old timer cleared the new message: %q", h.m.status)
	}
	deliver(h, fadeMsg(h.m.statusSeq))
	if h.m.status != "" {
		t.Errorf("the message did not fade: %q", h.m.status)
	}
}
