package tui

import (
	"os"
	"strings"
	"syscall"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"qcnlab/experiments"
)

// openLines is the open prompt's list of matches as shown.
func openMatches(h *harness) []string {
	var out []string
	for _, m := range h.m.opener.matches {
		out = append(out, m.text)
	}
	return out
}

// The open prompt starts on the current folder and lists its .toml files,
// folders and the built-in names; letters are text (q does not quit), and
// tab completes a built-in name, which enter opens.
func TestOpenPromptCompletes(t *testing.T) {
	t.Chdir(t.TempDir())
	os.WriteFile("mine.toml", []byte("name = \"mine\"\n"), 0o644)
	os.WriteFile("notes.txt", []byte("not an experiment"), 0o644)
	os.Mkdir("sub", 0o755)
	os.WriteFile("sub/deep.toml", []byte("name = \"deep\"\n"), 0o644)
	h := newHarness(t, testExperiment(t), 120, 40)
	h.keys("o")
	if got := h.m.opener.input.Value(); got != "./" {
		t.Errorf("prefilled with %q, want ./", got)
	}
	m := strings.Join(openMatches(h), " ")
	if !strings.HasPrefix(m, "./mine.toml qcn-dumbbell") && !strings.Contains(m, "./mine.toml") || !strings.Contains(m, "./sub/") ||
		!strings.Contains(m, "qcn-t-fairness") || strings.Contains(m, "notes.txt") {
		t.Errorf("matches %q", m)
	}
	if v := h.view(); !strings.Contains(v, "open: ./") || !strings.Contains(v, "./mine.toml") || !strings.Contains(v, "(built-in)") {
		t.Errorf("prompt:\n%s", v)
	}
	// Into the folder: tab completes s to ./sub/ and lists it.
	h.keys("s", "tab")
	if got := h.m.opener.input.Value(); got != "./sub/" || strings.Join(openMatches(h), " ") != "./sub/deep.toml" {
		t.Errorf("after s, tab: %q lists %q", got, openMatches(h))
	}
	// A built-in by name; q is text.
	h.keys("ctrl+u")
	h.typeText("qcn-t-f")
	h.keys("tab")
	if got := h.m.opener.input.Value(); got != "qcn-t-fairness" || h.quit {
		t.Fatalf("completed to %q (quit %v)", got, h.quit)
	}
	h.keys("enter")
	if h.m.focus != focusCharts || h.m.exp.Name != "qcn-t-fairness" {
		t.Errorf("built-in not opened: focus %v, %s (%s)", h.m.focus, h.m.exp.Name, h.m.opener.err)
	}
}

// A file that vanishes between the listing and its use gives an error in
// place, not a crash; the next tab lists the folder as it is now.
func TestOpenFileVanishes(t *testing.T) {
	t.Chdir(t.TempDir())
	os.WriteFile("a.toml", []byte("name = \"a\"\n"), 0o644)
	os.WriteFile("b.toml", []byte("name = \"b\"\n"), 0o644)
	h := newHarness(t, testExperiment(t), 120, 40)
	exp := h.m.exp
	h.keys("o")
	os.Remove("b.toml")
	h.keys("down", "down") // ./b.toml, as listed
	h.view()
	h.keys("enter")
	if h.m.exp != exp || h.m.focus != focusOpen || !strings.Contains(h.view(), "no such file") {
		t.Errorf("vanished file: focus %v, err %q", h.m.focus, h.m.opener.err)
	}
	if got := strings.Join(openMatches(h), " "); strings.Contains(got, "b.toml") {
		t.Errorf("the failed open did not relist: %q", got)
	}
	// tab on a stale highlighted match lists the folder as it is now.
	os.WriteFile("c.toml", []byte("name = \"c\"\n"), 0o644)
	h.typeText("./")
	h.keys("down", "down", "tab") // ./c.toml, as listed
	os.Remove("c.toml")
	h.keys("ctrl+u")
	h.typeText("./")
	h.keys("tab")
	if got := strings.Join(openMatches(h), " "); strings.Contains(got, "b.toml") || strings.Contains(got, "c.toml") || !strings.Contains(got, "./a.toml") {
		t.Errorf("relisted %q", got)
	}
	// The folder itself vanishes.
	dir := t.TempDir()
	os.WriteFile(dir+"/c.toml", nil, 0o644)
	h.typeText(dir + "/")
	os.RemoveAll(dir)
	h.keys("tab", "down", "enter")
	if h.m.focus != focusOpen || h.m.opener.note == "" && h.m.opener.err == "" {
		t.Errorf("vanished folder: note %q err %q", h.m.opener.note, h.m.opener.err)
	}
}

