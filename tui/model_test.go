package tui

import (
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"qcnlab/algos"
	"qcnlab/experiments"
)

const ms = algos.Millisecond

// twoAlgos is the test experiment with a second algorithm in its bar.
func twoAlgos(t testing.TB, sets ...string) *experiments.Experiment {
	return testExperiment(t, append([]string{`algorithms=["qcn", "` + gentleQCN + `"]`}, sets...)...)
}

// queues is the queue column of the main run's history, to compare runs.
func queues(h *harness) []float64 {
	_, ys := column(h.m.mainSnap(), 0)
	return ys
}

func TestStartsOnFirstAlgorithmAtDefaultSpeed(t *testing.T) {
	h := newHarness(t, twoAlgos(t), 120, 40)
	if h.m.bar[h.m.active] != "qcn" || h.m.speed != defaultSpeed || speeds[defaultSpeed] != 0.01 {
		t.Fatalf("active %q speed %v", h.m.bar[h.m.active], h.m.speed)
	}
	h.advance(tick250)
	h.advance(tick250)
	if got := h.m.sess.reached(); got != 5*ms { // 2 x 250 ms at 0.01x
		t.Errorf("reached %v after 0.5 s at 0.01x, want 5ms", got)
	}
	if v := h.view(); !strings.Contains(v, "t  5.00ms/20ms  running   0.01x") || !strings.Contains(v, "[1 QCN]") {
		t.Errorf("header or bar missing:\n%s", v)
	}
}

func TestAlgorithmBar(t *testing.T) {
	saved := defaultAlgorithms
	defer func() { defaultAlgorithms = saved }()
	defaultAlgorithms = []string{"qcn", "qcn-t", "ap-n-aimd", "dsm"}
	e := testExperiment(t, `algorithms=["`+gentleQCN+`"]`)
	bar := algorithmBar(e)
	// The experiment's own first, then each default that is registered.
	want := []string{gentleQCN}
	for _, name := range defaultAlgorithms {
		if _, err := algos.Lookup(name); err == nil {
			want = append(want, name)
		}
	}
	if !slices.Equal(bar, want) {
		t.Errorf("bar %v, want %v", bar, want)
	}
	if !slices.Contains(bar, "qcn") {
		t.Error("qcn is registered but not in the bar")
	}
}

func TestSwitchAlgorithmRestartsOnSameSeed(t *testing.T) {
	h := newHarness(t, twoAlgos(t), 120, 40)
	h.advance(tick250)
	first := queues(h)
	old := h.m.sess

	h.keys("tab")
	if h.m.bar[h.m.active] != gentleQCN || h.m.sess == old || h.m.sess.reached() != 0 {
		t.Fatalf("after tab: active %q, new session %v, at %v", h.m.bar[h.m.active], h.m.sess != old, h.m.sess.reached())
	}
	h.advance(tick250)
	if slices.Equal(queues(h), first) {
		t.Error("the other algorithm gave the same queue")
	}

	h.keys("shift+tab") // back to QCN: the same run again
	h.advance(tick250)
	if h.m.bar[h.m.active] != "qcn" || !slices.Equal(queues(h), first) {
		t.Error("switching back did not give the same run on the same seed")
	}
	h.keys("shift+tab") // wraps around
	if h.m.active != 1 {
		t.Errorf("shift+tab from the first: active %d, want the last", h.m.active)
	}
	h.keys("1")
	if h.m.active != 0 {
		t.Errorf("1: active %d", h.m.active)
	}
	h.keys("2")
	if h.m.active != 1 {
		t.Errorf("2: active %d", h.m.active)
	}
	before := h.m.sess
	h.keys("9") // no ninth algorithm: nothing happens
	if h.m.active != 1 || h.m.sess != before {
		t.Error("9 changed the run")
	}
}

