package stability

import (
	"context"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"
)

// request asks for the criteria's metrics of one algorithm at one value.
type request struct {
	alg int
	x   float64
}

// judgeFunc measures a batch of requests: for each, one metric value per
// criterion of its algorithm, in the criteria's order.
type judgeFunc func(ctx context.Context, reqs []request) ([][]float64, error)

// plan is the shape of a search: the range walked from lo to hi (hi may be
// below lo: the search then walks downwards), the coarse grid's points and
// the bracket width at which bisection stops.
type plan struct {
	lo, hi     float64
	grid       int
	resolution float64
	snap       func(float64) float64
	format     func(float64) string // a value for people, in notes
}

// searcher holds what has been measured: per algorithm, the metrics at each
// value judged so far. The brackets are always derived from all of it, so a
// point bisected for one criterion also narrows the others.
type searcher struct {
	algs     []string
	criteria [][]Criterion // per algorithm
	plan     plan
	judge    judgeFunc
	seen     []map[float64][]float64 // [alg][x] -> metrics
	// overBuffer is the key of the algorithm's setpoint when it is at or
	// above the buffer at a value, "" when it is not: the queue cannot
	// pass it and the scheme may send no feedback (QCN's, N-AIMD's and
	// DCQCN's queues then sit at the full buffer, which passes the queue
	// criteria; DSM and DCTCP still act). The boundary's note lists such
	// values; their verdicts stand. nil: none is.
	overBuffer func(alg int, x float64) string
}

// along is x's position on the walk from lo to hi, for ordering points.
func (s *searcher) along(x float64) float64 {
	if s.plan.hi < s.plan.lo {
		return -x
	}
	return x
}

// run measures the grid, then bisects every open bracket at once until each
// is within the resolution or has no representable value inside.
func (s *searcher) run(ctx context.Context, progress func(step int)) error {
	p := s.plan
	s.seen = make([]map[float64][]float64, len(s.algs))
	for a := range s.seen {
		s.seen[a] = map[float64][]float64{}
	}
	var grid []float64
	n := max(2, p.grid)
	for i := 0; i < n; i++ {
		x := p.snap(p.lo + (p.hi-p.lo)*float64(i)/float64(n-1))
		if i == n-1 {
			x = p.hi
		}
		if len(grid) == 0 || x != grid[len(grid)-1] {
			grid = append(grid, x)
		}
	}
	var reqs []request
	for a := range s.algs {
		for _, x := range grid {
			reqs = append(reqs, request{a, x})
		}
	}
	for step := 0; len(reqs) > 0; step++ {
		if progress != nil {
			progress(step)
		}
		metrics, err := s.judge(ctx, reqs)
		if err != nil {
			return err
		}
		for i, r := range reqs {
			s.seen[r.alg][r.x] = metrics[i]
		}
		reqs = s.next()
	}
	return nil
}

// next lists the midpoints of the brackets still wider than the
// resolution, each (algorithm, value) once, in a fixed order.
func (s *searcher) next() []request {
	var reqs []request
	for a := range s.algs {
		want := map[float64]bool{}
		for c := range s.criteria[a] {
			b := s.boundary(a, c)
			if b.Boundary == nil || b.Bracket[0] == nil {
				continue
			}
			lo, hi := *b.Bracket[0], *b.Bracket[1]
			if math.Abs(hi-lo) <= s.plan.resolution {
				continue
			}
			mid := s.plan.snap(lo + (hi-lo)/2)
			if mid == lo || mid == hi {
				continue
			}
			if _, done := s.seen[a][mid]; !done {
				want[mid] = true
			}
		}
		for _, x := range slices.Sorted(maps.Keys(want)) {
			reqs = append(reqs, request{a, x})
		}
	}
	return reqs
}

// boundary reads the criterion's verdicts at every value measured for the
// algorithm, in walk order: the first unstable value is the boundary, the
// value before it the stable end of the bracket.
func (s *searcher) boundary(a, c int) Boundary {
	crit := s.criteria[a][c]
	xs := slices.Collect(maps.Keys(s.seen[a]))
	slices.SortFunc(xs, func(x, y float64) int { return cmpFloat(s.along(x), s.along(y)) })
	b := Boundary{Algorithm: s.algs[a], Criterion: crit.Name}
	first := -1
	var setpoint string
	var over []string // the values where setpoint is at or above the buffer
	for i, x := range xs {
		v := s.seen[a][x][c]
		bad := crit.Unstable(v)
		if s.overBuffer != nil {
			if key := s.overBuffer(a, x); key != "" {
				setpoint, over = key, append(over, s.plan.format(x))
			}
		}
		b.Points = append(b.Points, Point{Value: x, Metric: v, Unstable: bad})
		switch {
		case bad && first < 0:
			first = i
		case !bad && first >= 0 && b.Note == "":
			b.Note = fmt.Sprintf("not monotone: stable again at %s after unstable at %s", s.plan.format(x), s.plan.format(xs[first]))
		}
	}
	if len(over) > 0 {
		note := fmt.Sprintf("%s is at or above network.buffer at %s: the queue cannot pass it, the scheme may send no feedback, and a verdict there may be drop-tail's",
			setpoint, strings.Join(over, ", "))
		if b.Note != "" {
			note = b.Note + "; " + note
		}
		b.Note = note
	}
	if first < 0 {
		return b
	}
	b.Boundary = ptr(xs[first])
	b.Bracket[1] = ptr(xs[first])
	if first > 0 {
		b.Bracket[0] = ptr(xs[first-1])
	} else if b.Note == "" {
		b.Note = "unstable at the start of the range"
	} else {
		b.Note = "unstable at the start of the range; " + b.Note
	}
	return b
}

func ptr(x float64) *float64 { return &x }

func cmpFloat(x, y float64) int {
	switch {
	case x < y:
		return -1
	case x > y:
		return 1
	}
	return 0
}
