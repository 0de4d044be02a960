package experiments

import (
	"strings"
	"testing"

	"qcnlab/algos"
	"qcnlab/units"
)

func TestFitDuration(t *testing.T) {
	e, err := OpenWith("qcn-capacity-drop", []string{"duration=100ms"})
	if err != nil {
		t.Fatal(err)
	}
	if len(e.Output.Phases) != 0 || len(e.Network.Changes) != 0 || len(e.Notes) != 2 {
		t.Errorf("phases %v, changes %v, notes %q", e.Output.Phases, e.Network.Changes, e.Notes)
	}
	// The warm-up keeps its share of the run: 100 ms of 500 ms is 4 ms of 20 ms.
	e, err = OpenWith("ap-n-aimd-2-sources", []string{"duration=20ms"})
	if err != nil {
		t.Fatal(err)
	}
	if *e.Warmup != units.Duration(4*algos.Millisecond) || len(e.Notes) != 1 || !strings.Contains(e.Notes[0], "scaled to 4ms") {
		t.Errorf("warm-up %v, notes %q", *e.Warmup, e.Notes)
	}
	// A longer run, or one whose warm-up still fits, is left alone.
	for _, sets := range [][]string{{"duration=1s"}, {"duration=200ms"}} {
		if e, err := OpenWith("ap-n-aimd-2-sources", sets); err != nil || len(e.Notes) != 0 || *e.Warmup != units.Duration(100*algos.Millisecond) {
			t.Errorf("%v: %v, notes %q", sets, err, e.Notes)
		}
	}
	// What the command line sets itself stays, and its error too.
	if _, err := OpenWith("ap-n-aimd-2-sources", []string{"duration=20ms", "warmup=50ms"}); err == nil {
		t.Error("a warm-up set beyond the duration was accepted")
	}
	if _, err := OpenWith("qcn-capacity-drop", []string{"duration=100ms", "output.phases=[\"150ms\"]"}); err == nil {
		t.Error("a phase set beyond the duration was accepted")
	}
}
