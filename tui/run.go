package tui

import (
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
	final, err := tea.NewProgram(m, tea.WithAltScreen()).Run()
	if f, ok := final.(Model); ok {
		f.Close()
	}
	m.Close()
	return err
}
