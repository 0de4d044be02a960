package reproduce

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"

	"qcnlab/algos"
	"qcnlab/experiments/plots"
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
	return defaultCriteria(s.Criteria, frame)
}

// defaultCriteria are the criteria a claim's stability is judged under: the
// stability package's defaults and queue std above three frames (the
// threshold the built-ins of seed 000 were first judged by), unless the
// claim names its own.
func defaultCriteria(text string, frame float64) ([]stability.Criterion, error) {
	if text == "" {
		text = stability.DefaultCriteria + ",std>" + units.FormatBytes(3*frame)
	}
	return stability.ParseCriteria(text)
}

// bound is what the paper says about where one algorithm's boundary lies,
// as a tolerance on it: near the paper's value, or past a value the paper
// calls stable (above), or before one it calls unstable.
type bound struct {
	alg   string
	text  string // the paper's words
	paper string // the paper's value
	tol   Tol    // on the boundary, in the key's base unit
	// only, if set, limits the statement to the criteria it accepts (an
	// oscillation to the queue-std criteria, an underflow to the empty
	// one).
	only func(c stability.Criterion) bool
}

// oscillation and underflow select criteria by what they see.
func oscillation(c stability.Criterion) bool { return c.Metric == "std" }
func underflow(c stability.Criterion) bool   { return c.Metric == "empty" }

// judgeBoundaries judges the bounds under each criterion searched. A
// criterion under which none of the claim's algorithms turns unstable
// anywhere in the range sees nothing: its statements are not judged
// ("no boundary in range") and it counts for nothing.
func judgeBoundaries(r *stability.Report, bounds ...bound) []CriterionResult {
	var out []CriterionResult
	for _, name := range criteriaOf(r) {
		crit, err := stability.ParseCriteria(name)
		if err != nil {
			continue
		}
		c := crit[0]
		blind := true
		for _, b := range bounds {
			if x := r.Find(b.alg, name); x != nil && x.Boundary != nil {
				blind = false
			}
		}
		cr := CriterionResult{Name: name}
		for _, b := range bounds {
			if b.only != nil && !b.only(c) {
				continue
			}
			res := r.Find(b.alg, name)
			if res == nil {
				continue
			}
			cr.Statements = append(cr.Statements, boundaryStatement(r, c, res, b, blind))
		}
		out = append(out, cr)
	}
	return out
}

// criteriaOf lists the report's criteria in their order.
func criteriaOf(r *stability.Report) []string {
	var cs []string
	for _, b := range r.Results {
		if !slices.Contains(cs, b.Criterion) {
			cs = append(cs, b.Criterion)
		}
	}
	return cs
}

// boundaryStatement judges one bound on one search result.
func boundaryStatement(r *stability.Report, c stability.Criterion, res *stability.Boundary, b bound, blind bool) Statement {
	u := keyUnit(r.Unit)
	lo, hi := r.Range[0], r.Range[1]
	s := Statement{Text: b.alg + ": " + b.text, Paper: b.paper, Tolerance: b.tol.text(u)}
	at := boundaryIval(r, res)
	s.Measured, s.Spread = boundaryText(r, res)
	switch {
	case blind:
		s.Note = fmt.Sprintf("no boundary in range (%s to %s): the criterion sees no instability here, so it counts for nothing", u.format(lo), u.format(hi))
		return s
	case math.IsInf(at.hi, 1) && !math.IsInf(b.tol.Hi, 1) && b.tol.Hi > hi:
		s.Note = "stable over the whole range, which ends inside the tolerance: not judged"
		return s
	}
	s.Holds = boolPtr(b.tol.holdsAll(at.lo, at.hi))
	var frag []string
	if b.tol.flips(at.lo, at.hi, u) {
		frag = append(frag, "a 5% change of the tolerance flips it")
	}
	// The search places the boundary between its last stable value and
	// its first unstable one.
	if res.Bracket[0] != nil && res.Boundary != nil && b.tol.holds(*res.Bracket[0]) != b.tol.holds(*res.Boundary) {
		frag = append(frag, "the search's bracket straddles the tolerance's edge")
	}
	for _, f := range []float64{1 - fragileIf, 1 + fragileIf} {
		x := boundaryAt(res, c, f)
		if b.tol.holdsAll(x.lo, x.hi) != *s.Holds {
			frag = append(frag, fmt.Sprintf("with the criterion's threshold times %g the boundary is %s and the statement flips", f, x.text(u)))
		}
	}
	s.Fragile = strings.Join(frag, "; ")
	if n := notMonotone(r, res, c); n != "" {
		s.Note = n
	}
	return s
}

