package experiments

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
)

// manyFlows is a leaf-spine of 64 hosts with n explicit flows written
// inline, about 19 bytes each: 51,370 of them make a file just under 1 MB.
func manyFlows(n int) string {
	var b strings.Builder
	b.WriteString("duration = \"1ms\"\nalgorithms = [\"qcn\"]\nflows = [")
	for i := range n {
		from, to := i%64, (i*7+1)%64
		if from == to {
			to = (to + 1) % 64
		}
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, "{from=%d,to=%d}", from, to)
	}
	b.WriteString("]\n[network]\ntopology = \"leaf_spine\"\nleaves = 4\nspines = 2\nhosts_per_leaf = 16\n")
	return b.String()
}

// What qcnlab saves of a file it accepts loads back, though saving writes
// each flow out as a table of its own (about 2.5 times its bytes).
func TestASavedFileOfManyFlowsLoadsBack(t *testing.T) {
	if testing.Short() {
		t.Skip("loads 51,370 flows twice")
	}
	text := manyFlows(51370)
	if len(text) > 1_000_000 {
		t.Fatalf("the file is %d bytes, over the 1 MB of the case", len(text))
	}
	e, err := Parse("manyflows.toml", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	var saved bytes.Buffer
	if err := e.Encode(&saved); err != nil {
		t.Fatal(err)
	}
	if saved.Len() <= 2*len(text) {
		t.Errorf("saved %d bytes of a %d-byte file: the case no longer grows when saved", saved.Len(), len(text))
	}
	back, err := Parse("experiment.toml", saved.Bytes())
	if err != nil {
		t.Fatalf("the saved experiment (%d bytes) does not load back: %v", saved.Len(), err)
	}
	if len(back.Flows) != 51370 || *back.Flows[51369].From != *e.Flows[51369].From || *back.Flows[51369].To != *e.Flows[51369].To {
		t.Errorf("loaded back %d flows, last %+v, want 51370, last %+v", len(back.Flows), back.Flows[len(back.Flows)-1], e.Flows[51369])
	}
}

// A save that could not be loaded back is refused, and the key that makes
// it large is named where the file set it: here a file of the size Load
// takes, whose description alone fills it, saves larger still.
func TestASaveTooLargeToLoadIsRefused(t *testing.T) {
	desc := strings.Repeat("x", MaxFileBytes-100)
	e, err := Parse("long.toml", []byte("seed = 2\ndescription = \""+desc+"\"\n"))
	if err != nil {
		t.Fatal(err)
	}
	var saved bytes.Buffer
	err = e.Encode(&saved)
	if err == nil {
		t.Fatalf("saved %d bytes, over the %d an experiment file may be", saved.Len(), MaxFileBytes)
	}
	for _, want := range []string{"long.toml:2: description: takes 3999917 of the ", "over the 4000000 (4MB) an experiment file may be", "could not be loaded back"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q, want %q in it", err, want)
		}
	}
	if saved.Len() != 0 {
		t.Errorf("wrote %d bytes of a refused save", saved.Len())
	}
}
