package tui

import (
	"bytes"
	"errors"
	"io"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/exp/teatest"

	"qcnlab/model"
)

// slowBuilds makes every build of a run wait until the returned function
// is called (as a large fabric's model.New takes seconds), and counts the
// builds that started.
func slowBuilds(t *testing.T) (release func(), started <-chan string) {
	t.Helper()
	gate, begun := make(chan struct{}), make(chan string, 100)
	saved := newDriverFor
	newDriverFor = func(algo string, cfg model.Config) (*driver, error) {
		begun <- algo
		<-gate
		return saved(algo, cfg)
	}
	closed := false
	release = func() {
		if !closed {
			closed = true
			close(gate)
		}
	}
	t.Cleanup(func() { release(); newDriverFor = saved })
	return release, begun
}

// While a run builds, the screen says so and keys still act: q quits at
// once, without waiting for the build (model.New ran in Update, and q
// waited for it).
func TestQuitDuringABuild(t *testing.T) {
	m := newModel()
	if err := m.start(twoAlgos(t), algorithmBar(twoAlgos(t)), 0); err != nil {
		t.Fatal(err)
	}
	release, started := slowBuilds(t)
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(120, 40))
	tm.Send(tickMsg(epoch))
	tm.Send(keyMsg("c")) // compare mode: both runs anew
	<-started
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool {
		return bytes.Contains(b, []byte("building"))
	}, teatest.WithDuration(5*time.Second))
	tm.Send(keyMsg("q"))
	final := tm.FinalModel(t, teatest.WithFinalTimeout(5*time.Second)).(Model) // a hang, not a measure of speed
	if !final.quitting || final.next != nil {
		t.Errorf("quitting %v, build %v", final.quitting, final.next)
	}
	select {
	case <-final.sess.drivers[0].done:
	default:
		t.Error("quitting left the old run going")
	}
	release()
}

// SIGTERM during a build stops the workbench at once, as it does
// otherwise (it waited ~30 s for nine k = 40 fat-trees).
func TestSignalDuringABuild(t *testing.T) {
	m := newModel()
	if err := m.start(testExperiment(t), algorithmBar(testExperiment(t)), 0); err != nil {
		t.Fatal(err)
	}
	release, started := slowBuilds(t)
	p := tea.NewProgram(m, tea.WithInput(nil), tea.WithOutput(io.Discard), tea.WithoutSignalHandler())
	sig := make(chan os.Signal, 1)
	done := make(chan error, 1)
	var final tea.Model
	go func() {
		var err error
		final, err = runProgram(p, sig)
		done <- err
	}()
	p.Send(keyMsg("r"))
	<-started
	sig <- syscall.SIGTERM
	select {
	case err := <-done:
		if !errors.Is(err, ErrInterrupted) {
			t.Errorf("error %v", err)
		}
	case <-time.After(time.Minute): // a hang, not a measure of speed
		p.Kill()
		t.Fatal("SIGTERM waited for the build")
	}
	if f, ok := final.(Model); ok {
		f.Close()
	}
	release()
}

// A build the user overtook (another algorithm, an edit) is dropped when it
// ends, its runs never started; the newest is shown. Keys during a build
// act on what it builds: two tabs go two algorithms on.
func TestStaleBuildIsDropped(t *testing.T) {
	defer verifyNoLeaks(t)
	e := testExperiment(t, `algorithms=["qcn", "`+gentleQCN+`", "qcn-t"]`)
	h := newHarness(t, e, 120, 40)
	old := h.m.sess
	first := builtIn(deliver(h, keyMsg("r")))
	if h.m.state() != stateBuilding || !strings.Contains(h.view(), "building") {
		t.Fatalf("no building state:\n%s", h.view())
	}
	cmd := deliver(h, keyMsg("tab"))
	cmd2 := deliver(h, keyMsg("tab"))
	if first == nil || first.sess == nil || builtIn(cmd) != nil && builtIn(cmd).sess != nil {
		t.Fatal("the builds did not run as expected")
	}
	deliver(h, *first) // overtaken
	if h.m.sess != old || h.m.state() != stateBuilding {
		t.Fatal("a stale build was shown")
	}
	for _, d := range first.sess.drivers {
		if d.started {
			t.Error("a stale build's run was started")
		}
	}
	last := builtIn(cmd2)
	deliver(h, *last)
	if h.m.sess == old || h.m.bar[h.m.active] != "qcn-t" || h.m.state() != stateRunning {
		t.Errorf("after two tabs: %s, state %v", h.m.bar[h.m.active], h.m.state())
	}
	select {
	case <-old.drivers[0].done:
	default:
		t.Error("the old run goes on")
	}
	h.m.Close()
}

// A build that fails leaves the runs on screen going, and says why.
func TestFailedBuildKeepsTheRun(t *testing.T) {
	h := newHarness(t, twoAlgos(t), 120, 40)
	h.advance(tick250)
	saved := newDriverFor
	defer func() { newDriverFor = saved }()
	newDriverFor = func(algo string, cfg model.Config) (*driver, error) {
		return nil, errors.New(algo + ": no room")
	}
	old, was := h.m.sess, h.m.sess.reached()
	h.keys("tab")
	if h.m.sess != old || h.m.bar[h.m.active] != "qcn" || h.m.state() != stateRunning || !strings.Contains(h.view(), "no room") {
		t.Fatalf("a failed build: active %s, state %v:\n%s", h.m.bar[h.m.active], h.m.state(), h.view())
	}
	h.advance(tick250)
	if h.m.sess.reached() <= was {
		t.Error("the run on screen did not go on")
	}
}