func TestPauseAndResume(t *testing.T) {
	h := newHarness(t, testExperiment(t), 120, 40)
	h.advance(tick250)
	h.keys("space")
	if h.m.state() != statePaused {
		t.Fatalf("state %v after space", h.m.state())
	}
	at := h.m.sess.reached()
	for range 3 {
		h.advance(tick250)
	}
	if got := h.m.sess.reached(); got != at {
		t.Errorf("moved from %v to %v while paused", at, got)
	}
	if !strings.Contains(h.view(), "paused") {
		t.Error("header does not say paused")
	}
	h.keys("space")
	h.advance(tick250)
	if got := h.m.sess.reached(); got != at+2500*algos.Microsecond {
		t.Errorf("resumed to %v, want %v", got, at+2500*algos.Microsecond)
	}
}

func TestSpeedKeys(t *testing.T) {
	h := newHarness(t, testExperiment(t), 120, 40)
	h.keys("+")
	if speeds[h.m.speed] != 0.02 || !strings.Contains(h.view(), "0.02x") {
		t.Fatalf("+: speed %v", h.m.speedText())
	}
	h.advance(tick250)
	if got := h.m.sess.reached(); got != 5*ms {
		t.Errorf("250 ms at 0.02x reached %v, want 5ms", got)
	}
	h.keys("-", "-")
	if speeds[h.m.speed] != 0.005 {
		t.Errorf("- -: speed %v", h.m.speedText())
	}
	for range 20 {
		h.keys("-")
	}
	if h.m.speed != 0 {
		t.Errorf("speed went below the slowest: %d", h.m.speed)
	}
	h.keys("0")
	if h.m.speed != fastest || !strings.Contains(h.view(), "max") {
		t.Fatalf("0: speed %v", h.m.speedText())
	}
	h.advance(tick250)
	if h.m.state() != stateFinished || h.m.sess.reached() != 20*ms {
		t.Errorf("as fast as possible: %v at %v, want finished at 20ms", h.m.state(), h.m.sess.reached())
	}
	if h.m.eps <= 0 || !strings.Contains(h.view(), "events/s") {
		t.Error("no events per second at full speed")
	}
	if v := h.view(); !strings.Contains(v, "finished") {
		t.Error("header does not say finished")
	}
	h.keys("space") // over: space explains instead of pausing
	if h.m.paused || !strings.Contains(h.view(), "r runs it again") {
		t.Error("space after the end")
	}
	h.keys("+")
	if h.m.speed != fastest {
		t.Error("+ went past as fast as possible")
	}
}

func TestSlowerFromFastestContinuesWhereTheRunIs(t *testing.T) {
	h := newHarness(t, testExperiment(t, "duration=200ms", "warmup=10ms"), 120, 40)
	h.advance(tick250)
	h.keys("0", "-") // target the end, then back to 10x at once
	if h.m.speed != fastest-1 {
		t.Errorf("0 then -: speed %v, want 10x", h.m.speedText())
	}
	h.m.sess.refresh()
	if h.m.target == 200*ms && !h.m.sess.done() {
		t.Error("slower than max left the target at the end instead of where the runs are")
	}
	h.settle()
	h.advance(tick250) // 2.5 s at 10x: to the end
	if h.m.state() != stateFinished {
		t.Errorf("state %v at %v", h.m.state(), h.m.sess.reached())
	}
}

func TestRestartGivesTheSameRun(t *testing.T) {
	h := newHarness(t, testExperiment(t), 120, 40)
	h.advance(tick250)
	h.advance(tick250)
	first := queues(h)
	h.keys("r")
	if h.m.sess.reached() != 0 || len(queues(h)) != 0 {
		t.Fatal("r did not start from zero")
	}
	h.advance(tick250)
	h.advance(tick250)
	if !slices.Equal(queues(h), first) {
		t.Error("a restart on the same seed gave a different run")
	}
}

