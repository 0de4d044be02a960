package tui

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"qcnlab/experiments"
	"qcnlab/experiments/keys"
	"qcnlab/experiments/userfile"
	"qcnlab/printable"
)

// The root model's actions: what the keys and the panes' messages do.

// quit stops the runs and ends the program; a build under way gives up
// and its result is dropped.
func (m *Model) quit() tea.Cmd {
	m.quitting = true
	m.gen.Add(1)
	m.next = nil
	if m.sess != nil {
		m.sess.stop()
	}
	return tea.Quit
}

// quitOrAsk quits, or asks first if there are unsaved edits.
func (m *Model) quitOrAsk() tea.Cmd {
	if !m.unsaved() {
		return m.quit()
	}
	m.focus = focusLeave
	m.leave.ask(false)
	return nil
}

// answered acts on a key at the question before unsaved edits are lost.
func (m *Model) answered(msg tea.KeyMsg) tea.Cmd {
	m.leave.update(msg)
	switch m.leave.answer {
	case leaveQuit:
		return m.quit()
	case leaveYes:
		if !m.leave.opening {
			return m.quit()
		}
		m.focus = focusOpen
		return m.opener.open()
	case leaveNo:
		m.focus = m.back()
	case leaveSave:
		m.focus = focusSave
		return m.save.open(defaultSavePath(m.want().exp.Name))
	}
	return nil
}

// switchTo makes the i-th algorithm of the bar active (wrapping around) and
// restarts its run on the same seed; in compare mode every run goes on.
func (m *Model) switchTo(i int) tea.Cmd {
	s := m.want()
	n := len(s.bar)
	i = ((i % n) + n) % n
	switch {
	case s.compare && m.next != nil:
		m.next.active = i // the runs being built are the same
		m.params.load(m.next.run, m.next.exp, s.bar[i])
		return nil
	case s.compare:
		m.active = i
		m.params.load(m.run, m.exp, m.bar[i])
		m.refreshPanes()
		return nil
	}
	s.active = i
	return m.rebuild(s)
}

func (m *Model) togglePause() {
	if st := m.state(); st == stateFinished || st == stateFailed {
		m.setStatus("the run is over: r runs it again", false)
		return
	}
	m.paused = !m.paused
	if m.paused {
		// Stop where the furthest run is; the others catch up to it.
		m.sess.refresh()
		m.target = m.sess.ahead()
		m.sess.setTarget(m.target)
	}
}

func (m *Model) setSpeed(s int) {
	if m.speed == fastest && s != fastest {
		// Continue from where the runs are, not from the end.
		m.sess.refresh()
		m.target = m.sess.ahead()
		m.sess.setTarget(m.target)
	}
	m.speed = s
	if s == fastest && m.state() == stateRunning {
		m.target = m.scenario.duration
		m.sess.setTarget(m.target)
	}
}

func (m *Model) speedText() string {
	if m.speed < fastest {
		return fmtSpeed(speeds[m.speed])
	}
	if m.pace > 0 {
		return "max ≈" + fmtSpeed(m.pace)
	}
	return "max"
}

func fmtSpeed(x float64) string {
	trim := func(s string) string { return strings.TrimSuffix(strings.TrimRight(s, "0"), ".") }
	switch {
	case x >= 10:
		return fmt.Sprintf("%.0fx", x)
	case x >= 1:
		return trim(fmt.Sprintf("%.1f", x)) + "x"
	}
	if x >= 0.0001 { // two figures, as the steps above 1 have: a measured pace is no more exact
		return fmt.Sprintf("%.2g", x) + "x"
	}
	return fmt.Sprintf("%.0ex", x) // many sources: far slower than real time
}

// applyEdit sets a key: it replays every edit since the file was opened or
// saved on the file as it was then (replay), validates the result and
// rebuilds the runs on it; an error leaves everything as it was and shows
// in place.
func (m *Model) applyEdit(msg editMsg) tea.Cmd {
	s := m.want()
	for _, a := range s.exp.Sweep {
		if a.Key == msg.key { // the pane refuses it before; a key can become swept by an open
			m.params.fail(sweptMessage(msg.key))
			return nil
		}
	}
	edits := withEdit(s.edits, msg.key, strings.TrimSpace(msg.value))
	next, fitNotes, err := replay(s.base, edits)
	var notes []string
	if err == nil {
		// What the fit adapted that was not already said.
		notes = slices.DeleteFunc(slices.Clone(fitNotes), func(n string) bool { return slices.Contains(s.fitNotes, n) })
		var at *experiments.Experiment
		if at, err = next.At(s.points[s.point]); err == nil {
			// The active algorithm may not be in the file's list: the build
			// checks its configuration.
			notes = append(notes, keys.SetpointNotes(float64(at.Network.Buffer), at.BufferModel(), s.bar[s.active:s.active+1], at.ParamValues)...)
		}
	}
	var cmd tea.Cmd
	if err == nil {
		s.exp, s.edits, s.fitNotes = next, edits, fitNotes
		status := fmt.Sprintf("%s = %s: restarted", msg.key, strings.TrimSpace(msg.value))
		if len(notes) > 0 {
			status += "; " + strings.Join(shortNotes(notes), "; ")
		}
		cmd, err = m.begin(s, build{status: status, edit: msg.key})
	}
	if err != nil {
		m.params.fail(describe(err))
	}
	return cmd // the input stays open until the build ends (built)
}

