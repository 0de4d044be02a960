package tui

import (
	"fmt"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"

	"qcnlab/algos"
	"qcnlab/experiments"
	"qcnlab/experiments/cost"
	"qcnlab/printable"
	"qcnlab/units"
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
	wideParams          = 100 // from this width the parameter pane sits beside the charts
)

// The default algorithms of the bar, after the experiment's own, when they
// are registered.
var defaultAlgorithms = barDefaults

// barDefaults are the schemes the bar offers after an experiment's own:
// the 802.1Qau family's, DCQCN, and the ACK-clocked schemes.
var barDefaults = []string{"qcn", "qcn-t", "ap-n-aimd", "dsm", "dcqcn", "dctcp", "timely", "hpcc", "swift"}

// focus is the root model's state: which part of the screen has the keys.
type focus int

const (
	focusCharts focus = iota
	focusParams       // the parameter pane (it may be editing a value)
	focusSave         // the save prompt
	focusOpen         // the open prompt
	focusLeave        // the question before unsaved edits are lost
)

// tickMsg is the UI's clock: it carries the wall time, so a test can drive
// simulated time with explicit messages.
type tickMsg time.Time

func tick() tea.Cmd {
	return tea.Tick(tickEvery, func(t time.Time) tea.Msg { return tickMsg(t) })
}

// Model is the workbench's root model.
type Model struct {
	keys          *keyMap // shared with every pane
	help          help.Model
	width, height int
	autoTick      bool // schedule the next tick on each tick (off in tests)
	ticking       bool // a tick is scheduled: the clock runs only while something moves
	quitting      bool

	setup                            // what the runs on screen are of
	run      *experiments.Experiment // exp at the sweep point shown: what runs
	scenario scenario                // run's axes, as the charts draw them
	// next is the build under way, if any; gen numbers the builds (shared
	// by the Model's copies, read by a build to give up once stale).
	next *build
	gen  *atomic.Int64

	paused     bool
	speed      int // index into speeds, or fastest
	focus      focus
	paramsOpen bool // the parameter pane is shown
	link       int  // the bottleneck the stats line describes (a parking lot has several)

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
	statusSeq int       // counts messages, so a fade timer clears only its own
	fadeSeq   int       // the message a fade timer is scheduled for

	// The panes: the charts of one run, or of every run side by side;
	// the parameters; the save and open prompts.
	charts     chartsPane
	comparison comparePane
	params     paramsPane
	save       savePrompt
	opener     openPrompt
	leave      leavePrompt
}

// New builds the workbench on an experiment, with its first algorithm
// active and its simulation started (idle until the first tick).
func New(e *experiments.Experiment) (Model, error) {
	m := newModel()
	m.autoTick, m.ticking = true, true // Init schedules the first tick
	if err := m.start(e, algorithmBar(e), 0); err != nil {
		return Model{}, err
	}
	notes := m.openNotes()
	if len(m.points) > 1 {
		notes = append(notes, fmt.Sprintf("a sweep of %d points: the workbench runs one at a time; ] and [ pick it", len(m.points)))
	}
	if len(notes) > 0 {
		m.setStatus(strings.Join(notes, "; "), false)
	}
	return m, nil
}

