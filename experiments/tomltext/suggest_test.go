package tomltext

import (
	"strings"
	"testing"

	"github.com/BurntSushi/toml"
)

// The "did you mean" compares an unknown key only with the known keys
// whose lengths are within its bound: a key of 3.9 MB took 34 s of CPU
// when it was measured against every known key. The cost is counted in
// cells of the edit distance's table, not timed.
func TestSuggestComparesOnlyKeysOfNearLength(t *testing.T) {
	cells := 0
	editDistance = func(a, b string) int { cells += len(a) * len(b); return EditDistance(a, b) }
	defer func() { editDistance = EditDistance }()
	known := []string{"network.capacity", "network.buffer", "sources.count", "duration"}

	if got := Suggest(known, toml.Key{"network", "capacty"}); got != ` (did you mean "network.capacity"?)` {
		t.Errorf("a key one letter short: %q", got)
	}
	if cells == 0 || cells > 4*16*16 {
		t.Errorf("a near key: %d cells compared", cells)
	}
	cells = 0
	if got := Suggest(known, toml.Key{strings.Repeat("a", 500000)}); got != "" || cells != 0 {
		t.Errorf("a key of 500,000 characters: %q after %d cells, want none compared", got, cells)
	}
	if _, ok := Near("network.capacityxxxx", "network.capacity", 4); ok {
		t.Error("Near: 4 letters more is not below 4")
	}
}
