package reproduce

import (
	"fmt"
	"math"
	"strings"
)

// Statement is one checkable sentence of a claim: the paper's words, the
// paper's value (if it gives one), what was measured (the mean over the
// seeds, and their spread), the tolerance the measurement is held to, and
// whether it holds. A statement that cannot be judged (a stability
// criterion that finds no boundary anywhere in the range) has Holds null
// and counts neither for nor against the claim.
type Statement struct {
	Text      string `json:"text"`
	Paper     string `json:"paper"`     // the paper's value; "" where it gives none (a direction)
	Measured  string `json:"measured"`  // mean over the seeds (or the one value)
	Spread    string `json:"spread"`    // min-max over the seeds; "" for one value
	Tolerance string `json:"tolerance"` // what the measurement must satisfy
	Holds     *bool  `json:"holds"`
	// NeverFair counts the runs that never became fair, on every
	// statement about a time to fairness: such a run has no time and
	// never counts as fair within any number of seconds.
	NeverFair *int `json:"never_fair,omitempty"`
	// Fragile says what flips the statement: seeds that disagree with it,
	// or a 5% change of its tolerance or of the criterion's threshold.
	Fragile string `json:"fragile,omitempty"`
	Note    string `json:"note,omitempty"`
}

// counts says whether the statement is judged at all.
func (s Statement) counts() bool { return s.Holds != nil }

func (s Statement) holds() bool { return s.Holds != nil && *s.Holds }

func boolPtr(b bool) *bool { return &b }

// fragileIf is the tolerance's relative change under which a statement
// that flips counts as fragile.
const fragileIf = 0.05

// Tol is what a measured value must satisfy: a value in [Lo, Hi] (an end
// open where LoOpen or HiOpen says so). Where the paper gives a number the
// interval is around it on both sides (Rel says by how much, relative);
// where it gives a direction only, one end is infinite.
type Tol struct {
	Lo, Hi         float64
	LoOpen, HiOpen bool
	Paper          float64 // the paper's value the interval is around; NaN for none
	Rel            float64 // relative half-width around Paper; 0 if not so made
}

// near is the paper's value p with a relative tolerance rel on both sides.
func near(p, rel float64) Tol {
	return Tol{Lo: p * (1 - rel), Hi: p * (1 + rel), Paper: p, Rel: rel}
}

func atLeast(x float64) Tol { return Tol{Lo: x, Hi: math.Inf(1), Paper: math.NaN()} }
func atMost(x float64) Tol  { return Tol{Lo: math.Inf(-1), Hi: x, Paper: math.NaN()} }
func above(x float64) Tol   { return Tol{Lo: x, Hi: math.Inf(1), LoOpen: true, Paper: math.NaN()} }
func below(x float64) Tol   { return Tol{Lo: math.Inf(-1), Hi: x, HiOpen: true, Paper: math.NaN()} }

// holds says whether x satisfies the tolerance; NaN never does.
func (t Tol) holds(x float64) bool {
	if math.IsNaN(x) {
		return false
	}
	lo := x > t.Lo || (!t.LoOpen && x == t.Lo)
	hi := x < t.Hi || (!t.HiOpen && x == t.Hi)
	return lo && hi
}

// holdsAll says whether every value of [lo, hi] satisfies the tolerance:
// a measurement known only to lie in an interval (a mean with runs that
// never became fair) holds only if all of it does.
func (t Tol) holdsAll(lo, hi float64) bool { return t.holds(lo) && t.holds(hi) }

// scaled moves each finite end of the tolerance by the factor f, away
// from (f > 1) or toward (f < 1) zero; for a share (a utilization, whose
// scale is its shortfall from 1) it scales the distance from 1 instead.
func (t Tol) scaled(f float64, u unit) Tol {
	s := t
	move := func(x float64) float64 {
		if u == share {
			return 1 - (1-x)*f
		}
		return x * f
	}
	if !math.IsInf(t.Lo, 0) {
		s.Lo = move(t.Lo)
	}
	if !math.IsInf(t.Hi, 0) {
		s.Hi = move(t.Hi)
	}
	return s
}

// flips says whether the judgement of [lo, hi] changes when the
// tolerance's ends move by fragileIf, either way.
func (t Tol) flips(lo, hi float64, u unit) bool {
	h := t.holdsAll(lo, hi)
	for _, f := range []float64{1 - fragileIf, 1 + fragileIf} {
		if t.scaled(f, u).holdsAll(lo, hi) != h {
			return true
		}
	}
	return false
}

