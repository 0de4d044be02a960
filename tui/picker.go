package tui

import (
	"github.com/charmbracelet/bubbles/filepicker"
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
)

// openMsg asks the root model to load an experiment file.
type openMsg struct{ path string }

// pickerPane is the file picker for experiment files. A file that does not
// load leaves its error here and the current run untouched.
type pickerPane struct {
	width, height int
	fp            filepicker.Model
	err           string
}

// newPicker opens a picker on dir; its command reads the directory.
func newPicker(dir string, w, h int) (pickerPane, tea.Cmd) {
	fp := filepicker.New()
	fp.CurrentDirectory = dir
	fp.AllowedTypes = []string{".toml"}
	fp.ShowPermissions = false
	fp.AutoHeight = false
	// esc closes the picker instead of going up a directory.
	fp.KeyMap.Back = key.NewBinding(key.WithKeys("h", "backspace", "left"), key.WithHelp("←", "up"))
	fp.Styles.Cursor = promptStyle
	fp.Styles.Selected = tableSelStyle
	fp.Styles.Directory = titleStyle
	fp.Styles.DisabledFile = faintStyle
	fp.Styles.EmptyDirectory = faintStyle.PaddingLeft(2).SetString("no files here")
	p := pickerPane{fp: fp}
	p.setSize(w, h)
	return p, p.fp.Init()
}

// Lines above the list: title, directory, error (two lines).
const pickerHeader = 4

func (p *pickerPane) setSize(w, h int) {
	p.width, p.height = w, h
	p.fp.SetHeight(max(1, h-pickerHeader-1))
}

// fail shows why the chosen file did not load.
func (p *pickerPane) fail(msg string) { p.err = msg }

func (p pickerPane) update(msg tea.Msg) (pickerPane, tea.Cmd) {
	var cmd tea.Cmd
	p.fp, cmd = p.fp.Update(msg)
	if ok, path := p.fp.DidSelectFile(msg); ok {
		p.err = ""
		return p, tea.Batch(cmd, func() tea.Msg { return openMsg{path: path} })
	}
	if ok, path := p.fp.DidSelectDisabledFile(msg); ok {
		p.err = path + " is not an experiment file (.toml)"
	}
	return p, cmd
}

func (p pickerPane) view() string {
	w := p.width
	lines := []string{
		fit(titleStyle.Render("open an experiment")+faintStyle.Render("  .toml files; enter opens, esc cancels"), w),
		fit(faintStyle.Render(p.fp.CurrentDirectory), w),
	}
	lines = append(lines, wrap(errorStyle, p.err, w, 2)...)
	lines = append(lines, splitLines(lipgloss.NewStyle().MaxWidth(w).Render(p.fp.View()))...)
	return fitLines(lines, w, p.height)
}
