package tui

import (
	"strings"
	"testing"

	"qcnlab/experiments"
)

// classesExperiment is a k = 4 fat-tree with two classes under strict
// priority: a permutation in class 0 and an incast into host 0 in class
// 1, lossless under PFC.
func classesExperiment(t *testing.T) *experiments.Experiment {
	t.Helper()
	text := `name = "classes"
algorithms = ["none"]
duration = "5ms"
[network]
topology = "fat_tree"
k = 4
classes = 2
pfc = true
[traffic]
pattern = "permutation"
[[flows]]
from = 4
to = 0
class = 1
[[flows]]
from = 8
to = 0
class = 1
[[flows]]
from = 12
to = 0
class = 1
[output]
watch_ports = 4
`
	e, err := experiments.Parse("classes.toml", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// With several classes the workbench shows each watched port's bytes in
// each class and the classes PFC pauses there, under the charts.
func TestGoldenClasses(t *testing.T) {
	h := newHarness(t, classesExperiment(t), 120, 44)
	for range 2 {
		h.advance(tick250)
	}
	v := h.view()
	for _, want := range []string{"classes (bytes queued", "c0 ", "c1 ", "paused (PFC"} {
		if !strings.Contains(v, want) {
			t.Errorf("view lacks %q:\n%s", want, v)
		}
	}
	requireView(t, h, 120, 44)
}
