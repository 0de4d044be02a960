package reproduce

import (
	"fmt"
	"math"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"

	"qcnlab/experiments/stability"
	"qcnlab/units"
)

// Search asks the stability package where along a key each algorithm of a
// claim's experiment stops being stable (grid, then bisection), under
// several criteria.
type Search struct {
	Key, Range string
	Grid       int
	// Criteria in the stability package's syntax; empty means its defaults
	// (queue std above 20% of the target, queue empty over 1% of the time,
	// utilization below 0.95) and queue std above three frames.
	Criteria string
}

// criteria resolves the search's criteria for frames of the given size.
func (s *Search) criteria(frame float64) ([]stability.Criterion, error) {
	text := s.Criteria
	if text == "" {
		text = stability.DefaultCriteria + ",std>" + units.FormatBytes(3*frame)
	}
	return stability.ParseCriteria(text)
}

// Judge judges a claim from a stability search.
type Judge func(r *stability.Report) Outcome

// placed says where the paper puts an algorithm's boundary: stable at
// stableAt and below, unstable at unstableAt (each optional, in the key's
// text with units).
type placed struct {
	alg, stableAt, unstableAt string
}

// boundaryJudge judges, under each criterion searched, the statements on
// where each algorithm's boundary lies: it is past each value the paper
// calls stable and at or before each it calls unstable.
func boundaryJudge(claims ...placed) Judge {
	return func(r *stability.Report) Outcome {
		var o Outcome
		o.Criterion = "under each criterion, the boundary (first value judged unstable, metric averaged over the seeds; grid then bisection) must lie past every value the paper calls stable and at or before every value it calls unstable"
		criteria := []string{}
		for _, b := range r.Results {
			if !containsString(criteria, b.Criterion) {
				criteria = append(criteria, b.Criterion)
			}
		}
		for _, c := range criteria {
			held, of := 0, 0
			var ms []string
			for _, pc := range claims {
				b := r.Find(pc.alg, c)
				if b == nil {
					continue
				}
				at := math.Inf(1)
				if b.Boundary != nil {
					at = *b.Boundary
				}
				if pc.stableAt != "" {
					of++
					if at > numeric(pc.stableAt) {
						held++
					}
				}
				if pc.unstableAt != "" {
					of++
					if at <= numeric(pc.unstableAt) {
						held++
					}
				}
				ms = append(ms, pc.alg+" "+bracketText(r, b))
			}
			o.Criteria = append(o.Criteria, CriterionResult{Name: c, Verdict: grade(held, of),
				Measured: fmt.Sprintf("%s; %d of %d statements hold", strings.Join(ms, "; "), held, of)})
		}
		o = o.combined()
		var notes []string
		for _, b := range r.Results {
			if b.Note != "" {
				notes = append(notes, b.Algorithm+", "+b.Criterion+": "+b.Note)
			}
		}
		o.Notes = fmt.Sprintf("%d runs, seeds %v, %s; ", r.Runs, r.Seeds, r.Judged) + strings.Join(notes, "; ")
		return o
	}
}

func containsString(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// bracketText says where a boundary lies, in the key's unit.
func bracketText(r *stability.Report, b *stability.Boundary) string {
	f := func(x *float64) string { return formatValue(r.Unit, *x) }
	switch {
	case b.Boundary == nil:
		return "stable over the whole range (to " + formatValue(r.Unit, r.Range[1]) + ")"
	case b.Bracket[0] == nil:
		return "unstable from the range's start " + f(b.Boundary)
	}
	return "unstable from " + f(b.Boundary) + " (stable at " + f(b.Bracket[0]) + ")"
}

func formatValue(unit string, x float64) string {
	switch unit {
	case "s":
		return fmt.Sprintf("%.0fus", x*1e6)
	case "bytes":
		return units.FormatBytes(x)
	case "bits/s":
		return units.FormatRate(x)
	}
	return fmt.Sprintf("%g", x)
}

// renderSearch draws each algorithm's metric under the first criterion
// against the key, with the criterion's threshold.
func renderSearch(title string, r *stability.Report) ([]byte, error) {
	if len(r.Results) == 0 {
		return nil, fmt.Errorf("no results")
	}
	crit := r.Results[0].Criterion
	p := plot.New()
	p.Title.Text = title + ": " + crit
	p.X.Label.Text = r.Key
	p.Y.Label.Text = "metric (mean over seeds)"
	var lines []any
	for _, b := range r.Results {
		if b.Criterion != crit {
			continue
		}
		var pts plotter.XYs
		for _, pt := range b.Points {
			x := pt.Value
			if r.Unit == "s" {
				x *= 1e6
			}
			pts = append(pts, plotter.XY{X: x, Y: pt.Metric})
		}
		sortXY(pts)
		lines = append(lines, b.Algorithm, pts)
	}
	if err := plotutil.AddLinePoints(p, lines...); err != nil {
		return nil, err
	}
	if r.Unit == "s" {
		p.X.Label.Text += " (us)"
	}
	if cs, err := stability.ParseCriteria(crit); err == nil {
		th := cs[0].Threshold
		lo, hi := r.Range[0], r.Range[1]
		if r.Unit == "s" {
			lo, hi = lo*1e6, hi*1e6
		}
		if line, err := plotter.NewLine(plotter.XYs{{X: lo, Y: th}, {X: hi, Y: th}}); err == nil {
			line.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
			p.Add(line)
			p.Legend.Add("threshold", line)
		}
	}
	p.Legend.Top = true
	return png(p)
}

func sortXY(pts plotter.XYs) {
	for i := 1; i < len(pts); i++ {
		for j := i; j > 0 && pts[j].X < pts[j-1].X; j-- {
			pts[j], pts[j-1] = pts[j-1], pts[j]
		}
	}
}