func newModel() Model {
	keys := defaultKeys()
	return Model{
		keys:       &keys,
		gen:        new(atomic.Int64),
		help:       help.New(),
		speed:      defaultSpeed,
		charts:     chartsPane{common: common{keys: &keys}},
		comparison: comparePane{common: common{keys: &keys}},
		params:     newParamsPane(&keys),
		save:       newSavePrompt(&keys),
		opener:     newOpenPrompt(&keys),
		leave:      newLeavePrompt(&keys),
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

// start puts runs of e on screen at once, its file as opened: the
// workbench's first runs (and a test's), built here rather than in a
// command. If they cannot start, nothing changes.
func (m *Model) start(e *experiments.Experiment, bar []string, active int) error {
	s := m.want()
	s.exp, s.base, s.edits, s.fitNotes, s.bar, s.active = e, e, nil, nil, bar, active
	cmd, err := m.begin(s, build{})
	if err != nil {
		return err
	}
	msg := cmd().(builtMsg)
	if msg.err != nil {
		m.dropBuild()
		return msg.err
	}
	m.built(msg)
	m.setup.savedAs = encoded(saveable(m.setup))
	return nil
}

// memoryBudget bounds the runs the workbench holds at once (compare mode's,
// one per algorithm of the bar) by their estimates, as a batch's workers
// are bounded; a variable for the tests.
var memoryBudget float64 = cost.MaxMemoryInFlight

// historyBytes is the most a run's history holds (maxValues, or minPoints
// points of every column): the workbench's own memory beside the
// simulation's estimate.
func historyBytes(columns int) float64 {
	return 8 * float64(max(maxValues, minPoints*columns))
}

// fitsMemory refuses runs of e's algorithms names that would need more
// than budget together, by their estimates and their histories; one run
// alone always fits (its estimate is bounded when e is loaded).
func fitsMemory(e *experiments.Experiment, names []string, budget float64) error {
	if len(names) < 2 {
		return nil
	}
	queues, rates := e.SeriesShape()
	need := 0.0
	for _, name := range names {
		need += e.RunCost(name).Memory + historyBytes(queues+rates)
	}
	if need <= budget {
		return nil
	}
	return fmt.Errorf("compare mode's %d runs would need ~%s of memory together (the most is %s): compare fewer sources, or run one algorithm at a time",
		len(names), units.FormatBytes(cost.RoundTo2(need)), units.FormatBytes(budget))
}

// pickPoint runs sweep point i (wrapping around); if it cannot start, the
// run on screen goes on.
func (m *Model) pickPoint(i int) tea.Cmd {
	s := m.want()
	n := len(s.points)
	if n < 2 {
		m.setStatus("this experiment has no [sweep]: one point", false)
		return nil
	}
	s.point = ((i % n) + n) % n
	return m.rebuild(s)
}

// matchPoint is the index of the point of points that agrees with want on
// every axis that counts; 0 if none does.
func matchPoint(points [][]experiments.Assignment, want []experiments.Assignment, counts func(key string) bool) int {
	value := map[string]string{}
	for _, a := range want {
		value[a.Key] = a.Value
	}
	for i, p := range points {
		agrees := true
		for _, a := range p {
			if v, ok := value[a.Key]; ok && counts(a.Key) && v != a.Value {
				agrees = false
				break
			}
		}
		if agrees {
			return i
		}
	}
	return 0
}

// sweepLabel says which sweep point runs, in the longest form that fits w
// cells: "sweep 2/12: rtt=300us seed=2", then without "sweep", then
// without the count, then with the values cut but the seed whole. The keys
// are short, and only the axes the runs on screen have. Empty without a
// sweep.
func (m *Model) sweepLabel(w int) string {
	if len(m.points) < 2 {
		return ""
	}
	var parts []string
	seed := ""
	for _, a := range m.points[m.point] {
		if !m.compare && !experiments.AxisApplies(a.Key, m.bar[m.active]) {
			continue
		}
		kv := m.exp.ShortKey(a.Key) + "=" + printable.Text(strings.Trim(a.Value, `"`))
		if a.Key == "seed" {
			seed = kv
			continue
		}
		parts = append(parts, kv)
	}
	values := strings.Join(append(slices.Clone(parts), seed), " ")
	values = strings.TrimSpace(values)
	count := fmt.Sprintf("%d/%d", m.point+1, len(m.points))
	for _, l := range []string{"sweep " + count + ": " + values, count + " " + values, values} {
		if lipgloss.Width(l) <= w {
			return l
		}
	}
	if seed == "" {
		return truncate(values, w)
	}
	return truncate(strings.Join(parts, " "), max(1, w-len(seed)-1)) + " " + seed
}

// restart runs the same experiment again from time zero, same seed.
func (m *Model) restart() tea.Cmd { return m.rebuild(m.want()) }

// rebuild asks for runs of s; if they cannot start, the status line says
// why and the runs on screen go on.
func (m *Model) rebuild(s setup) tea.Cmd {
	cmd, err := m.begin(s, build{})
	if err != nil {
		m.setStatus(describe(err), true)
	}
	return cmd
}

func (m Model) Init() tea.Cmd {
	cmds := []tea.Cmd{tea.SetWindowTitle("qcnlab " + printable.Text(m.exp.Name))}
	if m.autoTick {
		cmds = append(cmds, tick())
	}
	return tea.Batch(cmds...)
}

// fadeMsg clears the status line's message number seq, if it still shows.
type fadeMsg int

func (m Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	var cmd tea.Cmd
	if keys := splitBurst(msg); keys != nil && !m.typing() {
		cmds := make([]tea.Cmd, 0, len(keys))
		for i, k := range keys {
			if m.quitting {
				break // "qr" must not start a run after quitting
			}
			if m.typing() {
				// A key opened a text input: the rest is its text, whole.
				rest := msg.(tea.KeyMsg)
				rest.Runes = rest.Runes[i:]
				cmds = append(cmds, m.update(rest))
				break
			}
			cmds = append(cmds, m.update(k))
		}
		cmd = tea.Batch(cmds...)
	} else {
		cmd = m.update(msg)
	}
	m.layout()
	return m, tea.Batch(cmd, m.clock())
}

// typing reports whether a text input has the keys: a burst of runes is
// then text, taken whole. Split into keys, each costs the input's length
// (it measures its width anew), and a long paste took minutes.
func (m *Model) typing() bool {
	switch m.focus {
	case focusSave:
		return !m.save.confirm
	case focusOpen:
		return true
	case focusParams:
		return m.params.editing
	}
	return false
}

// splitBurst returns the keys of a burst one by one, nil if msg is not one.
// bubbletea delivers printable keys read together (typed fast, auto-repeat,
// a slow link, tmux send-keys) as one KeyMsg with several runes, which
// matches no binding: "+++" must be three steps of speed. A bracketed paste
// stays whole.
func splitBurst(msg tea.Msg) []tea.KeyMsg {
	k, ok := msg.(tea.KeyMsg)
	if !ok || k.Type != tea.KeyRunes || len(k.Runes) < 2 || k.Paste {
		return nil
	}
	keys := make([]tea.KeyMsg, len(k.Runes))
	for i, r := range k.Runes {
		keys[i] = tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}, Alt: k.Alt}
		if r == ' ' {
			keys[i].Type = tea.KeySpace // as bubbletea sends a space alone
		}
	}
	return keys
}

