package tui

import (
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"qcnlab/experiments"
)

// Run opens the workbench on an experiment in the terminal and returns when
// the user quits.
func Run(e *experiments.Experiment) error {
	m, err := New(e)
	if err != nil {
		return err
	}
	// Frames no faster than the UI's clock: more would show nothing new,
	// and the renderer wakes up at this rate even when the workbench is idle.
	final, err := tea.NewProgram(m, tea.WithAltScreen(), tea.WithFPS(int(time.Second/tickEvery))).Run()
	if f, ok := final.(Model); ok {
		f.Close()
	}
	m.Close()
	return err
}