// shortNotes drops the "duration 50ms: " that opens each of FitDuration's
// notes: the status line has just said the duration, and a note cut at
// the screen's edge must have said what it dropped.
func shortNotes(notes []string) []string {
	out := make([]string, len(notes))
	for i, n := range notes {
		out[i] = n
		if rest, ok := strings.CutPrefix(n, "duration "); ok {
			if _, after, ok := strings.Cut(rest, ": "); ok {
				out[i] = after
			}
		}
	}
	return out
}

// The files the workbench reads and writes are read and written in a
// tea.Cmd, never in Update: a FIFO or a slow mount must not freeze the
// screen. The Cmd's result comes back as a message (savedMsg, openedMsg).

// savedMsg is the end of a save: the file was written, or not and why, or
// it exists and replacing it needs a yes. target is where path, a symbolic
// link, leads: the file written or to be replaced ("" if path is not a
// link).
type savedMsg struct {
	path   string
	target string
	exists bool
	err    error
	exp    *experiments.Experiment // the experiment saved (before the active algorithm was put first)
	text   string                  // and the file, as written
	base   *experiments.Experiment // and as read back
}

// saveTo writes the experiment as it is now, the active algorithm first, in
// the background.
func (m *Model) saveTo(msg saveMsg) tea.Cmd {
	path := expandHome(strings.TrimSpace(msg.path))
	if path == "" {
		m.save.fail("name a file")
		return nil
	}
	s := m.want()
	out := saveable(s)
	return func() tea.Msg {
		r := save(out, path, msg.overwrite, msg.target)
		r.exp, r.text, r.base = s.exp, encoded(out), s.exp
		if r.err == nil && !r.exists {
			// Edits from now on replay on the file as a reload would read it.
			if read, err := experiments.Parse(path, []byte(r.text)); err == nil {
				r.base = read
			}
		}
		return r
	}
}

// saveable is what s saves of a setup: its experiment, the active
// algorithm first.
func saveable(s setup) *experiments.Experiment {
	out := s.exp.Clone()
	active := s.bar[s.active]
	out.Algorithms = append([]string{active}, slices.DeleteFunc(slices.Clone(s.exp.Algorithms), func(a string) bool { return a == active })...)
	return out
}

func encoded(e *experiments.Experiment) string {
	var b strings.Builder
	if err := e.Encode(&b); err != nil {
		return "" // never equal to a file that encodes: unsaved
	}
	return b.String()
}

// unsaved reports whether s would save something else than what the last
// open or save left: an edit, or another algorithm first.
func (m *Model) unsaved() bool {
	s := m.want()
	return encoded(saveable(s)) != s.savedAs
}

// rebase makes a save the file edits replay on, as if it were opened: in
// the setup on screen and in a build's, where the experiment saved is
// theirs.
func (m *Model) rebase(msg savedMsg) {
	for _, s := range []*setup{&m.setup, m.nextSetup()} {
		if s != nil && s.exp == msg.exp {
			s.base, s.edits, s.fitNotes, s.savedAs = msg.base, nil, nil, msg.text
		}
	}
}

func (m *Model) nextSetup() *setup {
	if m.next == nil {
		return nil
	}
	return &m.next.setup
}

// save writes e to path, unless path is a folder, a FIFO or a device, a
// link that leads nowhere, or exists and overwrite is not set. A link to a
// file is written through, as editors do, and the question names the file
// it replaces: a yes holds for the target it named (agreed) only, so that
// a link moved meanwhile is asked about again.
func save(e *experiments.Experiment, path string, overwrite bool, agreed string) savedMsg {
	target := linkTarget(path)
	if info, err := os.Stat(path); err == nil && info.IsDir() {
		return savedMsg{path: path, err: errors.New(path + " is a folder: name a file in it")}
	} else if err := userfile.CheckSaveTarget(path); err != nil {
		return savedMsg{path: path, err: err} // a FIFO, a device or a dangling link is never replaced
	} else if info != nil && (!overwrite || target != agreed) {
		return savedMsg{path: path, target: target, exists: true}
	}
	dest := path
	if target != "" {
		dest = target
	}
	if err := e.Save(dest); err != nil {
		return savedMsg{path: path, target: target, err: err}
	}
	return savedMsg{path: path, target: target}
}

