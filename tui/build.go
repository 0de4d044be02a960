package tui

import (
	"fmt"
	"slices"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"qcnlab/algos"
	"qcnlab/experiments"
	"qcnlab/model"
)

// Building a run (model.New) can take seconds on a large fabric, so it
// happens in a tea.Cmd, off the update loop: the screen says "building",
// and q, ctrl+c and SIGTERM act at once. The runs on screen are held where
// they are meanwhile, and go on if the build fails. Every build has a
// number; a newer one (the user switched algorithm or edited meanwhile)
// makes the older stale, and a stale build's result is dropped.

// setup is what runs are of: the experiment, the algorithms, the sweep
// point. The runs on screen have one (the Model's own); a build under way
// has the one it will install. Keys act on the newest (want).
type setup struct {
	exp *experiments.Experiment // as loaded and edited, with its [sweep]: what s saves
	// base is the experiment as opened or last saved, and edits the keys
	// set since (one per key, the last value, in the order last set):
	// every edit replays them all on base, so a duration fits the file
	// once, as one --set of the final values does. fitNotes are what that
	// fit adapted, shown when they are new.
	base     *experiments.Experiment
	edits    []edit
	fitNotes []string
	// savedAs is the file the last open or save left (as s writes it):
	// the edits are unsaved while s would write something else.
	savedAs string

	bar     []string // algorithms, 1-9
	active  int
	compare bool
	// points are the sweep's points the runs have: every point in compare
	// mode, the active algorithm's alone otherwise (an axis
	// params.NAME.KEY varies NAME's runs only).
	points [][]experiments.Assignment
	point  int // the sweep point shown, an index into points
}

// edit is a key the user set in the parameter pane.
type edit struct{ key, value string }

// withEdit is edits with key set to value, last.
func withEdit(edits []edit, key, value string) []edit {
	out := slices.DeleteFunc(slices.Clone(edits), func(e edit) bool { return e.key == key })
	return append(out, edit{key, value})
}

// replay is base with edits set on it, fitted to the duration they give,
// and validated; the notes say what the fit adapted.
func replay(base *experiments.Experiment, edits []edit) (*experiments.Experiment, []string, error) {
	e := base.Clone()
	for _, ed := range edits {
		if err := e.Set(ed.key + "=" + ed.value); err != nil {
			return nil, nil, err
		}
	}
	notes := e.FitDuration(base.Duration)
	if err := e.Validate(); err != nil {
		return nil, nil, err
	}
	return e, notes, nil
}

// build is a set of runs asked for and being built.
type build struct {
	gen int64
	setup
	run   *experiments.Experiment // exp at the sweep point
	names []string
	// status is the status line once the runs are on screen ("" leaves
	// it); opened names the experiment an open brought; edit is the key
	// whose edit asked for the build, whose input stays open until it
	// ends, to show its error in place.
	status, opened, edit string
}

// builtMsg is a build's end: its runs, not started yet, or why not.
type builtMsg struct {
	gen  int64
	sess *session
	err  error
}

// newDriverFor builds one run; a variable, so a test can make a build slow.
var newDriverFor = newDriver

// want is the setup the next key acts on: the build's under way, else the
// runs'.
func (m *Model) want() setup {
	if m.next != nil {
		return m.next.setup
	}
	return m.setup
}