// Folders that cannot be listed (a file, a missing folder) say why; /proc,
// whose entries come and go, lists without trouble.
func TestOpenUnlistable(t *testing.T) {
	t.Chdir(t.TempDir())
	os.WriteFile("a.toml", []byte("name = \"a\"\n"), 0o644)
	h := newHarness(t, testExperiment(t), 120, 40)
	h.keys("o")
	for _, c := range []struct{ typed, want string }{
		{"./a.toml/", "cannot list ./a.toml/: not a directory"},
		{"./nowhere/x", "cannot list ./nowhere/: no such file or directory"},
	} {
		h.typeText(c.typed)
		if v := h.view(); !strings.Contains(v, c.want) {
			t.Errorf("%s: want %q in\n%s", c.typed, c.want, v)
		}
		h.keys("enter")
		if h.m.focus != focusOpen || h.m.opener.err == "" {
			t.Errorf("%s: enter gave no error", c.typed)
		}
	}
	if _, err := os.Stat("/proc/self"); err == nil {
		h.typeText("/proc/")
		h.keys("tab", "down", "tab", "tab", "enter")
		h.typeText("/proc/self/")
		h.keys("tab", "down", "down", "enter")
		checkSize(t, h.view(), 120, 40)
	}
	h.keys("esc")
	if h.m.focus != focusCharts {
		t.Error("esc did not close the prompt")
	}
}

// ~/ is the home folder in the open and save prompts, as in a shell.
func TestPromptsExpandHome(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Chdir(t.TempDir())
	h := newHarness(t, testExperiment(t), 120, 40)
	h.keys("s")
	h.typeText("~/saved.toml")
	h.keys("enter")
	if _, err := os.Stat(home + "/saved.toml"); err != nil || h.m.focus != focusCharts {
		t.Fatalf("save to ~/: %v (%s)", err, h.m.save.err)
	}
	h.keys("o")
	h.typeText("~/sa")
	h.keys("tab")
	if got := h.m.opener.input.Value(); got != "~/saved.toml" {
		t.Errorf("tab completed ~/sa to %q", got)
	}
	h.keys("enter")
	if h.m.focus != focusCharts || h.m.opener.err != "" {
		t.Errorf("open ~/saved.toml: %q", h.m.opener.err)
	}
}