// linkTarget is the file path leads to if it is a symbolic link to one,
// else "".
func linkTarget(path string) string {
	if info, err := os.Lstat(path); err != nil || info.Mode()&os.ModeSymlink == 0 {
		return ""
	}
	target, err := filepath.EvalSymlinks(path)
	if err != nil {
		return "" // leads nowhere: CheckSaveTarget refuses it
	}
	return target
}

// savedText is the status line of a save that wrote its file.
func (msg savedMsg) savedText() string {
	if msg.target != "" {
		return "saved " + msg.target + " (through the link " + msg.path + ")"
	}
	return "saved " + msg.path
}

// saved shows how a save ended: in the prompt, or on the status line if
// the prompt was closed meanwhile. What it wrote is no longer unsaved.
func (m *Model) saved(msg savedMsg) {
	if msg.err == nil && !msg.exists && msg.exp != nil {
		m.rebase(msg)
	}
	if m.focus != focusSave {
		switch {
		case msg.exists:
			m.setStatus(msg.path+" exists: not saved", true)
		case msg.err != nil:
			m.setStatus(msg.err.Error(), true)
		default:
			m.setStatus(msg.savedText(), false)
		}
		return
	}
	switch {
	case msg.exists:
		m.save.ask(msg.target)
	case msg.err != nil:
		m.save.fail(msg.err.Error())
	default:
		m.focus = m.back()
		m.setStatus(msg.savedText(), false)
	}
}

// openedMsg is an experiment loaded in the background, or why it did not
// load.
type openedMsg struct {
	path string // as the user would name it
	exp  *experiments.Experiment
	err  error
}

// open loads an experiment (a file, or a built-in by name) in the
// background; opened runs it.
func (m *Model) open(path string) tea.Cmd {
	m.opener.err = ""
	m.opener.note = "opening " + path + " …"
	return func() tea.Msg {
		// Name files under the working directory as the user would.
		if wd, err := os.Getwd(); err == nil && filepath.IsAbs(path) {
			if rel, err := filepath.Rel(wd, path); err == nil && !strings.HasPrefix(rel, "..") {
				path = rel
			}
		}
		e, err := experiments.OpenWith(path, nil)
		return openedMsg{path: path, exp: e, err: err}
	}
}

// opened runs an experiment that loaded; one that did not, or does not
// start, leaves its error in the prompt and the current run going. If the
// prompt was closed meanwhile, the user has changed their mind: nothing
// happens.
func (m *Model) opened(msg openedMsg) tea.Cmd {
	if m.focus != focusOpen {
		return nil
	}
	err := msg.err
	var cmd tea.Cmd
	if err == nil {
		s := m.want()
		s.exp, s.base, s.edits, s.fitNotes = msg.exp, msg.exp, nil, nil
		s.bar, s.active = algorithmBar(msg.exp), 0
		s.points, s.point = nil, 0 // the new experiment's first point
		s.savedAs = encoded(saveable(s))
		cmd, err = m.begin(s, build{opened: strings.TrimPrefix(msg.path, "./")})
	}
	if err != nil {
		return m.opener.fail(err.Error())
	}
	m.focus = m.back()
	return cmd
}

// openNotes are the warnings of the experiment just opened, for the status
// line (on the command line they go to stderr, under the workbench's
// screen): what opening it adapted and the setpoints at or above the
// buffer of its algorithms (Experiment.Notes), and the shown algorithm's
// at the shown sweep point, as an edit warns.
func (m *Model) openNotes() []string {
	notes := slices.Clone(m.exp.Notes)
	for _, n := range keys.SetpointNotes(float64(m.run.Network.Buffer), m.run.BufferModel(), m.bar[m.active:m.active+1], m.run.ParamValues) {
		if !slices.Contains(notes, n) {
			notes = append(notes, n)
		}
	}
	return notes
}

// setStatus shows s on the status line; it may name files and
// experiments, whose control characters are shown escaped.
func (m *Model) setStatus(s string, isErr bool) {
	m.status, m.statusErr, m.statusAt = printable.Text(s), isErr, m.lastTick
	m.statusSeq++
	if m.autoTick {
		// The clock may be stopped (idle): lastTick can be long past.
		m.statusAt = time.Now()
	}
}

// describe writes an experiment error for a place that already names the
// file or the prompt: each problem as "key: message".
func describe(err error) string {
	var parts []string
	var walk func(error)
	walk = func(err error) {
		if j, ok := err.(interface{ Unwrap() []error }); ok {
			for _, e := range j.Unwrap() {
				walk(e)
			}
			return
		}
		var ee *experiments.Error
		if errors.As(err, &ee) {
			if ee.Key != "" {
				parts = append(parts, ee.Key+": "+ee.Msg)
			} else {
				parts = append(parts, ee.Msg)
			}
			return
		}
		parts = append(parts, err.Error())
	}
	walk(err)
	return strings.Join(parts, "; ")
}