func TestCompareMode(t *testing.T) {
	h := newHarness(t, twoAlgos(t), 120, 40)
	h.keys("c")
	if !h.m.compare || len(h.m.sess.drivers) != 2 {
		t.Fatalf("compare: %v with %d runs", h.m.compare, len(h.m.sess.drivers))
	}
	h.advance(tick250)
	// Each run is the same as running its algorithm alone.
	alone := newHarness(t, twoAlgos(t), 120, 40)
	alone.keys("2")
	alone.advance(tick250)
	_, got := column(h.m.sess.snaps[1], 0)
	if !slices.Equal(got, queues(alone)) {
		t.Error("the compared run differs from the same algorithm alone")
	}
	h.keys("tab") // highlights the next, every run goes on
	if h.m.active != 1 || len(h.m.sess.drivers) != 2 || h.m.sess.reached() == 0 {
		t.Error("tab in compare mode restarted the runs")
	}
	h.keys("c")
	if h.m.compare || len(h.m.sess.drivers) != 1 || h.m.sess.names[0] != gentleQCN {
		t.Errorf("back from compare: %v, runs %v", h.m.compare, h.m.sess.names)
	}
}

func TestParamsPaneOpensAndCloses(t *testing.T) {
	h := newHarness(t, testExperiment(t), 120, 40)
	for _, k := range []string{"e", "p"} {
		h.keys(k)
		if !h.m.paramsOpen || h.m.focus != focusParams || !strings.Contains(h.view(), "parameters of the run and of QCN") {
			t.Fatalf("%s did not open the pane", k)
		}
		h.keys(k)
		if h.m.paramsOpen || h.m.focus != focusCharts {
			t.Fatalf("%s did not close the pane", k)
		}
	}
	h.keys("e", "esc")
	if h.m.paramsOpen {
		t.Error("esc did not close the pane")
	}
	// Every parameter of the active scheme is listed (the table scrolls),
	// with its unit.
	h.keys("e")
	sc, _ := algos.Lookup("qcn")
	for _, p := range sc.Params {
		found := false
		for _, r := range h.m.params.rows {
			found = found || r.key == "params.qcn."+p.Key
		}
		if !found {
			t.Errorf("parameter %s missing", p.Key)
		}
	}
	if v := h.view(); !strings.Contains(v, "· q_eq") || !strings.Contains(v, "33KB") || !strings.Contains(v, "10Gbps") {
		t.Errorf("parameters or units missing from the pane:\n%s", v)
	}
}

// editKey opens the pane, selects key and types value.
func editKey(h *harness, key, value string) {
	h.t.Helper()
	selectKey(h, key)
	h.keys("enter")
	h.typeText(value)
	h.keys("enter")
}

// selectKey opens the parameter pane and moves to key's row.
func selectKey(h *harness, key string) {
	h.t.Helper()
	if !h.m.paramsOpen {
		h.keys("e")
	}
	for h.m.params.table.Cursor() > 0 {
		h.keys("up")
	}
	for i, r := range h.m.params.rows {
		if r.key == key {
			break
		}
		if i == len(h.m.params.rows)-1 {
			h.t.Fatalf("no row %s", key)
		}
		h.keys("down")
	}
}

func TestEditAppliesAndRestarts(t *testing.T) {
	h := newHarness(t, testExperiment(t), 120, 40)
	h.advance(tick250)
	old := h.m.sess
	editKey(h, "network.rtt", "300us")
	if h.m.params.editing || h.m.params.err != "" {
		t.Fatalf("still editing: %q", h.m.params.err)
	}
	if got := algos.Time(h.m.exp.Network.RTT); got != 300*algos.Microsecond {
		t.Errorf("rtt %v", got)
	}
	if h.m.sess == old || h.m.sess.reached() != 0 || h.m.exp.Seed != 1 {
		t.Error("the run did not restart on the same seed")
	}
	if !strings.Contains(h.view(), "network.rtt = 300us: restarted") {
		t.Error("no confirmation")
	}
	// An edit that puts the setpoint at or above the buffer says so.
	editKey(h, "network.buffer", "20KB")
	if !strings.Contains(h.view(), "network.buffer = 20KB: restarted; params.qcn.q_eq = 33KB is at or above network.buffer") {
		t.Errorf("no warning of Q_EQ over the buffer: %q", h.m.status)
	}
	editKey(h, "network.buffer", "150KB")
	editKey(h, "params.qcn.q_eq", "50KB")
	if v, _ := h.m.exp.ParamValues("qcn"); v["q_eq"] != 50e3 {
		t.Errorf("q_eq %v", v["q_eq"])
	}
	h.advance(tick250)
	if q := qEq(h.m.mainSnap()); q != 50e3 {
		t.Errorf("the run's q_eq is %v", q)
	}
}

