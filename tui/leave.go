package tui

import (
	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
)

// leavePrompt asks before unsaved edits are lost, by quitting or by
// opening another experiment: y goes on, n keeps them, s saves them first.
// A second q or ctrl+c quits at once: nobody is kept in by a question. (At
// the question about opening, q is the first: it asks about quitting.)
type leavePrompt struct {
	common
	opening bool // the question is about opening another experiment
	answer  leaveAnswer
}

// leaveAnswer is what a key at the question said.
type leaveAnswer int

const (
	leaveAsking leaveAnswer = iota
	leaveYes                // go on and lose the edits
	leaveNo                 // keep them: back to where the question came from
	leaveSave               // save them first
	leaveQuit               // q or ctrl+c again: quit at once
)

func newLeavePrompt(keys *keyMap) leavePrompt {
	return leavePrompt{common: common{keys: keys, height: 1}}
}

// ask starts the question about quitting, or about opening another
// experiment.
func (p *leavePrompt) ask(opening bool) { p.opening, p.answer = opening, leaveAsking }

func (p *leavePrompt) setSize(w, _ int) { p.width = w }

func (p *leavePrompt) update(msg tea.Msg) tea.Cmd {
	km, ok := msg.(tea.KeyMsg)
	switch {
	case !ok:
	case key.Matches(km, p.keys.Quit) && p.opening:
		p.ask(false) // a first q, at the question about opening: now the question about quitting
	case key.Matches(km, p.keys.Quit):
		p.answer = leaveQuit
	case key.Matches(km, p.keys.Yes):
		p.answer = leaveYes
	case key.Matches(km, p.keys.No):
		p.answer = leaveNo
	case key.Matches(km, p.keys.Save):
		p.answer = leaveSave
	}
	return nil
}

func (p *leavePrompt) view() string {
	what := "quit"
	if p.opening {
		what = "open another experiment"
	}
	return fit(promptStyle.Render("unsaved edits: "+what+" without saving them? (y/n, s saves)"), p.width)
}

func (p *leavePrompt) keyHelp(bool) help.KeyMap { return leaveHelp{p.keys, p.opening} }

// leaveHelp is the help of the question.
type leaveHelp struct {
	k       *keyMap
	opening bool
}

func (h leaveHelp) ShortHelp() []key.Binding {
	yes := "quit"
	if h.opening {
		yes = "open"
	}
	return []key.Binding{
		key.NewBinding(key.WithKeys("y"), key.WithHelp("y", yes)),
		key.NewBinding(key.WithKeys("n", "esc"), key.WithHelp("n", "keep the edits")),
		key.NewBinding(key.WithKeys("s"), key.WithHelp("s", "save")),
		key.NewBinding(key.WithKeys("q", "ctrl+c"), key.WithHelp("q", "quit")),
	}
}

func (h leaveHelp) FullHelp() [][]key.Binding { return [][]key.Binding{h.ShortHelp()} }
