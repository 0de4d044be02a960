package stats

import (
	"math"
	"testing"
)

func TestOf(t *testing.T) {
	s := Of([]float64{1, 2, 3, math.NaN()})
	if s.N != 3 || s.Mean != 2 || s.Std != 1 || math.Abs(s.CI95-4.302653/math.Sqrt(3)) > 1e-9 {
		t.Errorf("%+v", s)
	}
	if s := Of([]float64{5}); s.N != 1 || s.Mean != 5 || s.Std != 0 || s.CI95 != 0 {
		t.Errorf("one value: %+v", s)
	}
	if s := Of(nil); s.N != 0 || !math.IsNaN(s.Mean) {
		t.Errorf("no value: %+v", s)
	}
}

// Beyond the table, the expansion meets the known quantiles.
func TestT975(t *testing.T) {
	for df, want := range map[int]float64{7: 2.364624, 30: 2.042272, 40: 2.021075, 60: 2.000298, 120: 1.979930, 1000: 1.962339} {
		if got := T975(df); math.Abs(got-want) > 1e-4 {
			t.Errorf("T975(%d) = %.6f, want %.6f", df, got, want)
		}
	}
}