func TestEditErrorChangesNothing(t *testing.T) {
	for _, c := range []struct{ key, value, want string }{
		{"network.rtt", "300", "needs a unit"},
		{"network.buffer", "1000B", "network.buffer: must be a whole number of bytes holding at least one frame"},
		{"params.qcn.gd", "2", "params.qcn.gd: 2 is above the maximum 1"},
		{"sources.count", "0", "sources.count: must be at least 1"},
	} {
		t.Run(c.key, func(t *testing.T) {
			h := newHarness(t, testExperiment(t), 120, 40)
			h.advance(tick250)
			old, exp := h.m.sess, h.m.exp
			editKey(h, c.key, c.value)
			if !h.m.params.editing || !strings.Contains(h.m.params.err, c.want) {
				t.Fatalf("error %q, want it to contain %q", h.m.params.err, c.want)
			}
			if h.m.sess != old || h.m.exp != exp || h.m.sess.reached() == 0 {
				t.Error("a bad value changed the run")
			}
			// Shown in place (wrapped to the pane's width).
			if flat := strings.Join(strings.Fields(h.view()), " "); !strings.Contains(flat, c.want[:12]) {
				t.Errorf("the error is not shown:\n%s", h.view())
			}
			h.keys("esc") // cancel: back to the list, nothing changed
			if h.m.params.editing || h.m.exp != exp || h.m.sess != old {
				t.Error("esc did not cancel")
			}
		})
	}
}

func TestSaveRoundTrips(t *testing.T) {
	t.Chdir(t.TempDir())
	h := newHarness(t, twoAlgos(t), 120, 40)
	h.keys("2") // the active algorithm goes first in the file
	editKey(h, "network.rtt", "200us")
	h.keys("esc")
	h.keys("s")
	if h.m.focus != focusSave || h.m.save.input.Value() != "./qcn-dumbbell.toml" {
		t.Fatalf("prompt %q", h.m.save.input.Value())
	}
	h.keys("enter")
	if h.m.focus == focusSave || !strings.Contains(h.view(), "saved ./qcn-dumbbell.toml") {
		t.Fatalf("not saved: %q", h.m.save.err)
	}
	e, err := experiments.Load("qcn-dumbbell.toml")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(e.Algorithms, []string{gentleQCN, "qcn"}) {
		t.Errorf("algorithms %v, want the active one first", e.Algorithms)
	}
	for _, name := range e.Algorithms {
		want, _ := h.m.exp.Config(name)
		got, _ := e.Config(name)
		want.OnSample, got.OnSample = nil, nil
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: saved config differs:\n%+v\n%+v", name, got, want)
		}
	}
	// Opened in the workbench, it gives the same run.
	h.advance(tick250)
	want := queues(h)
	again := newHarness(t, e, 120, 40)
	again.advance(tick250)
	if again.m.bar[again.m.active] != gentleQCN || !slices.Equal(queues(again), want) {
		t.Error("the saved experiment does not give the same run")
	}
	// Every parameter is in the file, explicit.
	data, _ := os.ReadFile("qcn-dumbbell.toml")
	for _, key := range []string{"[params.qcn]", "[params." + gentleQCN + "]", "timer_period", "initial_rate", "warmup"} {
		if !strings.Contains(string(data), key) {
			t.Errorf("%s not in the saved file", key)
		}
	}
}

