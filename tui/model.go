package tui

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"

	"qcnlab/algos"
	"qcnlab/experiments"
)

// Speeds in simulated seconds per wall second; fastest (one past the last)
// runs as fast as the machine can.
var speeds = [...]float64{1e-4, 2e-4, 5e-4, 1e-3, 2e-3, 5e-3, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10}

const (
	defaultSpeed = 6 // 0.01x: the default 100 ms experiment plays in 10 s
	fastest      = len(speeds)

	tickEvery    = time.Second / 30
	maxTickGap   = time.Second / 4 // a stalled terminal does not make the run jump
	measureEvery = time.Second / 2
	statusFor    = 8 * time.Second

	minWidth, minHeight = 60, 16
	wideParams          = 110 // from this width the parameter pane sits beside the charts
)

// The default algorithms of the bar, after the experiment's own, when they
// are registered.
var defaultAlgorithms = []string{"qcn", "qcn-t", "ap-n-aimd", "dsm"}

// focus is the root model's state: which part of the screen has the keys.
type focus int

const (
	focusCharts focus = iota
	focusParams       // the parameter pane (it may be editing a value)
	focusSave         // the save prompt
	focusOpen         // the file picker
)

// tickMsg is the UI's clock: it carries the wall time, so a test can drive
// simulated time with explicit messages.
type tickMsg time.Time

func tick() tea.Cmd {
	return tea.Tick(tickEvery, func(t time.Time) tea.Msg { return tickMsg(t) })
}

// Model is the workbench's root model.
type Model struct {
	keys          keyMap
	help          help.Model
	width, height int
	autoTick      bool // schedule the next tick on each tick (off in tests)
	quitting      bool

	exp     *experiments.Experiment
	scen    scenario
	bar     []string // algorithms, 1-9
	active  int
	compare bool
	paused  bool
	speed   int // index into speeds, or fastest
	focus   focus
	showPar bool // the parameter pane is open

	sess     *session
	target   algos.Time // simulated time the runs are asked to reach
	lastTick time.Time

	// Measured over the last measureEvery of wall time.
	measuredAt     time.Time
	measuredEvents uint64
	eps            float64 // events per wall second
	pace           float64 // simulated seconds per wall second at full speed

	status    string
	statusErr bool
	statusAt  time.Time // when it was set: it fades after statusFor

	charts chartsPane
	cmp    comparePane
	params paramsPane
	save   savePrompt
	picker pickerPane
}

// New builds the workbench on an experiment, with its first algorithm
// active and its simulation started (idle until the first tick).
func New(e *experiments.Experiment) (Model, error) {
	m := newModel()
	m.autoTick = true
	if err := m.start(e, algorithmBar(e), 0); err != nil {
		return Model{}, err
	}
	if len(e.Sweep) > 0 {
		m.setStatus("the workbench runs the experiment without its [sweep]; qcnlab run sweeps it", false)
	}
	return m, nil
}

func newModel() Model {
	return Model{
		keys:   defaultKeys(),
		help:   help.New(),
		speed:  defaultSpeed,
		params: newParamsPane(),
		save:   newSavePrompt(),
	}
}

// Close stops the simulations. Run calls it; a test that builds a Model
// must too.
func (m Model) Close() {
	if m.sess != nil {
		m.sess.stop()
	}
}

// algorithmBar lists the experiment's algorithms, then the defaults, leaving
// out names that are not registered; at most nine, for the number keys.
func algorithmBar(e *experiments.Experiment) []string {
	var bar []string
	for _, name := range slices.Concat(e.Algorithms, defaultAlgorithms) {
		if _, err := algos.Lookup(name); err == nil && !slices.Contains(bar, name) && len(bar) < 9 {
			bar = append(bar, name)
		}
	}
	return bar
}

// start replaces the runs with new ones of e: the active algorithm, or every
// algorithm of the bar in compare mode. If they cannot start, nothing changes.
func (m *Model) start(e *experiments.Experiment, bar []string, active int) error {
	if len(bar) == 0 {
		return fmt.Errorf("%s: no registered algorithm to run (known: %s)", e.Name, strings.Join(algos.Names(), ", "))
	}
	names := []string{bar[active]}
	if m.compare {
		names = bar
	}
	sess, err := startSession(e, names)
	if err != nil {
		return err
	}
	if m.sess != nil {
		m.sess.stop()
	}
	m.sess, m.exp, m.bar, m.active, m.scen = sess, e, bar, active, scenarioOf(e)
	m.target, m.paused = 0, false
	m.measuredAt, m.measuredEvents, m.eps, m.pace = m.lastTick, 0, 0, 0
	m.params.load(e, bar[active])
	m.refreshPanes()
	return nil
}

