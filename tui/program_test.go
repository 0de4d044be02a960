package tui

import (
	"bytes"
	"testing"
	"time"

	"github.com/charmbracelet/x/exp/teatest"
)

// The model inside a real bubbletea program (teatest): the first tick
// shows the run, tab switches algorithm (which s would save: q asks), q
// and y quit and stop the runs.
func TestProgram(t *testing.T) {
	m := newModel()
	if err := m.start(twoAlgos(t), algorithmBar(twoAlgos(t)), 0); err != nil {
		t.Fatal(err)
	}
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(120, 40))
	tm.Send(tickMsg(epoch))
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool {
		return bytes.Contains(b, []byte("[1 QCN]")) && bytes.Contains(b, []byte("running"))
	}, teatest.WithDuration(5*time.Second))
	tm.Send(keyMsg("tab"))
	tm.Send(tickMsg(epoch.Add(tick250)))
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool {
		return bytes.Contains(b, []byte("[2 QCN-GD/2]"))
	}, teatest.WithDuration(5*time.Second))
	tm.Send(keyMsg("q"))
	tm.Send(keyMsg("y"))
	final := tm.FinalModel(t, teatest.WithFinalTimeout(5*time.Second)).(Model)
	if final.bar[final.active] != gentleQCN || !final.quitting {
		t.Errorf("final model: active %q quitting %v", final.bar[final.active], final.quitting)
	}
	select {
	case <-final.sess.drivers[0].done:
	default:
		t.Error("quitting left the run going")
	}
	if m.sess.drivers[0].snapshot() == nil {
		t.Error("no snapshot")
	}
	select {
	case <-m.sess.drivers[0].done: // the first run stopped when tab replaced it
	default:
		t.Error("switching left the first run going")
	}
}