// Saving onto a FIFO is refused before the overwrite prompt, and the FIFO
// stays.
func TestSaveRefusesAFIFO(t *testing.T) {
	t.Chdir(t.TempDir())
	if err := syscall.Mkfifo("pipe.toml", 0o644); err != nil {
		t.Fatal(err)
	}
	h := newHarness(t, testExperiment(t), 80, 24)
	h.keys("s")
	h.typeText("pipe.toml")
	h.keys("enter")
	if h.m.save.confirm || !strings.Contains(h.m.save.err, "is a FIFO, not a regular file") {
		t.Fatalf("confirm %v, error %q", h.m.save.confirm, h.m.save.err)
	}
	if info, err := os.Lstat("pipe.toml"); err != nil || info.Mode()&os.ModeNamedPipe == 0 {
		t.Error("the FIFO was replaced")
	}
}

func TestSaveAsksBeforeOverwriting(t *testing.T) {
	t.Chdir(t.TempDir())
	os.WriteFile("x.toml", []byte("keep me"), 0o644)
	h := newHarness(t, testExperiment(t), 80, 24)
	h.keys("s")
	h.typeText("x.toml")
	h.keys("enter")
	if !h.m.save.confirm || !strings.Contains(h.view(), "x.toml exists: overwrite? (y/n)") {
		t.Fatal("no overwrite question")
	}
	h.keys("n")
	if data, _ := os.ReadFile("x.toml"); string(data) != "keep me" || h.m.focus != focusSave {
		t.Fatal("n overwrote the file or closed the prompt")
	}
	h.keys("enter", "y")
	if data, _ := os.ReadFile("x.toml"); !strings.Contains(string(data), "qcnlab experiment") {
		t.Error("y did not overwrite")
	}
	if h.m.focus != focusCharts {
		t.Error("prompt still open")
	}
	// No temporary files left behind.
	if files, _ := filepath.Glob(".*tmp"); len(files) > 0 {
		t.Errorf("left %v", files)
	}
	// esc cancels, and a bad directory shows its error in the prompt.
	h.keys("s", "esc")
	if h.m.focus != focusCharts {
		t.Error("esc did not close the prompt")
	}
	// A folder is not overwritten: the prompt says so at once.
	os.Mkdir("d.toml", 0o755)
	h.keys("s")
	h.typeText("d.toml")
	h.keys("enter")
	if h.m.save.confirm || !strings.Contains(h.view(), "d.toml is a folder") {
		t.Errorf("saving onto a folder: confirm %v, err %q", h.m.save.confirm, h.m.save.err)
	}
	h.keys("esc")
	h.keys("s")
	h.typeText("no/such/dir/x.toml")
	h.keys("enter")
	if h.m.focus != focusSave || h.m.save.err == "" || !strings.Contains(h.view(), "no such file") {
		t.Errorf("bad path: focus %v err %q", h.m.focus, h.m.save.err)
	}
}

func TestOpenBrokenFileKeepsTheRun(t *testing.T) {
	t.Chdir(t.TempDir())
	os.WriteFile("broken.toml", []byte("name = \"b\"\n[network]\ncapacty = \"1Gbps\"\n"), 0o644)
	h := newHarness(t, testExperiment(t), 120, 40)
	h.advance(tick250)
	old, exp := h.m.sess, h.m.exp
	h.keys("o")
	if h.m.focus != focusOpen || !strings.Contains(h.view(), "broken.toml") {
		t.Fatalf("the open prompt does not list the file:\n%s", h.view())
	}
	h.keys("down", "enter")
	v := h.view()
	if !strings.Contains(v, `broken.toml:3: network.capacty: unknown key (did you mean "network.capacity"?)`) {
		t.Errorf("error not shown:\n%s", v)
	}
	if h.m.sess != old || h.m.exp != exp || h.m.focus != focusOpen {
		t.Error("a broken file changed the run")
	}
	h.advance(tick250)
	if h.m.sess.reached() != 5*ms {
		t.Error("the current run stopped")
	}
	h.keys("esc")
	if h.m.focus != focusCharts {
		t.Error("esc did not close the open prompt")
	}
}