// Opening a FIFO does not freeze the screen: Update hands the load to a
// tea.Cmd and returns; the screen goes on while no one writes to the pipe,
// and once someone does, the experiment opens.
func TestOpenAFIFODoesNotBlockUpdate(t *testing.T) {
	t.Chdir(t.TempDir())
	if err := syscall.Mkfifo("pipe.toml", 0o644); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	h := newHarness(t, testExperiment(t), 120, 40)
	h.keys("o")
	h.typeText("pipe.toml")
	var load tea.Cmd
	updated := make(chan struct{})
	go func() {
		defer close(updated)
		step := func(msg tea.Msg) tea.Cmd {
			next, cmd := h.m.Update(msg)
			h.m = next.(Model)
			return cmd
		}
		stat := step(keyMsg("enter")) // is pipe.toml a folder?
		open := step(stat())          // no: the prompt's openMsg,
		load = step(open())           // which the root turns into the load
	}()
	select {
	case <-updated:
	case <-time.After(10 * time.Second):
		t.Fatal("Update blocked on a FIFO no one writes to")
	}
	if load == nil || h.m.focus != focusOpen || !strings.Contains(h.view(), "opening pipe.toml") {
		t.Fatalf("no load under way: focus %v\n%s", h.m.focus, h.view())
	}
	loaded := make(chan tea.Msg, 1)
	go func() { loaded <- load() }()
	h.advance(tick250) // the screen goes on meanwhile
	if err := os.WriteFile("pipe.toml", []byte("name = \"piped\"\nduration = \"20ms\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	h.send(<-loaded)
	if h.m.focus != focusCharts || h.m.exp.Name != "piped" {
		t.Errorf("after the write: focus %v, experiment %q, error %q", h.m.focus, h.m.exp.Name, h.m.opener.err)
	}
}

// A setpoint at or above the buffer is said on the status line when the
// workbench starts on such an experiment and when one is opened, as an
// edit says it: on the command line the warning went to stderr, under the
// workbench's screen, and opening a file said only "opened h.toml".
func TestSetpointAboveBufferOnOpen(t *testing.T) {
	t.Chdir(t.TempDir())
	const warning = "params.qcn.q_eq = 33KB is at or above network.buffer = 20KB"
	e, err := experiments.OpenWith("qcn-dumbbell", []string{"network.buffer=20KB", "duration=20ms", "warmup=4ms"})
	if err != nil {
		t.Fatal(err)
	}
	m, err := New(e)
	if err != nil {
		t.Fatal(err)
	}
	m.autoTick = false
	h := harnessFor(t, m, 120, 40)
	if v := h.view(); !strings.Contains(v, warning) {
		t.Errorf("no warning at start (status %q):\n%s", h.m.status, v)
	}
	if err := e.Save("h.toml"); err != nil {
		t.Fatal(err)
	}
	h = newHarness(t, testExperiment(t), 120, 40)
	h.advance(tick250)
	h.keys("o")
	h.typeText("h.toml")
	h.keys("enter")
	if h.m.exp.Name != e.Name || h.m.focus != focusCharts {
		t.Fatalf("not opened: %s (%s)", h.m.exp.Name, h.m.opener.err)
	}
	if v := h.view(); !strings.Contains(v, "opened h.toml; "+warning) {
		t.Errorf("no warning on open (status %q):\n%s", h.m.status, v)
	}
}

// tab with several matches completes to their longest common start, as a
// shell does, whatever the folder typed before the name ("./qcn" made
// nothing, the built-ins' names having no "./"); enter on a typed name that
// is no file opens a built-in of that exact name, and otherwise says what
// matches rather than open the text typed or guess.
func TestOpenPromptCompletesSeveralMatches(t *testing.T) {
	t.Chdir(t.TempDir())
	os.WriteFile("run-a1.toml", []byte("name = \"a1\"\n"), 0o644)
	os.WriteFile("run-a2.toml", []byte("name = \"a2\"\n"), 0o644)
	h := newHarness(t, testExperiment(t), 120, 40)
	exp := h.m.exp
	h.keys("o")
	for _, c := range []struct{ typed, want string }{
		{"./ru", "./run-a"},  // two files
		{"./qcn", "qcn-"},    // built-ins only: their bare names
		{"./qcn-c", "qcn-c"}, // qcn-capacity-drop, qcn-convergence-model
		{"qcn-t-f", "qcn-t-fairness"},
	} {
		h.typeText(c.typed)
		h.keys("tab")
		if got := h.m.opener.input.Value(); got != c.want {
			t.Errorf("%q, tab: %q, want %q", c.typed, got, c.want)
		}
		if len(h.m.opener.matches) < 1 {
			t.Errorf("%q, tab: no matches listed", c.typed)
		}
	}
	h.typeText("./qcn-d")
	h.keys("enter")
	if h.m.exp != exp || h.m.focus != focusOpen || !strings.Contains(h.m.opener.err, "./qcn-d does not exist: tab completes it to qcn-dumbbell") {
		t.Errorf("enter on ./qcn-d: %s opened, focus %v, err %q", h.m.exp.Name, h.m.focus, h.m.opener.err)
	}
	h.typeText("./run-a")
	h.keys("enter")
	if h.m.exp != exp || !strings.Contains(h.m.opener.err, "./run-a does not exist: 2 names start so") {
		t.Errorf("enter on ./run-a: %s opened, err %q", h.m.exp.Name, h.m.opener.err)
	}
	// A built-in's exact name beside a file that starts so: which one?
	os.WriteFile("qcn-dumbbell.toml", []byte("name = \"mine\"\n"), 0o644)
	h.typeText("./qcn-dumbbell")
	h.keys("enter")
	if h.m.exp != exp || !strings.Contains(h.m.opener.err, "./qcn-dumbbell does not exist: 2 names start so") {
		t.Errorf("enter on ./qcn-dumbbell beside ./qcn-dumbbell.toml: %s opened, err %q", h.m.exp.Name, h.m.opener.err)
	}
	os.Remove("qcn-dumbbell.toml")
	h.typeText("./qcn-dumbbell")
	h.keys("enter")
	if h.m.exp.Name != "qcn-dumbbell" || h.m.focus != focusCharts {
		t.Errorf("enter on ./qcn-dumbbell: %s opened, focus %v, err %q", h.m.exp.Name, h.m.focus, h.m.opener.err)
	}
}