// boundaryIval is where the boundary lies: the first unstable value; from
// 0 up to the range's start if it is unstable there; past the range's end
// if none.
func boundaryIval(r *stability.Report, res *stability.Boundary) ival {
	switch {
	case res.Boundary == nil:
		return ival{r.Range[1], math.Inf(1)}
	case res.Bracket[0] == nil:
		return ival{0, *res.Boundary}
	}
	return ival{*res.Boundary, *res.Boundary}
}

// boundaryText writes the boundary and the bracket it was found in.
func boundaryText(r *stability.Report, res *stability.Boundary) (measured, spread string) {
	u := keyUnit(r.Unit)
	switch {
	case res.Boundary == nil:
		return "none in range", "stable to " + u.format(r.Range[1])
	case res.Bracket[0] == nil:
		return "≤ " + u.format(*res.Boundary), "unstable from the range's start"
	}
	return u.format(*res.Boundary), "between " + u.format(*res.Bracket[0]) + " (stable) and " + u.format(*res.Boundary)
}

// boundaryAt is where the boundary would lie, from the points the search
// measured, with the criterion's threshold times f.
func boundaryAt(res *stability.Boundary, c stability.Criterion, f float64) ival {
	th := c.Threshold * f
	if criterionMetric(c).Unit == share {
		th = 1 - (1-c.Threshold)*f // a utilization's scale is its shortfall
	}
	for i, p := range res.Points {
		bad := p.Metric < th
		if c.Above {
			bad = p.Metric > th
		}
		if bad {
			if i == 0 {
				return ival{0, p.Value}
			}
			return ival{p.Value, p.Value}
		}
	}
	return ival{math.Inf(1), math.Inf(1)}
}

// notMonotone notes a value judged stable after the boundary.
func notMonotone(r *stability.Report, res *stability.Boundary, c stability.Criterion) string {
	if res.Boundary == nil {
		return ""
	}
	u := keyUnit(r.Unit)
	for _, p := range res.Points {
		if p.Value > *res.Boundary && !p.Unstable {
			return fmt.Sprintf("not monotone: stable again at %s after unstable at %s", u.format(p.Value), u.format(*res.Boundary))
		}
	}
	return ""
}

// keyUnit is how a search key's values read.
func keyUnit(u string) unit {
	switch u {
	case "s":
		return seconds
	case "bytes":
		return kilobyte
	case "bits/s":
		return bps
	}
	return plain
}

// searchNotes says what a search ran.
func searchNotes(r *stability.Report) string {
	seeds := make([]string, len(r.Seeds))
	for i, s := range r.Seeds {
		seeds[i] = fmt.Sprint(s)
	}
	return fmt.Sprintf("the search ran %s (%s; each criterion's metric averaged over the seeds at each value)",
		plural(r.Runs, "run"), plural(len(r.Seeds), "seed")+" "+strings.Join(seeds, ", "))
}

// stateClaim says the paper finds alg stable (or not) at one point.
type stateClaim struct {
	alg, at string
	stable  bool
}

