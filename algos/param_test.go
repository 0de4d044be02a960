package algos

import (
	"math"
	"strings"
	"testing"
)

// An infinite value is refused as NaN is: QCN's w = +Inf was accepted and
// turned its feedback off without a word.
func TestParamRefusesNonFiniteValues(t *testing.T) {
	for _, s := range Names() {
		scheme, err := Lookup(s)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range scheme.Params {
			if p.Kind == Choice || p.Kind == Switch {
				continue
			}
			for _, x := range []float64{math.Inf(1), math.Inf(-1), math.NaN()} {
				if err := p.Validate(x); err == nil {
					t.Errorf("%s.%s = %g accepted", s, p.Key, x)
				}
			}
		}
	}
	qcn, _ := Lookup("qcn")
	w, ok := qcn.Param("w")
	if !ok {
		t.Fatal("qcn has no w")
	}
	if err := w.Validate(math.Inf(1)); err == nil || !strings.Contains(err.Error(), "not a finite number") {
		t.Errorf("qcn.w = +Inf: %v", err)
	}
}