// restart runs the same experiment again from time zero, same seed.
func (m *Model) restart() {
	if err := m.start(m.exp, m.bar, m.active); err != nil {
		m.setStatus(describe(err), true)
	}
}

func (m Model) Init() tea.Cmd {
	cmds := []tea.Cmd{tea.SetWindowTitle("qcnlab " + m.exp.Name)}
	if m.autoTick {
		cmds = append(cmds, tick())
	}
	return tea.Batch(cmds...)
}

func (m Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	cmd := m.update(msg)
	m.layout()
	return m, cmd
}

func (m *Model) update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
		return nil
	case tickMsg:
		m.onTick(time.Time(msg))
		if m.autoTick && !m.quitting {
			return tick()
		}
		return nil
	case tea.KeyMsg:
		return m.onKey(msg)
	case editMsg:
		m.applyEdit(msg)
		return nil
	case saveMsg:
		m.saveTo(msg)
		return nil
	case openMsg:
		m.open(msg.path)
		return nil
	}
	// Anything else belongs to the component that asked for it: the file
	// picker reading a directory, a text input's cursor.
	var cmd tea.Cmd
	switch {
	case m.focus == focusOpen:
		m.picker, cmd = m.picker.update(msg)
	case m.focus == focusSave:
		m.save, cmd, _ = m.save.update(msg, &m.keys)
	case m.focus == focusParams:
		m.params, cmd = m.params.update(msg, &m.keys)
	}
	return cmd
}

// onTick picks up the runs' latest snapshots, measures, and moves the
// simulated-time target by the wall time since the last tick times the speed.
func (m *Model) onTick(at time.Time) {
	m.sess.refresh()
	if m.lastTick.IsZero() || at.Before(m.lastTick) {
		m.lastTick, m.measuredAt = at, at
	}
	dt := min(at.Sub(m.lastTick), maxTickGap)
	m.lastTick = at
	m.measure(at)
	if m.status != "" && at.Sub(m.statusAt) > statusFor {
		m.status = ""
	}
	if m.state() == stateRunning {
		if m.speed == fastest {
			m.target = m.scen.duration
		} else {
			// Never more than one step ahead of the slowest run: a run that
			// cannot keep up plays at its own pace, without a backlog.
			step := algos.Seconds(speeds[m.speed] * dt.Seconds())
			m.target = min(m.target+step, m.sess.reached()+step)
		}
		m.sess.setTarget(m.target)
	}
	m.refreshPanes()
}

// measure updates the events per second: over the last measureEvery of
// wall time at a set speed; at full speed, over the runs' busy time.
func (m *Model) measure(at time.Time) {
	if m.speed == fastest {
		var eps float64
		var busy time.Duration
		for _, s := range m.sess.snaps {
			if s.busy > 0 {
				eps += float64(s.events) / s.busy.Seconds()
				busy = max(busy, s.busy)
			}
		}
		if busy > 0 {
			m.eps, m.pace = eps, m.sess.reached().Seconds()/busy.Seconds()
		}
		return
	}
	if dt := at.Sub(m.measuredAt); dt >= measureEvery && m.state() == stateRunning {
		ev := m.sess.events()
		m.eps = float64(ev-m.measuredEvents) / dt.Seconds()
		m.measuredAt, m.measuredEvents = at, ev
	}
}

// state is what the header shows.
func (m *Model) state() runState {
	switch {
	case m.sess.err() != nil:
		return stateFailed
	case m.sess.done():
		return stateFinished
	case m.paused:
		return statePaused
	}
	return stateRunning
}

// mainSnap is the snapshot of the active algorithm's run.
func (m *Model) mainSnap() *snapshot {
	i := 0
	if m.compare {
		i = m.active
	}
	if i < len(m.sess.snaps) {
		return m.sess.snaps[i]
	}
	return nil
}

