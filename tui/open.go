package tui

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"

	"qcnlab/experiments"
	"qcnlab/printable"
)

// openMsg asks the root model to load an experiment: a file or a built-in
// name.
type openMsg struct{ path string }

// openPrompt asks which experiment to open, like the save prompt: a path
// prefilled with the current folder, tab completion, and under it a short
// list of what matches: .toml files, folders and built-in names. It reads
// the folder anew whenever its folder changes and on every tab, never
// trusts a listing to still be true (a file may vanish before it is
// opened), and shows why a folder cannot be listed instead of failing.
// Every read of the file system (a listing, whether what enter names is a
// folder) runs in a tea.Cmd, whose result comes back as a message
// (listedMsg, chosenMsg): a slow mount never freezes the screen.
type openPrompt struct {
	common
	input   textinput.Model
	matches []match // completions of the input, in the order listed
	sel     int     // the highlighted match, -1 for none
	dir     string  // the folder listed in entries
	entries []entry
	note    string // why the folder could not be listed (in full)
	err     string // why the chosen experiment did not open
	closed  bool   // cancelled: the root model gives the keys back

	listing    bool // the folder dir is being listed
	seq        int  // the listing under way: earlier ones are stale
	completing bool // tab completes once the listing is in
}

// listedMsg is the open prompt's folder, listed in the background.
type listedMsg struct {
	seq     int
	entries []entry
	note    string
}

// chosenMsg is what enter named, once it is known to be a folder, a file
// or nothing (missing).
type chosenMsg struct {
	value   string
	folder  bool
	missing bool
	typed   bool // not a match picked from the list
}

// match is a completion: a path, or a built-in experiment's name.
type match struct {
	text    string
	builtin bool
}

// entry is a listed name and whether it is a folder.
type entry struct {
	name string
	dir  bool
}

const (
	openListLines = 6     // matches shown at once
	maxListed     = 10000 // entries read from one folder: /proc or a huge folder stays quick
)

func newOpenPrompt(keys *keyMap) openPrompt {
	in := newInput("open: ", maxPathChars)
	// Its lines: the input, a line for errors, the matches.
	return openPrompt{common: common{keys: keys, height: 2 + openListLines}, input: in, sel: -1}
}

// open starts the prompt on the current folder.
func (p *openPrompt) open() tea.Cmd {
	p.err, p.dir, p.closed = "", "", false
	return tea.Batch(p.setValue("./"), p.input.Focus())
}

// setSize fits the prompt to the width; it keeps its lines.
func (p *openPrompt) setSize(w, _ int) {
	p.width = w
	p.input.Width = max(1, w-len(p.input.Prompt)-1)
}

func (p *openPrompt) keyHelp(bool) help.KeyMap { return openHelp{p.keys} }

func (p *openPrompt) setValue(v string) tea.Cmd {
	p.input.SetValue(v)
	p.input.CursorEnd()
	return p.refresh(false)
}

// fail shows why the chosen experiment did not open; the prompt stays,
// its list read anew (the file may have vanished).
func (p *openPrompt) fail(msg string) tea.Cmd {
	cmd := p.refresh(true)
	p.err = printable.Text(msg)
	return cmd
}

// split cuts the input into the folder to list and the start of the name.
func split(v string) (dir, prefix, base string) {
	i := strings.LastIndex(v, "/")
	if i < 0 {
		return ".", "", v
	}
	dir = v[:i+1]
	return dir, dir, v[i+1:]
}

// refresh recomputes the matches of the input; if its folder changed (or
// always, if reread) it lists the folder anew in the background, and
// recomputes them once listed (listedMsg).
func (p *openPrompt) refresh(reread bool) tea.Cmd {
	dir, _, _ := split(p.input.Value())
	var cmd tea.Cmd
	if reread || dir != p.dir {
		p.dir, p.entries, p.note, p.listing, p.completing = dir, nil, "", true, false
		p.seq++
		seq := p.seq
		cmd = func() tea.Msg {
			entries, note := listDir(expandHome(dir))
			return listedMsg{seq: seq, entries: entries, note: note}
		}
	}
	p.match()
	return cmd
}

// listed takes a listing of the folder, unless the input has moved to
// another since it was asked for.
func (p *openPrompt) listed(msg listedMsg) tea.Cmd {
	if msg.seq != p.seq {
		return nil
	}
	p.entries, p.note, p.listing = msg.entries, msg.note, false
	p.match()
	if p.completing {
		p.completing = false
		return p.completeCommon()
	}
	return nil
}

