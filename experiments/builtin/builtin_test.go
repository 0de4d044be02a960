package builtin

import (
	"slices"
	"strings"
	"testing"
)

func TestNamesSourcesAndSuggestions(t *testing.T) {
	names := Names()
	if !slices.Contains(names, Default) || !slices.IsSorted(names) {
		t.Fatalf("names %q: want them sorted, with %s", names, Default)
	}
	for _, name := range names {
		if data, err := Source(name); err != nil || len(data) == 0 {
			t.Errorf("%s: %v", name, err)
		}
	}
	if _, err := Source("qcn-dumbel"); err == nil || !strings.Contains(err.Error(), `did you mean "qcn-dumbbell"?`) {
		t.Errorf("a misspelt name: %v", err)
	}
}