func (m *Model) refreshPanes() {
	if m.sess == nil {
		return
	}
	m.charts.setData(m.scen, m.mainSnap())
	if m.compare {
		m.cmp.setData(m.scen, m.sess.names, m.sess.snaps, m.active)
	}
}

func (m *Model) onKey(msg tea.KeyMsg) tea.Cmd {
	k := &m.keys
	if msg.String() == "ctrl+c" {
		return m.quit()
	}
	// Prompts and the picker take every key.
	var cmd tea.Cmd
	switch {
	case m.focus == focusSave:
		var cancelled bool
		m.save, cmd, cancelled = m.save.update(msg, k)
		if cancelled {
			m.focus = m.back()
		}
		return cmd
	case m.focus == focusOpen:
		if key.Matches(msg, k.Cancel) {
			m.focus = m.back()
			return nil
		}
		m.picker, cmd = m.picker.update(msg)
		return cmd
	case m.focus == focusParams && m.params.editing:
		m.params, cmd = m.params.update(msg, k)
		return cmd
	case m.focus == focusParams && key.Matches(msg, k.Cancel):
		m.showPar, m.focus = false, focusCharts
		return nil
	}
	switch {
	case key.Matches(msg, k.Quit):
		return m.quit()
	case key.Matches(msg, k.NextAlgo):
		m.switchTo(m.active + 1)
	case key.Matches(msg, k.PrevAlgo):
		m.switchTo(m.active - 1)
	case key.Matches(msg, k.PickAlgo):
		if i := int(msg.String()[0] - '1'); i < len(m.bar) {
			m.switchTo(i)
		}
	case key.Matches(msg, k.Pause):
		m.togglePause()
	case key.Matches(msg, k.Faster):
		m.setSpeed(min(m.speed+1, fastest))
	case key.Matches(msg, k.Slower):
		m.setSpeed(max(m.speed-1, 0))
	case key.Matches(msg, k.Fastest):
		m.setSpeed(fastest)
	case key.Matches(msg, k.Restart):
		m.restart()
	case key.Matches(msg, k.Compare):
		m.compare = !m.compare
		if err := m.start(m.exp, m.bar, m.active); err != nil {
			m.compare = !m.compare
			m.setStatus(describe(err), true)
		}
	case key.Matches(msg, k.Params):
		m.showPar = !m.showPar
		m.focus = m.back()
	case key.Matches(msg, k.Save):
		m.focus = focusSave
		return m.save.open("./" + m.exp.Name + ".toml")
	case key.Matches(msg, k.Open):
		m.focus = focusOpen
		dir, err := os.Getwd()
		if err != nil {
			dir = "."
		}
		m.picker, cmd = newPicker(dir, m.width, m.bodyHeight())
		return cmd
	case key.Matches(msg, k.Help):
		m.help.ShowAll = !m.help.ShowAll
	case m.focus == focusParams:
		m.params, cmd = m.params.update(msg, k)
		return cmd
	}
	return nil
}

// back is the focus to return to when a prompt or the picker closes.
func (m *Model) back() focus {
	if m.showPar {
		return focusParams
	}
	return focusCharts
}

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
		m.params.load(m.exp, m.bar[i])
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
	return trim(fmt.Sprintf("%.4f", x)) + "x"
}