// match computes the matches of the input from the folder's listing.
func (p *openPrompt) match() {
	_, prefix, base := split(p.input.Value())
	var files, dirs []match
	for _, e := range p.entries {
		if !strings.HasPrefix(e.name, base) || strings.HasPrefix(e.name, ".") && !strings.HasPrefix(base, ".") {
			continue
		}
		switch {
		case e.dir:
			dirs = append(dirs, match{text: prefix + e.name + "/"})
		case strings.HasSuffix(e.name, ".toml"):
			files = append(files, match{text: prefix + e.name})
		}
	}
	// Built-in names, where a bare name would open them.
	var builtins []match
	if prefix == "" || prefix == "./" {
		for _, name := range experiments.BuiltinNames() {
			if strings.HasPrefix(name, base) {
				builtins = append(builtins, match{text: name, builtin: true})
			}
		}
	}
	p.matches = slices.Concat(files, builtins, dirs)
	p.sel = -1
}

// listDir reads up to maxListed entries of dir; on error it says why.
func listDir(dir string) ([]entry, string) {
	f, err := os.Open(dir)
	if err != nil {
		return nil, "cannot list " + dir + ": " + errText(err)
	}
	defer f.Close()
	des, err := f.ReadDir(maxListed)
	note := ""
	if err != nil && err != io.EOF {
		note = "cannot list " + dir + ": " + errText(err)
	} else if len(des) == maxListed {
		note = "listing the first " + strconv.Itoa(maxListed) + " entries only"
	}
	out := make([]entry, 0, len(des))
	for _, d := range des {
		e := entry{name: d.Name(), dir: d.IsDir()}
		if d.Type()&os.ModeSymlink != 0 {
			// A link to a folder is a folder; a broken one, a file.
			if info, err := os.Stat(filepath.Join(dir, d.Name())); err == nil {
				e.dir = info.IsDir()
			}
		}
		out = append(out, e)
	}
	slices.SortFunc(out, func(a, b entry) int { return strings.Compare(a.name, b.name) })
	return out, note
}

