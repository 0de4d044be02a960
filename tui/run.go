package tui

import (
	"errors"
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"qcnlab/experiments"
)

// ErrInterrupted is what Run returns when SIGINT or SIGTERM stopped the
// workbench (the error names the signal): the batch commands treat both
// signals alike, and so does the workbench.
var ErrInterrupted = errors.New("interrupted")

// Run opens the workbench on an experiment in the terminal and returns when
// the user quits.
func Run(e *experiments.Experiment) error {
	m, err := New(e)
	if err != nil {
		return err
	}
	// bubbletea's own handler turns SIGINT into "program was killed:
	// program was interrupted" and SIGTERM into a quiet quit with status 0;
	// the workbench handles both itself.
	sig := make(chan os.Signal, 2)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(sig)
	// Frames no faster than the UI's clock: more would show nothing new,
	// and the renderer wakes up at this rate even when the workbench is idle.
	p := tea.NewProgram(m, tea.WithAltScreen(), tea.WithFPS(int(time.Second/tickEvery)), tea.WithoutSignalHandler())
	final, err := runProgram(p, sig)
	if f, ok := final.(Model); ok {
		f.Close()
	}
	m.Close()
	return err
}

// runProgram runs p until it quits or a signal comes on sig: the first
// quits it as q does (the terminal restored), a second kills it should the
// first not get through. A signal makes the error ErrInterrupted.
func runProgram(p *tea.Program, sig <-chan os.Signal) (tea.Model, error) {
	var got os.Signal
	caught := make(chan os.Signal, 1)
	done := make(chan struct{})
	defer close(done)
	go func() {
		for n := 0; ; n++ {
			select {
			case s := <-sig:
				if n == 0 {
					caught <- s
					go p.Quit()
				} else {
					p.Kill()
				}
			case <-done:
				return
			}
		}
	}()
	final, err := p.Run()
	select {
	case got = <-caught:
	default:
	}
	if got == nil {
		return final, err
	}
	name := got.String()
	if s, ok := got.(syscall.Signal); ok {
		name = signalName(s)
	}
	return final, fmt.Errorf("%w by %s", ErrInterrupted, name)
}

func signalName(s syscall.Signal) string {
	switch s {
	case syscall.SIGINT:
		return "SIGINT"
	case syscall.SIGTERM:
		return "SIGTERM"
	}
	return s.String()
}
