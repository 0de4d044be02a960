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

// quit stops the runs and ends the program.
func (m *Model) quit() tea.Cmd {
	m.quitting = true
	m.sess.stop()
	return tea.Quit
}

// switchTo makes the i-th algorithm of the bar active (wrapping around) and
// restarts its run on the same seed; in compare mode every run goes on.
func (m *Model) switchTo(i int) {
	n := len(m.bar)
	i = ((i % n) + n) % n
	if m.compare {
		m.active = i
		m.params.load(m.run, m.exp, m.bar[i])
		m.refreshPanes()
		return
	}
	if err := m.start(m.exp, m.bar, i); err != nil {
		m.setStatus(describe(err), true)
	}
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

// applyEdit sets a key on a clone of the experiment, validates it and
// restarts on it; an error leaves everything as it was and shows in place.
func (m *Model) applyEdit(msg editMsg) {
	for _, a := range m.exp.Sweep {
		if a.Key == msg.key { // the pane refuses it before; a key can become swept by an open
			m.params.fail(sweptMessage(msg.key))
			return
		}
	}
	next := m.exp.Clone()
	err := next.Set(msg.key + "=" + msg.value)
	var notes []string
	if err == nil {
		notes = next.FitDuration(m.exp.Duration)
		err = next.Validate()
	}
	if err == nil {
		var at *experiments.Experiment
		if at, err = next.At(m.points[m.point]); err == nil {
			_, err = at.Config(m.bar[m.active]) // the active algorithm may not be in the file's list
			notes = append(notes, keys.SetpointNotes(float64(at.Network.Buffer), at.BufferModel(), m.bar[m.active:m.active+1], at.ParamValues)...)
		}
	}
	if err == nil {
		err = m.start(next, m.bar, m.active)
	}
	if err != nil {
		m.params.fail(describe(err))
		return
	}
	m.params.stopEdit()
	status := fmt.Sprintf("%s = %s: restarted", msg.key, strings.TrimSpace(msg.value))
	if len(notes) > 0 {
		status += "; " + strings.Join(notes, "; ")
	}
	m.setStatus(status, false)
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
}

// saveTo writes the experiment as it is now, the active algorithm first, in
// the background.
func (m *Model) saveTo(msg saveMsg) tea.Cmd {
	path := expandHome(strings.TrimSpace(msg.path))
	if path == "" {
		m.save.fail("name a file")
		return nil
	}
	out := m.exp.Clone()
	active := m.bar[m.active]
	out.Algorithms = append([]string{active}, slices.DeleteFunc(slices.Clone(m.exp.Algorithms), func(s string) bool { return s == active })...)
	return func() tea.Msg { return save(out, path, msg.overwrite, msg.target) }
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
// the prompt was closed meanwhile.
func (m *Model) saved(msg savedMsg) {
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
	if err == nil {
		point, points := m.point, m.points
		m.point, m.points = 0, nil // the new experiment's first point
		if err = m.start(msg.exp, algorithmBar(msg.exp), 0); err != nil {
			m.point, m.points = point, points
		}
	}
	if err != nil {
		return m.opener.fail(err.Error())
	}
	m.focus = m.back()
	m.setStatus(strings.Join(append([]string{"opened " + strings.TrimPrefix(msg.path, "./")}, m.openNotes()...), "; "), false)
	return nil
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
