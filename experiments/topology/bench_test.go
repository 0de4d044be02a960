package topology

import (
	"slices"
	"testing"
)

// qcnlab bench measures the topologies that say how, and only those.
func TestBenchmarksAreTheTopologiesThatSayHow(t *testing.T) {
	if got, want := Benchmarks(), []string{"dumbbell", "fat_tree"}; !slices.Equal(got, want) {
		t.Errorf("benchmarks %q, want %q", got, want)
	}
	for _, name := range Names() {
		b, ok := BenchOf(name)
		if ok != slices.Contains(Benchmarks(), name) {
			t.Errorf("%s: BenchOf says %v", name, ok)
		}
		if ok && (b.Description == "" || b.Duration <= 0) {
			t.Errorf("%s: a benchmark needs a description and a duration: %+v", name, b)
		}
	}
	n := Network{Topology: "fat_tree"}
	b, _ := BenchOf("fat_tree")
	b.Size(&n)
	if k := fatTreeOwn.Of(n).K; k == nil || *k != 8 {
		t.Errorf("the fat-tree's benchmark is k = 8, got %v", k)
	}
}