// statesAt judges the paper's stable/unstable statements at points of a
// sweep under each stability criterion, as a search judges a point: the
// criterion's metric averaged over the seeds against its threshold, which
// is the tolerance.
func statesAt(key string, frame float64, claims []stateClaim) Rule {
	return func(ev *Evidence) Outcome {
		rs := ev.Part("")
		var o Outcome
		o.Criterion = "under each criterion, the criterion's metric at the point, averaged over the seeds as the stability search does, against its threshold: below it where the paper says stable, above it where it says not"
		criteria, _ := defaultCriteria("", frame)
		for _, c := range criteria {
			cr := CriterionResult{Name: c.Name}
			for _, sc := range claims {
				v := rs.Of(sc.alg, key+"="+sc.at).collect(criterionMetric(c))
				var t Tol
				switch {
				case c.Above && sc.stable:
					t = atMost(c.Threshold)
				case c.Above:
					t = above(c.Threshold)
				case sc.stable:
					t = atLeast(c.Threshold)
				default:
					t = below(c.Threshold)
				}
				word := "stable"
				if !sc.stable {
					word = "unstable"
				}
				cr.Statements = append(cr.Statements, check(fmt.Sprintf("%s %s at %s", sc.alg, word, sc.at), word, v, t))
			}
			o.Criteria = append(o.Criteria, cr)
		}
		o.Notes = pointTable(rs, key)
		return o
	}
}

// criterionMetric is a stability criterion's metric as a reproduce metric.
func criterionMetric(c stability.Criterion) Metric {
	u := registryUnits[stability.Metrics[c.Metric].Unit]
	if c.PerQEq {
		u = qeq
	}
	if c.Metric == "empty" {
		u = percent
	}
	return Metric{Name: c.Name, Unit: u, Value: func(r *ClaimRun) (float64, bool) {
		x, err := c.Measure(&r.Summary)
		return x, err == nil && !math.IsNaN(x)
	}}
}

// pointTable lists queue mean and std, empty time and utilization of every
// algorithm at every point, the numbers behind the verdicts.
func pointTable(rs Runs, key string) string {
	var rows []string
	for _, alg := range rs.Algorithms() {
		for _, v := range rs.Values(key) {
			at := rs.Of(alg, key+"="+v)
			rows = append(rows, fmt.Sprintf("%s at %s: queue %.1f ± %.1f KB, empty %.1f%%, utilization %.3f",
				alg, v, at.Mean(queueMean)/1e3, at.Mean(queueStd)/1e3, 100*at.Mean(emptyFrac), at.Mean(utilization)))
		}
	}
	return strings.Join(rows, "; ")
}

// renderSearch draws each algorithm's metric under the first criterion
// against the key, with the criterion's threshold and the paper's values
// of the boundaries as vertical lines, in the run figures' style.
func renderSearch(title string, r *stability.Report, marks []mark) ([]byte, error) {
	fig, err := searchFigure(title, r, marks)
	if err != nil {
		return nil, err
	}
	return fig.Render("png")
}

// searchMetrics name the criteria's metrics on a figure's axis.
var searchMetrics = map[string]string{
	"std": "queue std", "mean": "queue mean", "max": "queue max", "min": "queue min",
	"empty": "time queue empty", "util": "utilization", "drops": "drops after warm-up", "jain": "Jain fairness",
	"p5": "queue p5", "p50": "queue p50", "p95": "queue p95", "p99": "queue p99", "swing": "queue swing p5-p95",
}

// searchUnits are the units of the metrics that are no size.
var searchUnits = map[string]string{"empty": "fraction", "util": "fraction", "jain": "index, 0 to 1", "drops": "frames"}

// searchYAxis is the label of a criterion's metric and the factor that
// takes its values into the label's unit: a queue size in the unit its
// largest value reads in, or as a multiple of the measure the threshold
// divides it by.
func searchYAxis(c stability.Criterion, top float64) (string, float64) {
	name := searchMetrics[c.Metric]
	if name == "" {
		name = c.Metric
	}
	name += ", mean over seeds"
	per := map[string]string{"qeq": "Q_EQ", "kmin": "K_min", "kmax": "K_max", "band": "K_max - K_min"}
	switch {
	case c.Per != "":
		return fmt.Sprintf("%s (multiple of %s)", name, per[c.Per]), 1
	case searchUnits[c.Metric] != "":
		return fmt.Sprintf("%s (%s)", name, searchUnits[c.Metric]), 1
	}
	u := unitFor(algos.Bytes, top)
	return fmt.Sprintf("%s (%s)", name, u.name), 1 / u.scale
}