// clock schedules what the model waits for: the next tick while a run
// moves (an idle workbench does not wake up), and the fading of a new
// status message.
func (m *Model) clock() tea.Cmd {
	if !m.autoTick || m.quitting {
		return nil
	}
	var cmds []tea.Cmd
	if !m.ticking && !m.idle() {
		m.ticking = true
		// The tick after a pause counts from now, not from the last one.
		m.lastTick = time.Now()
		m.measuredAt, m.measuredEvents = m.lastTick, m.sess.events()
		cmds = append(cmds, tick())
	}
	if m.status != "" && m.fadeSeq != m.statusSeq {
		m.fadeSeq = m.statusSeq
		seq := m.statusSeq
		cmds = append(cmds, tea.Tick(statusFor, func(time.Time) tea.Msg { return fadeMsg(seq) }))
	}
	return tea.Batch(cmds...)
}

// idle reports whether nothing on screen can change without a key: the runs
// are paused, finished or failed, and every run has published where it
// stopped and the model has picked it up.
func (m *Model) idle() bool {
	if m.sess == nil {
		return true
	}
	if m.state() == stateRunning {
		return false
	}
	for i, d := range m.sess.drivers {
		s := m.sess.snaps[i]
		if d.snapshot() != s || !s.done && s.now < m.target {
			return false
		}
	}
	return true
}

func (m *Model) update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
		return nil
	case tickMsg:
		m.onTick(time.Time(msg))
		if m.autoTick && !m.quitting && !m.idle() {
			return tick()
		}
		m.ticking = false
		return nil
	case fadeMsg:
		if int(msg) == m.statusSeq {
			m.status = ""
		}
		return nil
	case tea.KeyMsg:
		return m.onKey(msg)
	case editMsg:
		return m.applyEdit(msg)
	case builtMsg:
		m.built(msg)
		return nil
	case saveMsg:
		return m.saveTo(msg)
	case savedMsg:
		m.saved(msg)
		return nil
	case openMsg:
		return m.open(msg.path)
	case openedMsg:
		return m.opened(msg)
	}
	// Anything else belongs to the pane that asked for it: a text input's
	// cursor.
	return m.focused().update(msg)
}

