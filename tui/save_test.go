package tui

import (
	"fmt"
	"os"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"qcnlab/experiments"
)

// Saving onto a symbolic link writes the file it leads to, and the
// question names that file (it named the link only); a yes holds for the
// file it named: a link moved meanwhile is asked about again.
func TestSaveThroughALinkNamesItsTarget(t *testing.T) {
	t.Chdir(t.TempDir())
	os.WriteFile("real.toml", []byte("keep me"), 0o644)
	os.WriteFile("other.toml", []byte("keep me too"), 0o644)
	os.Symlink("real.toml", "link.toml")
	h := newHarness(t, testExperiment(t), 120, 24)
	h.keys("s")
	h.typeText("link.toml")
	h.keys("enter")
	if want := "link.toml is a link to real.toml, which exists: overwrite real.toml? (y/n)"; !h.m.save.confirm || !strings.Contains(h.view(), want) {
		t.Fatalf("no question naming the target %q:\n%s", want, h.view())
	}
	// The link is moved before the yes: the yes was for real.toml.
	os.Remove("link.toml")
	os.Symlink("other.toml", "link.toml")
	h.keys("y")
	if want := "link.toml is a link to other.toml, which exists: overwrite other.toml? (y/n)"; !h.m.save.confirm || !strings.Contains(h.view(), want) {
		t.Fatalf("the moved link was not asked about again:\n%s", h.view())
	}
	for name, want := range map[string]string{"real.toml": "keep me", "other.toml": "keep me too"} {
		if data, _ := os.ReadFile(name); string(data) != want {
			t.Fatalf("%s was overwritten before a yes for it", name)
		}
	}
	h.keys("y")
	if data, _ := os.ReadFile("other.toml"); !strings.Contains(string(data), "qcnlab experiment") {
		t.Error("y did not write the link's target")
	}
	if info, err := os.Lstat("link.toml"); err != nil || info.Mode()&os.ModeSymlink == 0 {
		t.Error("the link was replaced by a file")
	}
	if h.m.focus == focusSave || !strings.Contains(h.view(), "saved other.toml (through the link link.toml)") {
		t.Errorf("status does not name the file written:\n%s", h.view())
	}
}

// A link that leads nowhere is refused in the prompt: the save neither
// replaces the link nor creates the file it points to.
func TestSaveRefusesADanglingLink(t *testing.T) {
	t.Chdir(t.TempDir())
	os.Symlink("nowhere/new.toml", "gone.toml")
	h := newHarness(t, testExperiment(t), 120, 24)
	h.keys("s")
	h.typeText("gone.toml")
	h.keys("enter")
	if h.m.focus != focusSave || h.m.save.confirm || !strings.Contains(h.view(), "gone.toml: is a link to nowhere/new.toml, which does not exist") {
		t.Fatalf("focus %v, confirm %v, error %q", h.m.focus, h.m.save.confirm, h.m.save.err)
	}
	if info, err := os.Lstat("gone.toml"); err != nil || info.Mode()&os.ModeSymlink == 0 {
		t.Error("the link was replaced")
	}
	if _, err := os.Lstat("nowhere"); err == nil {
		t.Error("a file was made through the link")
	}
}