func TestOpenGoodFile(t *testing.T) {
	t.Chdir(t.TempDir())
	e := testExperiment(t, "network.rtt=300us", "name=opened")
	if err := e.Save("good.toml"); err != nil {
		t.Fatal(err)
	}
	h := newHarness(t, testExperiment(t), 120, 40)
	h.advance(tick250)
	h.keys("o", "g", "tab")
	if got := h.m.opener.input.Value(); got != "./good.toml" {
		t.Errorf("tab completed to %q", got)
	}
	h.keys("enter")
	if h.m.exp.Name != "opened" || h.m.sess.reached() != 0 || h.m.focus != focusCharts {
		t.Fatalf("not opened: %s", h.m.exp.Name)
	}
	if !strings.Contains(h.view(), "opened good.toml") {
		t.Errorf("no confirmation:\n%s", h.view())
	}
	// The message fades.
	for range 40 {
		h.advance(tick250)
	}
	if h.m.status != "" || strings.Contains(h.view(), "opened good") {
		t.Error("the status line kept its message")
	}
}

func TestResize(t *testing.T) {
	h := newHarness(t, testExperiment(t), 120, 40)
	h.advance(tick250)
	for _, mode := range [][]string{nil, {"c"}, {"e"}, {"?"}, {"s"}, {"o"}} {
		h.keys(mode...)
		for _, size := range [][2]int{{120, 40}, {80, 24}, {200, 60}, {60, 16}, {109, 30}, {110, 30}, {59, 16}, {60, 15}, {1, 1}, {0, 0}} {
			h.send(tea.WindowSizeMsg{Width: size[0], Height: size[1]})
			v := h.view()
			if size[0] == 0 {
				continue
			}
			checkSize(t, v, size[0], size[1])
			small := size[0] < minWidth || size[1] < minHeight
			if size[0] > 20 && small != strings.Contains(v, "too small") {
				t.Errorf("%v %v: too small %v:\n%s", mode, size, small, v)
			}
		}
		h.send(tea.WindowSizeMsg{Width: 120, Height: 40})
		h.keys("esc")
		if mode != nil && mode[0] != "e" && mode[0] != "s" && mode[0] != "o" {
			h.keys(mode...) // toggle off
		}
	}
}

// Every size from tiny to large renders without a panic and fits.
func TestEverySizeFits(t *testing.T) {
	h := newHarness(t, twoAlgos(t), 120, 40)
	h.keys("c")
	h.advance(tick250)
	for w := 1; w <= 130; w += 7 {
		for ht := 1; ht <= 45; ht += 4 {
			h.send(tea.WindowSizeMsg{Width: w, Height: ht})
			checkSize(t, h.view(), w, ht)
		}
	}
}

func TestQuit(t *testing.T) {
	for _, k := range []string{"q", "ctrl+c"} {
		t.Run(k, func(t *testing.T) {
			defer verifyNoLeaks(t)
			h := newHarness(t, testExperiment(t), 120, 40)
			h.advance(tick250)
			h.keys(k)
			if !h.quit || h.view() != "" {
				t.Error("did not quit")
			}
		})
	}
	// ctrl+c quits from a prompt too; q there is text.
	h := newHarness(t, testExperiment(t), 120, 40)
	h.keys("s", "q")
	if h.quit || !strings.HasSuffix(h.m.save.input.Value(), "q") {
		t.Error("q in the save prompt quit")
	}
	h.keys("ctrl+c")
	if !h.quit {
		t.Error("ctrl+c in a prompt did not quit")
	}
}

func TestHelpToggles(t *testing.T) {
	h := newHarness(t, testExperiment(t), 120, 40)
	h.keys("?")
	if v := h.view(); !h.m.help.ShowAll || !strings.Contains(v, "previous algorithm") || !strings.Contains(v, "max speed") {
		t.Error("? did not show the full help")
	}
	h.keys("?")
	if h.m.help.ShowAll {
		t.Error("? did not hide the full help")
	}
}

