package results

import (
	"context"
	"regexp"
	"strings"
	"testing"

	"qcnlab/experiments"
	"qcnlab/experiments/batch"
	"qcnlab/model"
)

// TIMELY at a 64 KB segment on the dumbbell (see the README's transport
// section): three sources send at line rate all run and never hear back.
// The throughputs alone read as if they were slow; the summary says that
// no ACK ever came.
func TestRunTextNamesTheSourcesNeverAcknowledged(t *testing.T) {
	e, err := experiments.OpenWith("qcn-dumbbell", []string{`algorithms=["timely"]`, `transport.ack_every="64KB"`, "duration=30ms", "warmup=10ms"})
	if err != nil {
		t.Fatal(err)
	}
	res, err := Execute(context.Background(), e, Options{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	WriteText(&b, res)
	if !regexp.MustCompile(`never acknowledged +sources 1, 2, 3: nothing delivered, no ACK in the whole run, 4 retransmission timeouts each\n`).MatchString(b.String()) {
		t.Errorf("%s", b.String())
	}

	// Heard from once, or never sent (no timer expired): not listed.
	zero, one, five := int64(0), int64(1), int64(5)
	r := batch.RunSummary{Label: "timely"}
	r.Model = "packet"
	r.Bottlenecks = []model.BottleneckSummary{{Name: "sw0", CapacityBps: 1e10}}
	r.Sources = []model.SourceSummary{
		{ID: 0, ACKs: &one, Timeouts: &five},
		{ID: 1, ACKs: &zero, Timeouts: &zero},
		{ID: 2, ACKs: &zero, Timeouts: &five},
		{ID: 3}, // no transport
	}
	b.Reset()
	WriteText(&b, &Result{Complete: true, Runs: []batch.RunSummary{r}})
	if !regexp.MustCompile(`never acknowledged +source 2: nothing delivered, no ACK in the whole run, 5 retransmission timeouts each\n`).MatchString(b.String()) {
		t.Errorf("%s", b.String())
	}
	r.Sources = r.Sources[:2]
	b.Reset()
	WriteText(&b, &Result{Complete: true, Runs: []batch.RunSummary{r}})
	if strings.Contains(b.String(), "never acknowledged") {
		t.Errorf("%s", b.String())
	}
}
