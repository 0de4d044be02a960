package results

import (
	"strings"
	"testing"

	"qcnlab/experiments/batch"
	"qcnlab/model"
)

// "(incomplete: the batch was stopped)" only when it was stopped.
func TestIncompleteSaysWhy(t *testing.T) {
	for _, c := range []struct {
		res  Result
		want string
	}{
		{Result{Complete: false, stopped: true}, "(incomplete: the batch was stopped)"},
		{Result{Complete: false}, "(incomplete: some runs failed, as reported on stderr)"},
		{Result{Complete: true}, ""},
	} {
		var b strings.Builder
		WriteText(&b, &c.res)
		if c.want == "" && strings.Contains(b.String(), "incomplete") || !strings.Contains(b.String(), c.want) {
			t.Errorf("%+v: %q", c.res, b.String())
		}
	}
}

// Beyond 32 sources the text summary summarises the throughputs.
func TestManySourcesSummarised(t *testing.T) {
	var r batch.RunSummary
	for i := range 65536 {
		r.Sources = append(r.Sources, model.SourceSummary{ID: i, ThroughputBps: float64(i)})
	}
	var b strings.Builder
	WriteText(&b, &Result{Complete: true, Runs: []batch.RunSummary{r}})
	if b.Len() > 2000 || !strings.Contains(b.String(), "(65520 more)") || !strings.Contains(b.String(), "of the 65536 sources: min 0") {
		t.Errorf("%d bytes: %.500s", b.Len(), b.String())
	}
}