// Switching, restarting, comparing and quitting leave no goroutine behind.
func TestNoGoroutineLeaks(t *testing.T) {
	defer verifyNoLeaks(t)
	h := newHarness(t, twoAlgos(t, "duration=1s", "warmup=0s"), 120, 40)
	h.keys("0") // flat out, so the goroutines are busy when stopped
	h.send(tickMsg(h.now))
	for _, k := range []string{"tab", "r", "c", "tab", "r", "c", "2", "1", "space", "r", "+", "c"} {
		h.keys(k)
		h.now = h.now.Add(time.Millisecond)
		h.send(tickMsg(h.now))
	}
	editKey(h, "network.rtt", "200us")
	h.keys("esc", "ctrl+c", "ctrl+c") // the edit is unsaved: the first asks
	if !h.quit {
		t.Fatal("did not quit")
	}
}

// A shorter duration edited in the pane fits the file's warm-up, and the
// status line says so.
func TestEditShorterDurationFitsTheWarmup(t *testing.T) {
	e, err := experiments.Parse("short.toml", []byte("duration = \"20ms\"\nwarmup = \"8ms\"\n"))
	if err != nil {
		t.Fatal(err)
	}
	h := newHarness(t, e, 120, 40)
	editKey(h, "duration", "5ms")
	if h.m.params.err != "" || h.m.exp.WarmupTime() != 2*algos.Millisecond {
		t.Fatalf("err %q, warm-up %v", h.m.params.err, h.m.exp.WarmupTime())
	}
	if !strings.Contains(h.m.status, "the warm-up of 8ms is scaled to 2ms") {
		t.Errorf("status %q", h.m.status)
	}
}

// A value of the wrong type says what the key takes, in the project's words.
func TestEditWrongTypeSaysWhatTheKeyTakes(t *testing.T) {
	h := newHarness(t, testExperiment(t), 120, 40)
	editKey(h, "params.qcn.w", "1KB")
	if want := `params.qcn.w: a plain number, not a size ("1KB")`; h.m.params.err != want {
		t.Errorf("error %q, want %q", h.m.params.err, want)
	}
}

// The parameters pane of a chain lists hop_delay only where a chain has
// more than one link: a dumbbell's resolved experiment has none (nothing
// reads it), and reading it crashed the workbench on every dumbbell.
func TestParamRowsOfADumbbellAndAParkingLot(t *testing.T) {
	for _, c := range []struct {
		name string
		hop  bool
	}{{"qcn-dumbbell", false}, {"dsm-qcn-parking-lot", true}} {
		e, err := experiments.Open(c.name)
		if err != nil {
			t.Fatal(err)
		}
		has := false
		for _, r := range paramRows(e, e.Algorithms[0]) {
			has = has || r.key == "network.hop_delay"
		}
		if has != c.hop {
			t.Errorf("%s: a network.hop_delay row %v, want %v", c.name, has, c.hop)
		}
	}
}

// The ACK-clocked schemes are in the default bar, and the compare view runs
// one beside QCN: its rate chart shows its flows sending, window-limited,
// most of the link between them.
func TestCompareRunsAnACKClockedScheme(t *testing.T) {
	for _, name := range []string{"dctcp", "timely", "hpcc", "swift"} {
		if !slices.Contains(barDefaults, name) {
			t.Errorf("%s is not in the default bar", name)
		}
	}
	e := testExperiment(t, `algorithms=["qcn", "hpcc"]`)
	h := newHarness(t, e, 120, 40)
	h.keys("tab")
	if h.m.bar[h.m.active] != "hpcc" {
		t.Fatalf("active %q", h.m.bar[h.m.active])
	}
	for range 8 {
		h.advance(tick250)
	}
	s := h.m.mainSnap()
	if s == nil || len(s.points) == 0 {
		t.Fatal("no samples from hpcc")
	}
	var sum float64
	for j := 0; j < s.sources; j++ {
		_, ys := column(s, s.queues+j)
		sum += ys[len(ys)-1]
	}
	if sum < 0.8*float64(e.Network.Capacity) {
		t.Errorf("hpcc's flows send %g b/s in all, want most of the %g b/s link", sum, float64(e.Network.Capacity))
	}
}
