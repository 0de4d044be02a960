package tui

import (
	"os"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"
	"go.uber.org/goleak"

	"qcnlab/experiments"
)

func TestMain(m *testing.M) {
	// Goldens are plain text: no colour, whatever the terminal running the tests.
	lipgloss.SetColorProfile(termenv.Ascii)
	// The bar shows the experiment's algorithms only, so goldens do not
	// change as schemes are registered (TestAlgorithmBar covers the defaults).
	defaultAlgorithms = nil
	os.Exit(m.Run())
}

// harness drives a Model the way bubbletea would, with explicit messages:
// the wall clock only ever comes from the ticks it sends.
type harness struct {
	t    testing.TB
	m    Model
	now  time.Time
	quit bool
}

// epoch is the harness's wall clock at the start: any fixed time will do.
var epoch = time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)

func newHarness(t testing.TB, e *experiments.Experiment, w, h int) *harness {
	t.Helper()
	m := newModel()
	if err := m.start(e, algorithmBar(e), 0); err != nil {
		t.Fatal(err)
	}
	return harnessFor(t, m, w, h)
}

// harnessFor drives model m at w x h, from its first tick.
func harnessFor(t testing.TB, m Model, w, h int) *harness {
	t.Helper()
	hs := &harness{t: t, m: m, now: epoch}
	t.Cleanup(func() { hs.m.Close() })
	hs.send(tea.WindowSizeMsg{Width: w, Height: h}, tickMsg(hs.now))
	return hs
}

// send delivers messages, running the commands they return as bubbletea
// would (except quitting, which it records).
func (h *harness) send(msgs ...tea.Msg) {
	h.t.Helper()
	for _, msg := range msgs {
		next, cmd := h.m.Update(msg)
		h.m = next.(Model)
		h.run(cmd, 0)
	}
}

func (h *harness) run(cmd tea.Cmd, depth int) {
	if cmd == nil || depth > 10 {
		return
	}
	switch msg := cmd().(type) {
	case nil:
	case tea.QuitMsg:
		h.quit = true
	case tea.BatchMsg:
		for _, c := range msg {
			h.run(c, depth+1)
		}
	default:
		next, cmd := h.m.Update(msg)
		h.m = next.(Model)
		h.run(cmd, depth+1)
	}
}

// keys types keys: names bubbletea gives special keys, or text.
func (h *harness) keys(names ...string) {
	h.t.Helper()
	for _, name := range names {
		h.send(keyMsg(name))
	}
}

func keyMsg(name string) tea.KeyMsg {
	special := map[string]tea.KeyType{
		"tab": tea.KeyTab, "shift+tab": tea.KeyShiftTab, "enter": tea.KeyEnter, "esc": tea.KeyEsc,
		"ctrl+c": tea.KeyCtrlC, "up": tea.KeyUp, "down": tea.KeyDown, "left": tea.KeyLeft,
		"backspace": tea.KeyBackspace, "ctrl+u": tea.KeyCtrlU, "space": tea.KeySpace,
	}
	if k, ok := special[name]; ok {
		if k == tea.KeySpace {
			return tea.KeyMsg{Type: k, Runes: []rune{' '}}
		}
		return tea.KeyMsg{Type: k}
	}
	return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(name)}
}

// typeText replaces a text input's content with s.
func (h *harness) typeText(s string) {
	h.t.Helper()
	h.keys("ctrl+u")
	h.send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(s)})
}

// advance lets wall time pass: one tick, then it waits until every run has
// reached the target that tick set, and ticks again without moving the clock
// to pick up what they published.
func (h *harness) advance(wall time.Duration) {
	h.t.Helper()
	h.now = h.now.Add(wall)
	h.send(tickMsg(h.now))
	h.settle()
}

// settle waits for the runs to reach the target and shows their snapshots.
func (h *harness) settle() {
	h.t.Helper()
	for _, d := range h.m.sess.drivers {
		waitFor(h.t, d, h.m.target)
	}
	h.send(tickMsg(h.now))
}

func (h *harness) view() string { return h.m.View() }

// verifyNoLeaks fails if goroutines other than the test's own are left. It
// ignores teatest's interrupt watcher, which lives as long as the test binary.
func verifyNoLeaks(t *testing.T) {
	t.Helper()
	goleak.VerifyNone(t, goleak.IgnoreTopFunction("github.com/charmbracelet/x/exp/teatest.NewTestModel.func2"))
}
