package tui

import (
	"errors"
	"io"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
)

// SIGTERM stops the workbench as SIGINT does: an error naming the signal
// (the command exits 1, interrupted), where bubbletea's own handler quit
// quietly on SIGTERM (status 0) and called SIGINT "program was killed".
// Quitting with q is no error.
func TestSignalsStopTheWorkbenchAlike(t *testing.T) {
	for _, s := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM, 0} {
		m := newModel()
		if err := m.start(testExperiment(t), algorithmBar(testExperiment(t)), 0); err != nil {
			t.Fatal(err)
		}
		p := tea.NewProgram(m, tea.WithInput(nil), tea.WithOutput(io.Discard), tea.WithoutSignalHandler())
		sig := make(chan os.Signal, 1)
		type result struct {
			final tea.Model
			err   error
		}
		done := make(chan result, 1)
		go func() {
			final, err := runProgram(p, sig)
			done <- result{final, err}
		}()
		if s != 0 {
			sig <- s
		} else {
			p.Send(keyMsg("q"))
		}
		var r result
		select {
		case r = <-done:
		case <-time.After(time.Minute): // a hang, not a measure of speed
			p.Kill()
			t.Fatalf("%v: the workbench did not stop", s)
		}
		if f, ok := r.final.(Model); ok {
			f.Close()
		}
		m.Close()
		switch {
		case s == 0 && r.err != nil:
			t.Errorf("q: %v, want no error", r.err)
		case s != 0 && (!errors.Is(r.err, ErrInterrupted) || !strings.Contains(r.err.Error(), "interrupted by "+signalName(s))):
			t.Errorf("%v: error %v, want %q", s, r.err, "interrupted by "+signalName(s))
		}
	}
}
