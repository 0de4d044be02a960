package experiments

import (
	"slices"
	"strings"
	"testing"
)

// The watched flows: output.watch first, by index or hosts, then the
// explicit [[flows]] (the victims of an incast), then the others.
func TestWatchedFlows(t *testing.T) {
	e, err := Builtin("qcn-incast-leaf-spine")
	if err != nil {
		t.Fatal(err)
	}
	f, err := e.Fabric()
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Flows) != 36 || !slices.Equal(f.Watch, []int{32, 33, 34, 35}) {
		t.Errorf("%d flows, watch %v: want the victims 32-35 first", len(f.Flows), f.Watch)
	}
	e.Output.Watch = []any{int64(5), "h52->h3", "20->1"}
	if f, err = e.Fabric(); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(f.Watch, []int{5, 34, 32, 33, 35}) {
		t.Errorf("watch %v", f.Watch)
	}
	for _, c := range []struct {
		w    any
		want string
	}{
		{int64(36), "flow 36 is out of range"},
		{"h1->h2", "no flow from h1 to h2"},
		{"h1", `"h1" is not a flow's index`},
		{1.5, "1.5 is not a flow's index"},
	} {
		e.Output.Watch = []any{c.w}
		if _, err := e.Fabric(); err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "output.watch") {
			t.Errorf("%v: %v, want %q", c.w, err, c.want)
		}
	}
}

// output.watch reads from a file, mixed, and a bad entry names its line.
func TestWatchKeyInAFile(t *testing.T) {
	text := `
[network]
topology = "leaf_spine"
[traffic]
pattern = "permutation"
[output]
watch = [3, "h1->h0"]
[[flows]]
from = 1
to = 0
`
	e, err := Parse("w.toml", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if err := e.Encode(&b); err != nil || !strings.Contains(b.String(), "watch = [3, ") {
		t.Errorf("saved %v:\n%s", err, b.String())
	}
	_, err = Parse("w.toml", []byte(strings.Replace(text, `"h1->h0"`, `"h1->h1"`, 1)))
	if err == nil || !strings.Contains(err.Error(), "w.toml:7: output.watch") {
		t.Errorf("error %v", err)
	}
}
