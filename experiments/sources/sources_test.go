package sources

import "testing"

func TestSourceList(t *testing.T) {
	for _, c := range []struct {
		ids  []int
		want string
	}{
		{[]int{2}, "source 2"},
		{[]int{0, 1, 2, 3}, "sources 0-3"},
		{[]int{1, 4, 5, 6}, "sources 1, 4-6"},
		{[]int{0, 2}, "sources 0, 2"},
	} {
		if got := sourceList(c.ids); got != c.want {
			t.Errorf("sourceList(%v) = %q, want %q", c.ids, got, c.want)
		}
	}
}