// The save prompt proposes a file in the working folder whatever the
// experiment's name holds; saving there writes it there.
func TestDefaultSavePathStaysInTheWorkingFolder(t *testing.T) {
	for name, want := range map[string]string{
		"qcn-dumbbell":          "./qcn-dumbbell.toml",
		"../../x":               "./x.toml",
		"/etc/passwd":           "./etc_passwd.toml",
		"..":                    "./experiment.toml",
		"":                      "./experiment.toml",
		"a b/c\x1b[2J":          "./a_b_c_2J.toml",
		".hidden":               "./hidden.toml",
		"-rf":                   "./rf.toml",
		"débit 10 Gb/s":         "./débit_10_Gb_s.toml",
		strings.Repeat("é", 99): "./" + strings.Repeat("é", 60) + ".toml",
	} {
		if got := defaultSavePath(name); got != want {
			t.Errorf("defaultSavePath(%q) = %q, want %q", name, got, want)
		}
	}
	wd := t.TempDir()
	t.Chdir(wd)
	os.Mkdir("sub", 0o755)
	t.Chdir("sub")
	e := testExperiment(t)
	e.Name = "../../x"
	h := newHarness(t, e, 120, 24)
	h.keys("s")
	if got := h.m.save.input.Value(); got != "./x.toml" {
		t.Fatalf("proposed %q", got)
	}
	h.keys("enter")
	// The name itself is refused at load (it makes file names); what this
	// checks is where the file went.
	if info, err := os.Lstat("x.toml"); err != nil || !info.Mode().IsRegular() {
		t.Errorf("not saved in the working folder: %v", err)
	}
	if _, err := os.Stat(wd + "/../x.toml"); err == nil {
		t.Error("saved outside the working folder")
	}
}

// Names from the file (the experiment's, its nodes' in the port names, its
// tiers') reach the terminal escaped: in the header, the window title, the
// queue chart's legend and the stats line. An escape sequence in a node's
// name blanked the screen.
func TestNamesAreShownEscaped(t *testing.T) {
	e, err := experiments.Parse("esc.toml", []byte(`
name = "esc\u001b]0;title\u0007"
duration = "2ms"
warmup = "100us"
[network]
topology = "custom"
[[network.node]]
name = "tor\u001b[2J"
kind = "switch"
tier = "t\u001b[31m"
level = 1
[[network.link]]
a = "h0"
b = "tor\u001b[2J"
[[network.link]]
a = "h1"
b = "tor\u001b[2J"
[[network.link]]
a = "h2"
b = "tor\u001b[2J"
[[flows]]
from = 0
to = 2
[[flows]]
from = 1
to = 2
`))
	if err != nil {
		t.Skip("names with control characters are refused at load:", err)
	}
	h := newHarness(t, e, 160, 40)
	h.keys("=") // fastest
	for range 20 {
		h.advance(tick250)
	}
	view := h.view()
	if strings.ContainsAny(view, "\x1b\x07") {
		t.Errorf("raw control characters in the view:\n%q", view)
	}
	for _, want := range []string{`esc\x1b]0;title\x07`, `tor\x1b[2J->h2`, `t\x1b[31m`} {
		if !strings.Contains(view, want) {
			t.Errorf("no %q in\n%s", want, view)
		}
	}
	title := ""
	msgs := []tea.Msg{h.m.Init()()}
	if batch, ok := msgs[0].(tea.BatchMsg); ok {
		msgs = nil
		for _, c := range batch {
			if c != nil {
				msgs = append(msgs, c())
			}
		}
	}
	for _, msg := range msgs {
		if s := fmt.Sprint(msg); strings.HasPrefix(s, "qcnlab ") {
			title = s
		}
	}
	if title != `qcnlab esc\x1b]0;title\x07` {
		t.Errorf("window title %q", title)
	}
}

// The question before overwriting a file says that it is write-protected
// (chmod a-w, as one keeps a file), which a save would replace all the
// same.
func TestSaveOverWriteProtectedSaysSo(t *testing.T) {
	t.Chdir(t.TempDir())
	os.WriteFile("kept.toml", []byte("keep me"), 0o444)
	h := newHarness(t, testExperiment(t), 120, 24)
	h.keys("s")
	h.typeText("kept.toml")
	h.keys("enter")
	if want := "kept.toml exists and is write-protected: overwrite? (y/n)"; !h.m.save.confirm || !strings.Contains(h.view(), want) {
		t.Fatalf("want %q in the view:\n%s", want, h.view())
	}
	h.keys("n")
	if data, _ := os.ReadFile("kept.toml"); string(data) != "keep me" {
		t.Fatal("n overwrote the write-protected file")
	}
}