// searchXAxis is the label of a search's key with its unit, and the factor
// that takes its values into that unit.
func searchXAxis(r *stability.Report) (string, float64) {
	kinds := map[string]algos.Kind{"s": algos.Duration, "bytes": algos.Bytes, "bits/s": algos.Rate}
	if k, ok := kinds[r.Unit]; ok {
		u := unitFor(k, math.Max(math.Abs(r.Range[0]), math.Abs(r.Range[1])))
		return fmt.Sprintf("%s (%s)", r.Key, u.name), 1 / u.scale
	}
	if r.Unit == "" {
		return r.Key + " (dimensionless)", 1
	}
	return fmt.Sprintf("%s (%s)", r.Key, r.Unit), 1
}

// searchFigure lays a search's figure out: one panel, its legend beside it.
func searchFigure(title string, r *stability.Report, marks []mark) (*plots.Figure, error) {
	if len(r.Results) == 0 {
		return nil, fmt.Errorf("no results")
	}
	crit := r.Results[0].Criterion
	cs, err := stability.ParseCriteria(crit)
	if err != nil {
		return nil, fmt.Errorf("criterion %s: %w", crit, err)
	}
	c := cs[0]
	top := c.Threshold
	for _, b := range r.Results {
		for _, pt := range b.Points {
			if b.Criterion == crit && !math.IsNaN(pt.Metric) {
				top = math.Max(top, pt.Metric)
			}
		}
	}
	xLabel, xScale := searchXAxis(r)
	yLabel, yScale := searchYAxis(c, top)
	top *= yScale
	p := plots.NewPanel(xLabel, yLabel)
	var key plots.Legend
	k := 0
	for _, b := range r.Results {
		if b.Criterion != crit {
			continue
		}
		var pts plotter.XYs
		for _, pt := range b.Points {
			pts = append(pts, plotter.XY{X: pt.Value * xScale, Y: pt.Metric * yScale})
		}
		sortXY(pts)
		line, points, err := plotter.NewLinePoints(pts)
		if err != nil {
			return nil, err
		}
		line.Color, points.Color = plotutil.Color(k), plotutil.Color(k)
		points.Shape = plotutil.Shape(k)
		p.Add(line, points)
		key.Add(b.Algorithm, line, points)
		k++
	}
	if line, err := plotter.NewLine(plotter.XYs{{X: r.Range[0] * xScale, Y: c.Threshold * yScale}, {X: r.Range[1] * xScale, Y: c.Threshold * yScale}}); err == nil {
		line.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
		p.Add(line)
		key.Add("threshold", line)
	}
	addMarks(p, &key, marks, xScale, top)
	return &plots.Figure{Title: title + ": " + crit, Rows: [][]*plot.Plot{{p}}, Legends: []plots.Legend{key},
		Size: plots.Size{W: 8 * vg.Inch, H: 5 * vg.Inch}}, nil
}

// mark is the paper's value of a boundary, drawn on a search's figure.
type mark struct {
	label string
	at    float64 // in the key's base unit
}

// marksOf lists the paper's values among the bounds (those near a value).
func marksOf(bounds []bound) []mark {
	var ms []mark
	for _, b := range bounds {
		if !math.IsNaN(b.tol.Paper) {
			ms = append(ms, mark{label: "paper: " + b.alg + " " + b.paper, at: b.tol.Paper})
		}
	}
	return ms
}

// addMarks draws vertical dotted lines at the paper's values, named in key.
func addMarks(p *plot.Plot, key *plots.Legend, marks []mark, scale, top float64) {
	for i, m := range marks {
		line, err := plotter.NewLine(plotter.XYs{{X: m.at * scale, Y: 0}, {X: m.at * scale, Y: top}})
		if err != nil {
			continue
		}
		line.Dashes = []vg.Length{vg.Points(1), vg.Points(2)}
		line.Color = plotutil.Color(i)
		line.Width = vg.Points(1.5)
		p.Add(line)
		key.Add(m.label, line)
	}
}

func sortXY(pts plotter.XYs) {
	for i := 1; i < len(pts); i++ {
		for j := i; j > 0 && pts[j].X < pts[j-1].X; j-- {
			pts[j], pts[j-1] = pts[j-1], pts[j]
		}
	}
}
