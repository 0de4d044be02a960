package tui

import (
	"os"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"qcnlab/algos"
)

// A [sweep] experiment says on screen how many points it has and which one
// runs; ] and [ pick the point; edits keep it; a swept key is not edited
// from under the sweep; s saves the sweep.
func TestSweepPoints(t *testing.T) {
	t.Chdir(t.TempDir())
	e := testExperiment(t, `sweep.network.rtt=["100us", "300us"]`, "sweep.seed=[1, 2]")
	m, err := New(e)
	if err != nil {
		t.Fatal(err)
	}
	m.autoTick = false
	h := harnessFor(t, m, 120, 40)
	v := h.view()
	if !strings.Contains(v, "sweep 1/4: rtt=100us seed=1") || !strings.Contains(v, "a sweep of 4 points") {
		t.Fatalf("the sweep is not on screen:\n%s", v)
	}
	h.keys("]")
	if h.m.run.Seed != 2 || algos.Time(h.m.run.Network.RTT) != 100*algos.Microsecond || !strings.Contains(h.view(), "sweep 2/4: rtt=100us seed=2") {
		t.Errorf("]: point %d, seed %d, rtt %v", h.m.point, h.m.run.Seed, h.m.run.Network.RTT)
	}
	h.send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("]]")})
	if h.m.point != 3 || !strings.Contains(h.view(), "rtt 300us") {
		t.Errorf(`"]]": point %d:\n%s`, h.m.point, h.view())
	}
	h.keys("]")
	if h.m.point != 0 {
		t.Errorf("] past the last point: %d, want 0", h.m.point)
	}
	h.keys("[")
	if h.m.point != 3 {
		t.Errorf("[ before the first point: %d, want 3", h.m.point)
	}
	// The parameter pane shows the values in force at the point.
	h.keys("e")
	for _, r := range h.m.params.rows {
		if r.key == "network.rtt" && r.value != "300us" {
			t.Errorf("pane shows rtt %s at a 300us point", r.value)
		}
	}
	h.keys("esc")
	// A swept key is marked, and enter on it says at once why it is not
	// edited here, without opening the input.
	selectKey(h, "network.rtt")
	if v := h.view(); !strings.Contains(v, "300us (swept)") {
		t.Errorf("the swept key is not marked:\n%s", v)
	}
	h.keys("enter")
	if h.m.params.editing || !strings.Contains(h.m.params.err, "network.rtt is swept") || !strings.Contains(h.view(), "network.rtt is swept") {
		t.Errorf("enter on a swept key: editing %v, %q", h.m.params.editing, h.m.params.err)
	}
	h.keys("down")
	if h.m.params.err != "" {
		t.Errorf("the message stays on another row: %q", h.m.params.err)
	}
	h.keys("esc")
	editKey(h, "network.buffer", "100KB")
	if h.m.params.err != "" || h.m.point != 3 || h.m.run.Network.Buffer != 100e3 {
		t.Errorf("edit: err %q, point %d, buffer %v", h.m.params.err, h.m.point, h.m.run.Network.Buffer)
	}
	h.keys("esc", "esc", "s", "enter")
	data, err := os.ReadFile(e.Name + ".toml")
	if err != nil || !strings.Contains(string(data), "[sweep]") || !strings.Contains(string(data), "300us") {
		t.Errorf("saved without its sweep (%v):\n%s", err, data)
	}
	// Without a sweep: no label, and ] says why it does nothing.
	p := newHarness(t, testExperiment(t), 120, 40)
	p.keys("]")
	if strings.Contains(p.view(), "sweep 1/") || !strings.Contains(p.view(), "no [sweep]") {
		t.Errorf("no sweep:\n%s", p.view())
	}
}

// An axis params.NAME.KEY is NAME's alone: another algorithm walks the
// points of the other axes, its label without the axis; switching keeps
// the point on the axes both have; compare mode walks every point.
func TestSchemeAxisPoints(t *testing.T) {
	e := testExperiment(t, `algorithms=["qcn", "`+gentleQCN+`"]`, `sweep."params.`+gentleQCN+`.w"=[2, 4]`,
		`sweep.network.rtt=["100us", "300us"]`)
	h := newHarness(t, e, 80, 24)
	if len(h.m.points) != 2 || !strings.Contains(h.view(), "sweep 1/2: rtt=100us") || strings.Contains(h.view(), "w=") {
		t.Fatalf("qcn's points: %d\n%s", len(h.m.points), h.view())
	}
	h.keys("]", "2") // qcn at rtt=300us, then the gentle scheme there
	if len(h.m.points) != 4 || !strings.Contains(h.view(), "sweep 2/4: w=2 rtt=300us") {
		t.Errorf("the gentle scheme's points: %d\n%s", len(h.m.points), h.view())
	}
	h.keys("]", "1") // w=4 rtt=100us, then qcn at rtt=100us
	if h.m.point != 0 || !strings.Contains(h.view(), "sweep 1/2: rtt=100us") {
		t.Errorf("back to qcn: point %d\n%s", h.m.point, h.view())
	}
	h.keys("c")
	if len(h.m.points) != 4 || !strings.Contains(h.view(), "w=2 rtt=100us") {
		t.Errorf("compare: %d points\n%s", len(h.m.points), h.view())
	}
}

// At 80 columns the header keeps whole numbers, the sweep point and its
// seed stay readable (on a line of their own when the bar is full), and
// the compare view's cells keep their numbers.
func TestGoldenSweep80(t *testing.T) {
	e := testExperiment(t, `algorithms=["qcn", "`+gentleQCN+`", "qcn-t", "ap-n-aimd", "dsm"]`,
		`sweep."params.`+gentleQCN+`.w"=[2, 4]`, `sweep.network.rtt=["100us", "240us"]`, "sweep.seed=[1, 2, 3]")
	for _, c := range []struct {
		name string
		keys []string
	}{{"single", []string{"]", "2", "]"}}, {"compare", []string{"c"}}} {
		t.Run(c.name, func(t *testing.T) {
			h := newHarness(t, e, 80, 24)
			h.keys(c.keys...)
			for range 8 {
				h.advance(tick250)
			}
			v := h.view()
			if !strings.Contains(v, "seed=") || strings.Contains(v, "10G…") {
				t.Errorf("the seed is lost or a number cut:\n%s", v)
			}
			requireView(t, h, 80, 24)
		})
	}
}