// applyEdit sets a key on a clone of the experiment, validates it and
// restarts on it; an error leaves everything as it was and shows in place.
func (m *Model) applyEdit(msg editMsg) {
	next := m.exp.Clone()
	err := next.Set(msg.key + "=" + msg.value)
	if err == nil {
		err = next.Validate()
	}
	if err == nil {
		_, err = next.Config(m.bar[m.active]) // the active algorithm may not be in the file's list
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
	path := strings.TrimSpace(msg.path)
	if path == "" {
		m.save.fail("name a file")
		return
	}
	if _, err := os.Stat(path); err == nil && !msg.overwrite {
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

// open loads an experiment file and runs it; a file that does not load
// leaves its error in the picker and the current run going.
func (m *Model) open(path string) {
	// Name files under the working directory as the user would.
	if wd, err := os.Getwd(); err == nil {
		if rel, err := filepath.Rel(wd, path); err == nil && !strings.HasPrefix(rel, "..") {
			path = rel
		}
	}
	e, err := experiments.Load(path)
	if err == nil {
		err = m.start(e, algorithmBar(e), 0)
	}
	if err != nil {
		m.picker.fail(err.Error())
		return
	}
	m.focus = m.back()
	m.setStatus("opened "+path, false)
}

func (m *Model) setStatus(s string, isErr bool) {
	m.status, m.statusErr, m.statusAt = s, isErr, m.lastTick
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

// Layout.

// bottomHeight is the status line, or the save prompt's two lines.
func (m *Model) bottomHeight() int {
	if m.focus == focusSave {
		return 2
	}
	return 1
}

func (m *Model) helpView() string {
	narrow := m.width < 106
	var km help.KeyMap = mainHelp{&m.keys, narrow}
	switch {
	case m.focus == focusSave && m.save.confirm:
		km = confirmHelp{&m.keys}
	case m.focus == focusSave || m.focus == focusParams && m.params.editing:
		km = inputHelp{&m.keys}
	case m.focus == focusOpen:
		km = pickerHelp{&m.keys}
	case m.focus == focusParams:
		km = paramsHelp{&m.keys, narrow}
	}
	// help truncates with an ellipsis, but lets the last item run over
	// when the ellipsis does not fit: cut every line to the width.
	lines := splitLines(m.help.View(km))
	for i, l := range lines {
		lines[i] = fit(l, m.width)
	}
	return strings.Join(lines, "\n")
}

// bodyHeight is what is left for the charts (or the pane or the picker).
func (m *Model) bodyHeight() int {
	return m.height - 3 - m.bottomHeight() - lipgloss.Height(m.helpView())
}

// paramsWidth is the parameter pane's width beside the charts.
func (m *Model) paramsWidth() int { return min(max(m.width*2/5, 46), 64) }

func (m *Model) layout() {
	m.help.Width = m.width
	w, h := m.width, m.bodyHeight()
	if w < minWidth || m.height < minHeight {
		return
	}
	m.save.setWidth(w)
	chartsW, chartsH := w, h
	switch {
	case m.focus == focusOpen:
		m.picker.setSize(w, h)
	case m.showPar && w >= wideParams:
		pw := m.paramsWidth()
		m.params.setSize(pw-2, h) // the pane's left border and padding
		chartsW = w - pw
	case m.showPar:
		chartsH = 2 // sparklines over the pane
		m.params.setSize(w, h-chartsH)
	}
	m.charts.setSize(chartsW, chartsH)
	m.cmp.setSize(chartsW, chartsH)
}

func (m Model) View() string {
	if m.quitting || m.width <= 0 || m.height <= 0 {
		return ""
	}
	if m.width < minWidth || m.height < minHeight {
		msg := fmt.Sprintf("terminal too small (need %dx%d, have %dx%d)", minWidth, minHeight, m.width, m.height)
		lines := splitLines(lipgloss.NewStyle().Width(m.width).Align(lipgloss.Center).Render(msg))
		return lipgloss.Place(m.width, m.height, lipgloss.Center, lipgloss.Center,
			strings.Join(lines[:min(len(lines), m.height)], "\n"))
	}
	w := m.width
	snap := m.mainSnap()
	rows := []string{
		headerView(w, m.exp, m.sess.reached(), m.speedText(), m.state()),
		barView(w, m.bar, m.active, m.compare),
		m.bodyView(),
		statsLine(w, snap, m.scen, m.eps),
	}
	if m.focus == focusSave {
		rows = append(rows, m.save.view())
	} else {
		style := faintStyle
		if m.statusErr {
			style = errorStyle
		} else if m.status != "" {
			style = okStyle
		}
		if err := m.sess.err(); err != nil {
			m.status, style = err.Error(), errorStyle
		}
		rows = append(rows, style.Render(fit(m.status, w)))
	}
	rows = append(rows, m.helpView())
	return lipgloss.JoinVertical(lipgloss.Left, rows...)
}

func (m *Model) bodyView() string {
	charts := m.charts.view()
	if m.compare && !(m.showPar && m.width < wideParams) {
		charts = m.cmp.view()
	}
	switch {
	case m.focus == focusOpen:
		return m.picker.view()
	case m.showPar && m.width >= wideParams:
		return lipgloss.JoinHorizontal(lipgloss.Top, charts, paneStyle.Render(m.params.view()))
	case m.showPar:
		return lipgloss.JoinVertical(lipgloss.Left, charts, m.params.view())
	}
	return charts
}

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