// text writes the tolerance with the unit's format.
func (t Tol) text(u unit) string {
	var s string
	switch {
	case math.IsInf(t.Lo, -1) && math.IsInf(t.Hi, 1):
		return "any"
	case math.IsInf(t.Hi, 1):
		s = map[bool]string{false: "≥ ", true: "> "}[t.LoOpen] + u.format(t.Lo)
	case math.IsInf(t.Lo, -1):
		s = map[bool]string{false: "≤ ", true: "< "}[t.HiOpen] + u.format(t.Hi)
	default:
		open := map[bool]string{false: "[", true: "("}[t.LoOpen]
		shut := map[bool]string{false: "]", true: ")"}[t.HiOpen]
		s = open + u.format(t.Lo) + ", " + u.format(t.Hi) + shut
	}
	if t.Rel > 0 {
		s += fmt.Sprintf(" (%s ± %g%%)", u.format(t.Paper), 100*t.Rel)
	}
	return s
}

// unit formats a measured quantity for people.
type unit string

const (
	seconds   unit = "s"                // a duration, in the unit that reads best
	kilobyte  unit = "KB"               // a queue, in KB
	ratio     unit = "ratio"            // a plain ratio, two decimals
	share     unit = "share"            // a utilization, three decimals
	shareDiff unit = "share difference" // a difference of utilizations
	percent   unit = "%"                // a fraction written as a percentage
	bps       unit = "bps"              // a rate
	count     unit = "count"            // a whole number
	qeq       unit = "qeq"              // a multiple of the scheme's queue target
	plain     unit = ""                 // three significant digits
)

func (u unit) format(x float64) string {
	switch {
	case math.IsNaN(x):
		return "none"
	case math.IsInf(x, 1):
		return "∞"
	case math.IsInf(x, -1):
		return "-∞"
	}
	switch u {
	case seconds:
		return readableDuration(x)
	case kilobyte:
		return noNegativeZero(fmt.Sprintf("%.1f KB", x/1e3))
	case ratio:
		return fmt.Sprintf("%.2f", x)
	case share, shareDiff:
		return noNegativeZero(fmt.Sprintf("%.3f", x))
	case percent:
		return noNegativeZero(fmt.Sprintf("%.2f%%", 100*x))
	case bps:
		return readableRate(x)
	case count:
		return fmt.Sprintf("%.0f", x)
	case qeq:
		return fmt.Sprintf("%.2f Q_EQ", x)
	}
	return fmt.Sprintf("%.3g", x)
}

// noNegativeZero drops the sign of a value that rounds to zero.
func noNegativeZero(s string) string {
	if strings.HasPrefix(s, "-") && strings.Trim(s[1:], "0.%KB ") == "" {
		return s[1:]
	}
	return s
}

// readableDuration writes seconds in s, ms or us with three significant
// digits: 504.6875e-6 is "505 us", 13.458 is "13.5 s".
func readableDuration(x float64) string {
	a := math.Abs(x)
	switch {
	case a == 0:
		return "0 s"
	case a >= 1:
		return sig3(x) + " s"
	case a >= 1e-3:
		return sig3(x*1e3) + " ms"
	case a >= 1e-6:
		return sig3(x*1e6) + " us"
	}
	return sig3(x*1e9) + " ns"
}

func readableRate(x float64) string {
	a := math.Abs(x)
	switch {
	case a >= 1e9:
		return sig3(x/1e9) + " Gbps"
	case a >= 1e6:
		return sig3(x/1e6) + " Mbps"
	case a >= 1e3:
		return sig3(x/1e3) + " Kbps"
	}
	return sig3(x) + " bps"
}

