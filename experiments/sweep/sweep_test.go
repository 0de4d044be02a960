package sweep

import (
	"fmt"
	"testing"
)

// The first axis varies slowest; a scheme's parameter varies its runs only.
func TestPointsCountAndShortKeys(t *testing.T) {
	axes := []Axis{{"network.rtt", []string{`"100us"`, `"200us"`}}, {"params.qcn.w", []string{"2", "4", "8"}}}
	if got := fmt.Sprint(Points(axes)); got != `[[{network.rtt "100us"} {params.qcn.w 2}] [{network.rtt "100us"} {params.qcn.w 4}] [{network.rtt "100us"} {params.qcn.w 8}] [{network.rtt "200us"} {params.qcn.w 2}] [{network.rtt "200us"} {params.qcn.w 4}] [{network.rtt "200us"} {params.qcn.w 8}]]` {
		t.Errorf("points %s", got)
	}
	if n := Count(axes, []string{"qcn", "dcqcn"}); n != 6+2 {
		t.Errorf("%v runs, want 8: qcn at every point, dcqcn at each rtt", n)
	}
	if n := len(PointsFor(axes, "dcqcn")); n != 2 {
		t.Errorf("dcqcn at %d points", n)
	}
	if p, first := Project(axes, Points(axes)[1], "dcqcn"); first || p != nil {
		t.Error("a point that repeats another for dcqcn is not its first")
	}
	if ShortKey(axes, "params.qcn.w") != "w" || ShortKey(append(axes, Axis{Key: "params.qcn-t.w"}), "params.qcn.w") != "qcn.w" {
		t.Error("short keys")
	}
	if got := Label("qcn", Points(axes)[0], func(k string) string { return ShortKey(axes, k) }); got != "qcn rtt=100us w=2" {
		t.Errorf("label %q", got)
	}
}
