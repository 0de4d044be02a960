package results

import (
	"strings"
	"testing"

	"qcnlab/experiments/batch"
	"qcnlab/model"
)

// Names a user gave (a port's nodes, a tier, a run's label) reach the
// terminal escaped: an escape sequence in a node's name blanked the
// screen, one in a tier's set the terminal's title.
func TestTextSummaryEscapesNames(t *testing.T) {
	port := model.BottleneckSummary{Name: "tor\x1b[2J->h1", CapacityBps: 1e10, Utilization: 1}
	r := batch.RunSummary{Label: "qcn\x1b]0;title\x07", Summary: model.Summary{
		Algorithm:   "qcn",
		Bottlenecks: []model.BottleneckSummary{port},
		Tiers:       []model.TierSummary{{Tier: "t\x1b]0;pwned\x07 down", Ports: 1}},
		Phases:      []model.PhaseSummary{{End: 1, Bottlenecks: []model.BottleneckSummary{port}}},
	}}
	for _, runs := range [][]batch.RunSummary{{r}, {r, r}} { // one block per run, or per point over seeds
		runs[0].Seed = 1
		var b strings.Builder
		WriteText(&b, &Result{Complete: true, Runs: runs})
		out := b.String()
		if strings.ContainsAny(out, "\x1b\x07") {
			t.Errorf("raw control characters in\n%q", out)
		}
		for _, want := range []string{`tor\x1b[2J->h1`, `tier t\x1b]0;pwned\x07 down`} {
			if !strings.Contains(out, want) {
				t.Errorf("no %q in\n%s", want, out)
			}
		}
	}
}