// sig3 writes x with three significant digits, no exponent, no trailing
// zeros past the point: 504.6875 is "505", 13.458 "13.5", 0.1 "0.1".
func sig3(x float64) string {
	if x == 0 {
		return "0"
	}
	d := 2 - int(math.Floor(math.Log10(math.Abs(x))))
	if d < 0 {
		p := math.Pow(10, float64(-d))
		return fmt.Sprintf("%.0f", math.Round(x/p)*p)
	}
	s := fmt.Sprintf("%.*f", d, x)
	if strings.Contains(s, ".") {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	return s
}

// plural writes "1 run", "2 runs".
func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// joinNonEmpty joins the non-empty parts: no dangling separators.
func joinNonEmpty(sep string, parts ...string) string {
	var kept []string
	for _, p := range parts {
		if strings.TrimSpace(p) != "" {
			kept = append(kept, p)
		}
	}
	return strings.Join(kept, sep)
}

// ival is a value known to lie in [lo, hi]: a measurement (lo = hi), a
// time to fairness of a run that never became fair (its length to
// infinity), or nothing (NaN).
type ival struct{ lo, hi float64 }

func (x ival) exact() bool { return x.lo == x.hi }

// text writes the interval: a value, "≥ x", "≤ x" or "x to y".
func (x ival) text(u unit) string {
	switch {
	case math.IsNaN(x.lo) || math.IsNaN(x.hi):
		return "none"
	case x.exact():
		return u.format(x.lo)
	case math.IsInf(x.hi, 1) && x.lo == 0:
		return "undetermined"
	case math.IsInf(x.hi, 1):
		return "≥ " + u.format(x.lo)
	case math.IsInf(x.lo, -1) || x.lo == 0:
		return "≤ " + u.format(x.hi)
	}
	return u.format(x.lo) + " to " + u.format(x.hi)
}

// ratioOf is a/b for non-negative intervals.
func ratioOf(a, b ival) ival { return ival{a.lo / b.hi, a.hi / b.lo} }

// diffOf is a - b.
func diffOf(a, b ival) ival { return ival{a.lo - b.hi, a.hi - b.lo} }

// absDiffOf is |a - b| for exact values (the one use: two means).
func absDiffOf(a, b ival) ival {
	d := diffOf(a, b)
	if d.lo <= 0 && d.hi >= 0 {
		return ival{0, math.Max(-d.lo, d.hi)}
	}
	if d.hi < 0 {
		return ival{-d.hi, -d.lo}
	}
	return d
}

// vals is a quantity measured on each run of a group (one per seed): an
// exact value, or for a time to fairness of a run that never became fair,
// [the run's length, infinity).
type vals struct {
	unit  unit
	ttf   bool
	xs    []ival
	seeds []uint64
}

// collect reads a metric from every run. A run without the value is an
// interval from the run's length up for a time to fairness (it never
// became fair), else nothing.
func (rs Runs) collect(m Metric) vals {
	v := vals{unit: m.Unit, ttf: m.TTF}
	for i := range rs {
		r := &rs[i]
		x, ok := m.Value(r)
		switch {
		case ok:
			v.xs = append(v.xs, ival{x, x})
		case m.TTF:
			v.xs = append(v.xs, ival{r.SimSeconds, math.Inf(1)})
		default:
			v.xs = append(v.xs, ival{math.NaN(), math.NaN()})
		}
		v.seeds = append(v.seeds, r.Seed)
	}
	return v
}

// one is a single value as vals: a quantity measured once (a boundary, a
// model's number).
func one(u unit, x float64) vals { return vals{unit: u, xs: []ival{{x, x}}} }

// mean is the interval of the mean over the runs; NaN for no runs.
func (v vals) mean() ival {
	if len(v.xs) == 0 {
		return ival{math.NaN(), math.NaN()}
	}
	var m ival
	for _, x := range v.xs {
		m.lo += x.lo
		m.hi += x.hi
	}
	n := float64(len(v.xs))
	return ival{m.lo / n, m.hi / n}
}

// never counts the runs that never became fair.
func (v vals) never() int {
	n := 0
	for _, x := range v.xs {
		if math.IsInf(x.hi, 1) && !math.IsInf(x.lo, 1) {
			n++
		}
	}
	return n
}

// fairMean is the mean over the runs that have a value.
func (v vals) fairMean() (float64, int) {
	s, n := 0.0, 0
	for _, x := range v.xs {
		if x.exact() && !math.IsNaN(x.lo) {
			s += x.lo
			n++
		}
	}
	return s / float64(n), n
}

// spread writes min-max over the runs: their exact values, and how many
// have none.
func (v vals) spread() string {
	if len(v.xs) < 2 {
		return ""
	}
	lo, hi, n := math.Inf(1), math.Inf(-1), 0
	for _, x := range v.xs {
		if x.exact() && !math.IsNaN(x.lo) {
			lo, hi, n = math.Min(lo, x.lo), math.Max(hi, x.lo), n+1
		}
	}
	s := plural(len(v.xs), v.runWord())
	switch {
	case n == 0:
		return s + ", none with a value"
	case lo == hi:
		s = v.unit.format(lo) + " on " + s
	default:
		s = v.unit.format(lo) + " to " + v.unit.format(hi) + " over " + s
	}
	if k := len(v.xs) - n; k > 0 && v.ttf {
		s += fmt.Sprintf(" (%d never fair)", k)
	} else if k > 0 {
		s += fmt.Sprintf(" (%d without a value)", k)
	}
	return s
}

// runWord calls the runs seeds when each has its own, runs otherwise (a
// model that draws no random numbers, run at several settings it ignores).
func (v vals) runWord() string {
	seen := map[uint64]bool{}
	for _, s := range v.seeds {
		seen[s] = true
	}
	if len(seen) == len(v.xs) {
		return "seed"
	}
	return "run"
}

// check judges the mean of v against t: it holds if every value the mean
// may take (a run that never became fair makes it an interval) satisfies
// t. Seeds whose own value disagrees with the judgement, and a 5% change of
// t that flips it, make it fragile.
func check(text, paper string, v vals, t Tol) Statement {
	m := v.mean()
	s := Statement{Text: text, Paper: paper, Measured: m.text(v.unit), Spread: v.spread(),
		Tolerance: t.text(v.unit), Holds: boolPtr(t.holdsAll(m.lo, m.hi))}
	agree := 0
	for _, x := range v.xs {
		if t.holdsAll(x.lo, x.hi) == *s.Holds {
			agree++
		}
	}
	s.Fragile = fragility(agree, len(v.xs), t.flips(m.lo, m.hi, v.unit), *s.Holds)
	v.noteNeverFair(&s)
	return s
}

// compare judges f(mean of a, mean of b) (a ratio or a difference) against
// t; the runs of a and b are paired by seed for the per-seed check.
func compare(text, paper string, a, b vals, f func(a, b ival) ival, u unit, t Tol) Statement {
	m := f(a.mean(), b.mean())
	s := Statement{Text: text, Paper: paper, Measured: m.text(u), Tolerance: t.text(u), Holds: boolPtr(t.holdsAll(m.lo, m.hi))}
	agree, n := 0, 0
	lo, hi := math.Inf(1), math.Inf(-1)
	if len(a.xs) == len(b.xs) && len(a.xs) > 1 {
		for i := range a.xs {
			x := f(a.xs[i], b.xs[i])
			n++
			if t.holdsAll(x.lo, x.hi) == *s.Holds {
				agree++
			}
			if x.exact() && !math.IsNaN(x.lo) {
				lo, hi = math.Min(lo, x.lo), math.Max(hi, x.lo)
			}
		}
		if lo <= hi {
			s.Spread = u.format(lo) + " to " + u.format(hi) + " over " + plural(n, a.runWord())
		}
	}
	s.Fragile = fragility(agree, n, t.flips(m.lo, m.hi, u), *s.Holds)
	if a.ttf || b.ttf {
		k := a.never() + b.never()
		s.NeverFair = &k
		if k > 0 {
			s.Note = fmt.Sprintf("never fair: %d and %d runs; a run that never became fair counts from its length up, so the measured value is a bound", a.never(), b.never())
		}
	}
	return s
}

// noteNeverFair sets never_fair on a time to fairness and says how the mean
// was bounded.
func (v vals) noteNeverFair(s *Statement) {
	if !v.ttf {
		return
	}
	k := v.never()
	s.NeverFair = &k
	if k > 0 {
		m, n := v.fairMean()
		if n > 0 {
			s.Note = fmt.Sprintf("%d of %s never became fair (they count from the run's length up); the %d that did: mean %s",
				k, plural(len(v.xs), "run"), n, v.unit.format(m))
		} else {
			s.Note = fmt.Sprintf("no run became fair (%s)", plural(len(v.xs), "run"))
		}
	}
}

// fragility writes what flips a statement: seeds that disagree with it,
// and a 5% change of the tolerance.
func fragility(agree, n int, flips, holds bool) string {
	var parts []string
	if n > 1 && agree < n {
		parts = append(parts, fmt.Sprintf("seeds disagree: taken alone, %d of the %d %s", n-agree, n, map[bool]string{true: "do not satisfy it", false: "satisfy it"}[holds]))
	}
	if flips {
		parts = append(parts, "a 5% change of the tolerance flips it")
	}
	return strings.Join(parts, "; ")
}

// direction is a statement with no paper value whose measurement is a
// yes or no (an order of several values), with the values as measured.
func direction(text, measured string, ok bool) Statement {
	return Statement{Text: text, Measured: measured, Tolerance: "as stated", Holds: boolPtr(ok)}
}
