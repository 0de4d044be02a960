package tui

import (
	"os"
	"path/filepath"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"

	"qcnlab/printable"
)

// saveMsg asks the root model to save the experiment to path; overwrite
// says the user agreed to replace an existing file: path itself, or
// target, the file the link path leads to, as the question named it.
type saveMsg struct {
	path      string
	overwrite bool
	target    string
}

// savePrompt asks where to save, then, if the file exists, whether to
// overwrite it.
type savePrompt struct {
	common
	input   textinput.Model
	confirm bool   // asking "overwrite? (y/n)"
	target  string // the file the path, a link, leads to, as the question names it
	// readOnly says the file to overwrite has lost its owner's write bit
	// (chmod a-w, to keep it): the question says so.
	readOnly bool
	err      string
	closed   bool // cancelled: the root model gives the keys back
}

func newSavePrompt(keys *keyMap) savePrompt {
	in := newInput("save to: ", maxPathChars)
	return savePrompt{common: common{keys: keys, height: 2}, input: in}
}

// open starts the prompt with path filled in.
func (p *savePrompt) open(path string) tea.Cmd {
	p.confirm, p.err, p.closed = false, "", false
	p.input.SetValue(path)
	p.input.CursorEnd()
	return p.input.Focus()
}

// setSize fits the prompt to the width; it keeps its two lines.
func (p *savePrompt) setSize(w, _ int) {
	p.width = w
	p.input.Width = max(1, w-len(p.input.Prompt)-1)
}

func (p *savePrompt) keyHelp(bool) help.KeyMap {
	if p.confirm {
		return confirmHelp{p.keys}
	}
	return inputHelp{p.keys}
}

// ask switches to the overwrite question about target, the file the
// path leads to if it is a link ("" if not).
func (p *savePrompt) ask(target string) {
	p.confirm, p.target, p.err = true, target, ""
	file := target
	if file == "" {
		file = p.input.Value()
	}
	info, err := os.Stat(file)
	p.readOnly = err == nil && info.Mode().Perm()&0o200 == 0
}

// fail shows why the file was not written; the prompt stays open.
func (p *savePrompt) fail(msg string) { p.confirm, p.err = false, printable.Text(msg) }

// update handles a key; cancelling closes the prompt (closed).
func (p *savePrompt) update(msg tea.Msg) tea.Cmd {
	km, isKey := msg.(tea.KeyMsg)
	path := p.input.Value()
	switch {
	case p.confirm && isKey && key.Matches(km, p.keys.Yes):
		target := p.target
		return func() tea.Msg { return saveMsg{path: path, overwrite: true, target: target} }
	case p.confirm && isKey && key.Matches(km, p.keys.No):
		p.confirm = false // back to the file name
		return nil
	case p.confirm:
		return nil
	case isKey && key.Matches(km, p.keys.Apply):
		return func() tea.Msg { return saveMsg{path: path} }
	case isKey && key.Matches(km, p.keys.Cancel):
		p.input.Blur()
		p.closed = true
		return nil
	}
	changed, cut, cmd := typeInto(&p.input, msg, "a path")
	if changed {
		p.err = ""
	}
	if cut != "" {
		p.err = cut
	}
	return cmd
}

// view is the prompt's two lines.
func (p *savePrompt) view() string {
	if p.confirm && p.target != "" {
		target := printable.Text(p.target)
		return fit(promptStyle.Render(p.input.Value()+" is a link to "+target+", which exists"+p.readOnlyNote()+": overwrite "+target+"? (y/n)"), p.width) +
			"\n" + fit("", p.width)
	}
	if p.confirm {
		return fit(promptStyle.Render(p.input.Value()+" exists"+p.readOnlyNote()+": overwrite? (y/n)"), p.width) + "\n" + fit("", p.width)
	}
	return fit(p.input.View(), p.width) + "\n" + wrap(errorStyle, p.err, p.width, 1)[0]
}

func (p *savePrompt) readOnlyNote() string {
	if p.readOnly {
		return " and is write-protected"
	}
	return ""
}

// defaultSavePath is where the save prompt proposes to save an experiment
// named name: a file in the working folder whatever the name holds (a name
// such as "../../x" led out of it). The name's letters, digits, '-', '_',
// '.' and '+' are kept, any other run of characters becomes one '_', and
// dots, dashes and underscores at either end go: no hidden file, no "..",
// nothing read as an option.
func defaultSavePath(name string) string {
	var b strings.Builder
	gap := false
	for _, r := range name {
		if unicode.IsLetter(r) || unicode.IsDigit(r) || strings.ContainsRune("-_.+", r) {
			if gap {
				b.WriteByte('_')
			}
			b.WriteRune(r)
			gap = false
		} else {
			gap = b.Len() > 0
		}
	}
	base := strings.Trim(b.String(), "._-")
	if len(base) > maxSaveName { // a whole character, within the name's limit
		cut := maxSaveName
		for !utf8.RuneStart(base[cut]) {
			cut--
		}
		base = strings.Trim(base[:cut], "._-")
	}
	if base == "" {
		base = "experiment"
	}
	return "./" + base + ".toml"
}

// maxSaveName is the most bytes of a default file name before ".toml",
// well within a file system's 255.
const maxSaveName = 120

// expandHome reads a leading ~/ as the home folder, as a shell would: the
// prompts take paths as a user types them.
func expandHome(path string) string {
	if rest, ok := strings.CutPrefix(path, "~/"); ok || path == "~" {
		if home, err := os.UserHomeDir(); err == nil {
			return filepath.Join(home, rest)
		}
	}
	return path
}