// errText is an OS error without the path the message already gives.
func errText(err error) string {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

// update handles a message; cancelling closes the prompt (closed).
func (p *openPrompt) update(msg tea.Msg) tea.Cmd {
	var cmd tea.Cmd
	switch msg := msg.(type) {
	case listedMsg:
		return p.listed(msg)
	case chosenMsg:
		return p.chosen(msg)
	}
	km, isKey := msg.(tea.KeyMsg)
	if !isKey {
		p.input, cmd = p.input.Update(msg)
		return cmd
	}
	switch {
	case key.Matches(km, p.keys.Cancel):
		p.input.Blur()
		p.closed = true
		return nil
	case km.Type == tea.KeyUp: // not k: letters are text here
		if len(p.matches) > 0 {
			p.sel = (max(p.sel, 0) - 1 + len(p.matches)) % len(p.matches)
		}
		return nil
	case km.Type == tea.KeyDown:
		if len(p.matches) > 0 {
			p.sel = (p.sel + 1) % len(p.matches)
		}
		return nil
	case key.Matches(km, p.keys.Complete):
		return p.complete()
	case key.Matches(km, p.keys.Apply):
		return p.choose()
	}
	changed, cut, cmd := typeInto(&p.input, msg, "a path")
	if changed {
		p.err = ""
		cmd = tea.Batch(cmd, p.refresh(false))
	}
	if cut != "" {
		p.err = cut
	}
	return cmd
}

// complete is tab: the highlighted match, else the longest common start of
// the matches, taken once the folder is listed anew (it may have changed
// since); a folder is then listed.
func (p *openPrompt) complete() tea.Cmd {
	p.err = ""
	if p.sel >= 0 && p.sel < len(p.matches) {
		p.input.SetValue(p.matches[p.sel].text)
		p.input.CursorEnd()
	}
	cmd := p.refresh(true)
	p.completing = true
	return cmd
}

// completeCommon extends the input to the longest common start of the
// matches' names, as a shell does; the matches stay listed under it. The
// start is taken over the names, whatever the folder typed before them:
// "./qcn" and the built-ins qcn-dumbbell and qcn-t-fairness make "qcn-"
// (a built-in opens by its bare name, so the "./" goes when every match
// is one).
func (p *openPrompt) completeCommon() tea.Cmd {
	if len(p.matches) == 0 {
		return nil
	}
	_, prefix, base := split(p.input.Value())
	name := func(m match) string {
		if m.builtin {
			return m.text
		}
		return strings.TrimPrefix(m.text, prefix)
	}
	common, builtins := name(p.matches[0]), true
	for _, m := range p.matches {
		for !strings.HasPrefix(name(m), common) {
			_, size := utf8.DecodeLastRuneInString(common)
			common = common[:len(common)-size]
		}
		builtins = builtins && m.builtin
	}
	switch {
	case len(p.matches) == 1:
		return p.setValue(p.matches[0].text)
	case builtins && len(common) >= len(base) && prefix != "":
		return p.setValue(common)
	case len(common) > len(base):
		return p.setValue(prefix + common)
	}
	return nil
}

// choose is enter: a highlighted folder or a typed folder is listed; a
// file or a built-in name is opened.
func (p *openPrompt) choose() tea.Cmd {
	v, typed := p.input.Value(), true
	if p.sel >= 0 && p.sel < len(p.matches) {
		v, typed = p.matches[p.sel].text, false
	}
	v = strings.TrimSpace(v)
	if v == "" {
		p.err = "name a file or a built-in experiment"
		return nil
	}
	return func() tea.Msg {
		info, err := os.Stat(expandHome(v))
		return chosenMsg{value: v, folder: err == nil && info.IsDir(), missing: errors.Is(err, fs.ErrNotExist), typed: typed}
	}
}

// chosen lists a folder enter named, or asks the root model to open a file
// or a built-in. What was typed and names no file is opened only as a
// built-in's exact name, as the command line takes it ("./qcn-dumbbell"
// too, the prompt starting with "./", when nothing else starts so: not
// beside ./qcn-dumbbell.toml); else, if names start so, the prompt says so
// rather than open a guess. A match picked that has vanished is opened,
// to say why not.
func (p *openPrompt) chosen(msg chosenMsg) tea.Cmd {
	v := msg.value
	if msg.folder {
		if !strings.HasSuffix(v, "/") {
			v += "/"
		}
		p.err = ""
		return p.setValue(v)
	}
	if msg.missing && msg.typed {
		name, dotted := strings.CutPrefix(v, "./")
		switch {
		case slices.Contains(experiments.BuiltinNames(), name) && (!dotted || len(p.matches) == 1):
			v = name
		case len(p.matches) == 1:
			p.err = v + " does not exist: tab completes it to " + printable.Text(p.matches[0].text) + ", which enter then opens"
			return nil
		case len(p.matches) > 1:
			p.err = v + " does not exist: " + strconv.Itoa(len(p.matches)) + " names start so (tab completes, ↑/↓ picks one)"
			return nil
		}
	}
	p.input.SetValue(v)
	p.input.CursorEnd()
	path := expandHome(v)
	return func() tea.Msg { return openMsg{path: path} }
}

// view is the prompt's lines: the input, a note or an error, the matches
// around the highlighted one.
func (p *openPrompt) view() string {
	w := p.width
	lines := []string{fit(p.input.View(), w)}
	switch {
	case p.err != "":
		lines = append(lines, wrap(errorStyle, p.err, w, 1)...)
	case p.listing:
		lines = append(lines, fit(faintStyle.Render("listing "+printable.Text(p.dir)+" …"), w))
	case p.note != "":
		lines = append(lines, fit(faintStyle.Render(printable.Text(p.note)), w))
	case len(p.matches) == 0:
		lines = append(lines, fit(faintStyle.Render("no .toml file, folder or built-in experiment matches"), w))
	default:
		lines = append(lines, fit(faintStyle.Render("a .toml file, a folder (enter lists it) or a built-in experiment"), w))
	}
	first := 0
	if p.sel >= openListLines {
		first = p.sel - openListLines + 1
	}
	for i := first; i < len(p.matches) && i < first+openListLines; i++ {
		m := printable.Text(p.matches[i].text) // a file's name may hold anything but a slash
		if p.matches[i].builtin {
			m += faintStyle.Render("  (built-in)")
		}
		if i == p.sel {
			lines = append(lines, fit(tableSelStyle.Render("▸ "+m), w))
		} else {
			lines = append(lines, fit("  "+m, w))
		}
	}
	if n := len(p.matches) - first - openListLines; n > 0 {
		lines[len(lines)-1] = fit(faintStyle.Render("  … and "+strconv.Itoa(n+1)+" more: type to narrow"), w)
	}
	return fitLines(lines, w, p.height)
}
