package tui

import (
	"github.com/charmbracelet/bubbles/help"
	tea "github.com/charmbracelet/bubbletea"
)

// pane is one part of the screen: the charts, the comparison of runs, the
// parameter table, a prompt. The root model lays the panes out with
// setSize, hands the messages of the focused one to its update, and shows
// its keyHelp on the help line.
type pane interface {
	update(msg tea.Msg) tea.Cmd
	view() string
	setSize(width, height int)
	keyHelp(narrow bool) help.KeyMap
}

// common is what every pane holds: its size and the workbench's key
// bindings, one keyMap shared by the root model and every pane.
type common struct {
	width, height int
	keys          *keyMap
}

func (c *common) setSize(w, h int) { c.width, c.height = w, h }

var (
	_ pane = (*chartsPane)(nil)
	_ pane = (*comparePane)(nil)
	_ pane = (*paramsPane)(nil)
	_ pane = (*savePrompt)(nil)
	_ pane = (*openPrompt)(nil)
	_ pane = (*leavePrompt)(nil)
)