// focused is the pane that has the keys.
func (m *Model) focused() pane {
	switch m.focus {
	case focusLeave:
		return &m.leave
	case focusOpen:
		return &m.opener
	case focusSave:
		return &m.save
	case focusParams:
		return &m.params
	}
	if m.compare {
		return &m.comparison
	}
	return &m.charts
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
			m.target = m.scenario.duration
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
	case m.next != nil:
		return stateBuilding
	case m.sess.err() != nil:
		return stateFailed
	case m.sess.done():
		return stateFinished
	case m.paused:
		return statePaused
	}
	return stateRunning
}

// links is the number of bottlenecks of the runs.
func (m *Model) links() int {
	if s := m.mainSnap(); s != nil {
		return len(s.summary.Bottlenecks)
	}
	return 1
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
	m.charts.setData(m.scenario, m.mainSnap())
	if m.compare {
		m.comparison.setData(m.scenario, m.sess.names, m.sess.snaps, m.active, m.link)
	}
}

func (m *Model) onKey(msg tea.KeyMsg) tea.Cmd {
	k := m.keys
	if msg.String() == "ctrl+c" && m.focus != focusLeave {
		return m.quitOrAsk()
	}
	// Prompts take every key.
	switch {
	case m.focus == focusLeave:
		return m.answered(msg)
	case m.focus == focusSave:
		cmd := m.save.update(msg)
		if m.save.closed {
			m.focus = m.back()
		}
		return cmd
	case m.focus == focusOpen:
		cmd := m.opener.update(msg)
		if m.opener.closed {
			m.focus = m.back()
		}
		return cmd
	case m.focus == focusParams && m.params.editing:
		return m.params.update(msg)
	case m.focus == focusParams && key.Matches(msg, k.Cancel):
		m.paramsOpen, m.focus = false, focusCharts
		return nil
	}
	switch {
	case key.Matches(msg, k.Quit):
		return m.quitOrAsk()
	case key.Matches(msg, k.NextAlgo):
		return m.switchTo(m.want().active + 1)
	case key.Matches(msg, k.PrevAlgo):
		return m.switchTo(m.want().active - 1)
	case key.Matches(msg, k.PickAlgo):
		if i := int(msg.String()[0] - '1'); i < len(m.want().bar) {
			return m.switchTo(i)
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
		return m.restart()
	case key.Matches(msg, k.Compare):
		s := m.want()
		s.compare = !s.compare
		return m.rebuild(s)
	case key.Matches(msg, k.Params):
		m.paramsOpen = !m.paramsOpen
		m.focus = m.back()
	case key.Matches(msg, k.Save):
		m.focus = focusSave
		return m.save.open(defaultSavePath(m.want().exp.Name))
	case key.Matches(msg, k.Open):
		if m.unsaved() {
			m.focus = focusLeave
			m.leave.ask(true)
			return nil
		}
		m.focus = focusOpen
		return m.opener.open()
	case key.Matches(msg, k.NextPoint):
		return m.pickPoint(m.want().point + 1)
	case key.Matches(msg, k.PrevPoint):
		return m.pickPoint(m.want().point - 1)
	case key.Matches(msg, k.Rates):
		m.scenario.sending = !m.scenario.sending
		m.refreshPanes()
	case key.Matches(msg, k.Link):
		m.link = (m.link + 1) % max(1, m.links())
		m.refreshPanes()
	case key.Matches(msg, k.Help):
		m.help.ShowAll = !m.help.ShowAll
	case m.focus == focusParams:
		return m.params.update(msg)
	}
	return nil
}

// back is the focus to return to when a prompt closes.
func (m *Model) back() focus {
	if m.paramsOpen {
		return focusParams
	}
	return focusCharts
}