// begin asks for runs of s: the active algorithm, or every algorithm of the
// bar in compare mode, at sweep point s.point (the first if there are
// fewer). What is quick to check is checked at once (an error, and nothing
// changes); the command it returns checks the rest and builds the runs,
// and built puts them on screen.
func (m *Model) begin(s setup, b build) (tea.Cmd, error) {
	e, bar, active := s.exp, s.bar, s.active
	if len(bar) == 0 {
		return nil, fmt.Errorf("%s: no registered algorithm to run (known: %s)", e.Name, strings.Join(algos.Names(), ", "))
	}
	names := []string{bar[active]}
	if s.compare {
		names = bar
	}
	points := e.Points()
	if !s.compare {
		points = e.PointsFor(bar[active])
	}
	point, run := s.point, e
	if s.points != nil && s.point < len(s.points) {
		// The same point, on the axes the new runs have.
		point = matchPoint(points, s.points[s.point], func(key string) bool {
			return s.compare || experiments.AxisApplies(key, bar[active])
		})
	}
	if point >= len(points) {
		point = 0
	}
	if len(e.Sweep) > 0 {
		var err error
		if run, err = e.At(points[point]); err != nil {
			return nil, err
		}
	}
	s.points, s.point = points, point
	if m.next == nil && m.sess != nil {
		// Hold the runs on screen where they are while this one builds.
		m.sess.refresh()
		m.sess.setTarget(m.sess.ahead())
	}
	gen := m.gen.Add(1)
	b.gen, b.setup, b.run, b.names = gen, s, run, slices.Clone(names)
	m.next = &b
	m.params.load(run, e, bar[active])
	counter := m.gen
	stale := func() bool { return counter.Load() != gen }
	return func() tea.Msg {
		sess, err := buildSession(run, b.names, stale)
		return builtMsg{gen: gen, sess: sess, err: err}
	}, nil
}

// buildSession builds one run of e per algorithm, not started; it gives up
// (nil) as soon as stale says a newer build was asked for. Weighing the
// runs' memory and making their configurations take seconds too on a
// large fabric.
func buildSession(e *experiments.Experiment, names []string, stale func() bool) (*session, error) {
	if err := fitsMemory(e, names, memoryBudget); err != nil {
		return nil, err
	}
	cfgs := make([]model.Config, len(names))
	for i, name := range names {
		var err error
		if cfgs[i], err = e.Config(name); err != nil {
			return nil, err
		}
	}
	s := &session{names: slices.Clone(names)}
	for i, name := range names {
		if stale() {
			return nil, nil
		}
		d, err := newDriverFor(name, cfgs[i])
		if err != nil {
			return nil, err
		}
		s.drivers = append(s.drivers, d)
	}
	return s, nil
}

// built puts a build's runs on screen in place of the old ones, or says why
// it failed and lets the old ones go on. A stale build is dropped (its
// runs were never started).
func (m *Model) built(msg builtMsg) {
	b := m.next
	if b == nil || msg.gen != b.gen || m.quitting {
		return
	}
	editing := b.edit != "" && m.focus == focusParams && m.params.editingKey() == b.edit
	if msg.err != nil || msg.sess == nil {
		m.dropBuild()
		switch {
		case msg.err == nil:
		case editing:
			m.params.fail(describe(msg.err))
		default:
			m.setStatus(describe(msg.err), true)
		}
		return
	}
	if editing {
		m.params.stopEdit()
	}
	m.next = nil
	m.install(b, msg.sess)
}

// dropBuild forgets the build under way: the runs on screen go on.
func (m *Model) dropBuild() {
	m.next = nil
	if m.sess != nil {
		m.sess.setTarget(m.target)
		m.params.load(m.run, m.exp, m.bar[m.active])
	}
}

// install starts sess, the runs of b, and shows them.
func (m *Model) install(b *build, sess *session) {
	sess.start()
	sess.refresh()
	if m.sess != nil {
		m.sess.stop()
	}
	sending := m.scenario.sending // the user's choice outlives a restart
	m.sess, m.setup, m.run, m.scenario = sess, b.setup, b.run, scenarioOf(b.run)
	m.scenario.sending = sending
	if m.link >= m.links() {
		m.link = 0
	}
	m.target, m.paused = 0, false
	m.measuredAt, m.measuredEvents, m.eps, m.pace = m.lastTick, 0, 0, 0
	m.params.load(m.run, m.exp, m.bar[m.active])
	m.refreshPanes()
	switch {
	case b.opened != "":
		m.setStatus(strings.Join(append([]string{"opened " + b.opened}, m.openNotes()...), "; "), false)
	case b.status != "":
		m.setStatus(b.status, false)
	}
}
