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
		m.params.load(m.run, m.bar[i])
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
		m.target = m.scen.duration
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
	if x >= 0.0001 {
		return trim(fmt.Sprintf("%.4f", x)) + "x"
	}
	return fmt.Sprintf("%.0ex", x) // many sources: far slower than real time
}

// applyEdit sets a key on a clone of the experiment, validates it and
// restarts on it; an error leaves everything as it was and shows in place.
func (m *Model) applyEdit(msg editMsg) {
	for _, a := range m.exp.Sweep {
		if a.Key == msg.key {
			m.params.fail(fmt.Sprintf("%s is swept: [sweep] sets it at each point (] and [ pick the point)", msg.key))
			return
		}
	}
	next := m.exp.Clone()
	err := next.Set(msg.key + "=" + msg.value)
	if err == nil {
		err = next.Validate()
	}
	if err == nil {
		var at *experiments.Experiment
		if at, err = next.At(m.points[m.point]); err == nil {
			_, err = at.Config(m.bar[m.active]) // the active algorithm may not be in the file's list
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
	m.setStatus(fmt.Sprintf("%s = %s: restarted", msg.key, strings.TrimSpace(msg.value)), false)
}

// saveTo writes the experiment as it is now, the active algorithm first.
func (m *Model) saveTo(msg saveMsg) {
	path := expandHome(strings.TrimSpace(msg.path))
	if path == "" {
		m.save.fail("name a file")
		return
	}
	if info, err := os.Stat(path); err == nil && info.IsDir() {
		m.save.fail(path + " is a folder: name a file in it")
		return
	} else if err := experiments.CheckSaveTarget(path); err != nil {
		m.save.fail(err.Error()) // a FIFO or a device is never replaced
		return
	} else if info != nil && !msg.overwrite {
		m.save.ask()
		return
	}
	out := m.exp.Clone()
	active := m.bar[m.active]
	out.Algorithms = append([]string{active}, slices.DeleteFunc(slices.Clone(m.exp.Algorithms), func(s string) bool { return s == active })...)
	if err := out.Save(path); err != nil {
		m.save.fail(err.Error())
		return
	}
	m.focus = m.back()
	m.setStatus("saved "+path, false)
}

// open loads an experiment (a file, or a built-in by name) and runs it; one
// that does not load leaves its error in the prompt and the current run going.
func (m *Model) open(path string) {
	// Name files under the working directory as the user would.
	if wd, err := os.Getwd(); err == nil && filepath.IsAbs(path) {
		if rel, err := filepath.Rel(wd, path); err == nil && !strings.HasPrefix(rel, "..") {
			path = rel
		}
	}
	e, err := experiments.OpenWith(path, nil)
	if err == nil {
		point := m.point
		m.point = 0
		if err = m.start(e, algorithmBar(e), 0); err != nil {
			m.point = point
		}
	}
	if err != nil {
		m.openP.fail(err.Error())
		return
	}
	m.focus = m.back()
	m.setStatus("opened "+strings.TrimPrefix(path, "./"), false)
}

func (m *Model) setStatus(s string, isErr bool) {
	m.status, m.statusErr, m.statusAt = s, isErr, m.lastTick
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
