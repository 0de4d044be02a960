package stability

import (
	"context"
	"math"
	"strconv"
	"strings"
	"testing"
)

// fake is a judge from formulas: metric(alg, x) per criterion. It counts
// how often each (algorithm, value) is measured.
type fake struct {
	metric func(alg int, x float64) []float64
	calls  map[request]int
	batch  int
}

func (f *fake) judge(_ context.Context, reqs []request) ([][]float64, error) {
	f.batch++
	out := make([][]float64, len(reqs))
	for i, r := range reqs {
		f.calls[r]++
		out[i] = f.metric(r.alg, r.x)
	}
	return out, nil
}

func search(t *testing.T, algs []string, criteria string, p plan, metric func(int, float64) []float64) ([]Boundary, *fake) {
	t.Helper()
	crit, err := ParseCriteria(criteria)
	if err != nil {
		t.Fatal(err)
	}
	if p.snap == nil {
		p.snap = func(x float64) float64 { return x }
	}
	p.format = fmtG
	f := &fake{metric: metric, calls: map[request]int{}}
	perAlg := make([][]Criterion, len(algs))
	for a := range perAlg {
		perAlg[a] = crit
	}
	s := &searcher{algs: algs, criteria: perAlg, plan: p, judge: f.judge}
	if err := s.run(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	var out []Boundary
	for a := range algs {
		for c := range crit {
			out = append(out, s.boundary(a, c))
		}
	}
	for r, n := range f.calls {
		if n != 1 {
			t.Errorf("%v measured %d times", r, n)
		}
	}
	return out, f
}

func fmtG(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }

// A monotone metric with a known crossing: the boundary is the first
// measured value past it, within the resolution, for each algorithm and
// criterion on its own.
func TestBisectionFindsAKnownBoundary(t *testing.T) {
	// std/qeq = x/100 crosses 0.2 at x = 20 (alg 0) and at 35 (alg 1);
	// utilization 1 - x/400 crosses 0.95 at x = 20 for both.
	got, _ := search(t, []string{"a", "b"}, "std>0.2qeq,util<0.95", plan{lo: 0, hi: 100, grid: 9, resolution: 0.1},
		func(alg int, x float64) []float64 {
			scale := []float64{100, 175}[alg]
			return []float64{x / scale, 1 - x/400}
		})
	want := []float64{20, 20, 35, 20}
	for i, b := range got {
		if b.Boundary == nil || b.Bracket[0] == nil {
			t.Fatalf("%s %s: no bracket: %+v", b.Algorithm, b.Criterion, b)
		}
		lo, hi := *b.Bracket[0], *b.Boundary
		if !(lo <= want[i] && want[i] < hi) || hi-lo > 0.1 {
			t.Errorf("%s %s: bracket [%g, %g], want one of width <= 0.1 around %g", b.Algorithm, b.Criterion, lo, hi, want[i])
		}
		if b.Note != "" {
			t.Errorf("%s %s: note %q on a monotone metric", b.Algorithm, b.Criterion, b.Note)
		}
	}
}

func TestStableOverTheRangeAndUnstableAtTheStart(t *testing.T) {
	got, f := search(t, []string{"calm", "wild"}, "empty>0.01", plan{lo: 10, hi: 50, grid: 5, resolution: 1},
		func(alg int, x float64) []float64 { return []float64{[]float64{0, 0.5}[alg]} })
	if got[0].Boundary != nil || got[0].Bracket != [2]*float64{} || len(got[0].Points) != 5 {
		t.Errorf("stable everywhere: %+v", got[0])
	}
	if got[1].Boundary == nil || *got[1].Boundary != 10 || got[1].Bracket[0] != nil || !strings.Contains(got[1].Note, "start") {
		t.Errorf("unstable everywhere: %+v", got[1])
	}
	if f.batch != 1 {
		t.Errorf("%d batches; nothing to bisect after the grid", f.batch)
	}
}

// A metric that is unstable in a window, then stable again: the first
// boundary is found and the return to stability is reported.
func TestNonMonotoneIsReported(t *testing.T) {
	got, _ := search(t, []string{"a"}, "util<0.95", plan{lo: 0, hi: 80, grid: 9, resolution: 0.5},
		func(_ int, x float64) []float64 {
			if x > 23 && x < 47 {
				return []float64{0.5}
			}
			return []float64{1}
		})
	b := got[0]
	if b.Boundary == nil || *b.Boundary <= 23 || *b.Boundary-*b.Bracket[0] > 0.5 || *b.Bracket[0] > 23 {
		t.Fatalf("boundary %+v, want just above 23", b)
	}
	if !strings.Contains(b.Note, "not monotone: stable again at 50") {
		t.Errorf("note %q", b.Note)
	}
}

// A range given high to low walks downwards: the boundary is where the
// loop, coming from the high end, first turns unstable.
func TestDownwardWalk(t *testing.T) {
	// Small buffers are unstable: util < 0.95 below x = 37.
	got, _ := search(t, []string{"a"}, "util<0.95", plan{lo: 100, hi: 0, grid: 5, resolution: 1},
		func(_ int, x float64) []float64 { return []float64{math.Min(1, 0.5+0.45*x/37)} })
	b := got[0]
	if b.Boundary == nil || *b.Bracket[0] < 37 || *b.Boundary >= 37 || *b.Bracket[0]-*b.Boundary > 1 {
		t.Fatalf("boundary %+v, want a bracket of width <= 1 just below 37", b)
	}
	for i := 1; i < len(b.Points); i++ {
		if b.Points[i].Value >= b.Points[i-1].Value {
			t.Fatalf("points not in walk order: %+v", b.Points)
		}
	}
}

// A whole-number key stops at adjacent values.
func TestWholeNumbersStopAtNeighbours(t *testing.T) {
	got, _ := search(t, []string{"a"}, "jain<0.9", plan{lo: 2, hi: 64, grid: 5, resolution: 1, snap: math.Round},
		func(_ int, x float64) []float64 {
			if x >= 23 {
				return []float64{0.5}
			}
			return []float64{1}
		})
	b := got[0]
	if b.Boundary == nil || *b.Boundary != 23 || *b.Bracket[0] != 22 {
		t.Fatalf("boundary %+v, want 23 after 22", b)
	}
	for _, p := range b.Points {
		if p.Value != math.Round(p.Value) {
			t.Errorf("value %g is not whole", p.Value)
		}
	}
}

// A value where the scheme's setpoint is at or above the buffer is named
// in the note, and its verdict stands (some schemes still act there): the
// metrics here are stable everywhere, so is every verdict.
func TestASetpointOverTheBufferIsNoted(t *testing.T) {
	crit, err := ParseCriteria("std>0.2qeq")
	if err != nil {
		t.Fatal(err)
	}
	f := &fake{metric: func(int, float64) []float64 { return []float64{0.01} }, calls: map[request]int{}}
	s := &searcher{algs: []string{"qcn"}, criteria: [][]Criterion{crit}, judge: f.judge,
		plan: plan{lo: 100, hi: 0, grid: 5, resolution: 0.5, snap: func(x float64) float64 { return x }, format: fmtG},
		overBuffer: func(_ int, x float64) string {
			if x < 30 {
				return "params.qcn.q_eq"
			}
			return ""
		}}
	if err := s.run(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	b := s.boundary(0, 0)
	if b.Boundary != nil {
		t.Errorf("boundary at %g: a value over the buffer's verdict is its metric's", *b.Boundary)
	}
	if want := "params.qcn.q_eq is at or above network.buffer at 25, 0: "; !strings.HasPrefix(b.Note, want) {
		t.Errorf("note %q, want it to start %q", b.Note, want)
	}
}
