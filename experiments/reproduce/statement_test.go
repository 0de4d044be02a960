package reproduce

import (
	"math"
	"strings"
	"testing"

	"qcnlab/experiments/batch"
	"qcnlab/model"
)

// A tolerance around the paper's value fails on both sides; a one-sided
// one only on its side; NaN never holds.
func TestToleranceIsTwoSidedWhereThePaperGivesANumber(t *testing.T) {
	tol := near(140e-6, 0.15)
	for _, c := range []struct {
		x    float64
		want bool
	}{{140e-6, true}, {119.1e-6, true}, {160.9e-6, true}, {118e-6, false}, {162e-6, false}, {math.NaN(), false}, {math.Inf(1), false}} {
		if got := tol.holds(c.x); got != c.want {
			t.Errorf("140 us ± 15%%: %g holds %v, want %v", c.x, got, c.want)
		}
	}
	if !above(140e-6).holds(1) || above(140e-6).holds(140e-6) || !atLeast(0.95).holds(0.95) || below(0.95).holds(0.95) {
		t.Error("one-sided tolerances")
	}
	if got := tol.text(seconds); got != "[119 us, 161 us] (140 us ± 15%)" {
		t.Errorf("text %q", got)
	}
	if got := below(0.05).text(percent); got != "< 5.00%" {
		t.Errorf("text %q", got)
	}
	// An interval holds only if all of it does.
	if atMost(15).holdsAll(10, math.Inf(1)) || !atLeast(5).holdsAll(10, math.Inf(1)) {
		t.Error("holdsAll")
	}
}

// A 5% change of a bound that flips the judgement is reported; a
// utilization's 5% is of its shortfall from 1, so 1.000 against "at least
// 0.98" is not fragile.
func TestToleranceFlips(t *testing.T) {
	if !atMost(15).flips(15.5, 15.5, plain) || atMost(15).flips(10, 10, plain) {
		t.Error("atMost(15)")
	}
	if atLeast(0.98).flips(1, 1, share) || !atLeast(0.98).flips(0.979, 0.979, share) {
		t.Error("a utilization's shortfall")
	}
}

func TestReadableNumbers(t *testing.T) {
	for x, want := range map[float64]string{504.6875e-6: "505 us", 139.6875e-6: "140 us", 13.458: "13.5 s", 0.0123: "12.3 ms", 1: "1 s", 20: "20 s", 0.1: "100 ms", 1234.5: "1230 s"} {
		if got := readableDuration(x); got != want {
			t.Errorf("readableDuration(%g) = %q, want %q", x, got, want)
		}
	}
	if plural(1, "run") != "1 run" || plural(2, "run") != "2 runs" || plural(0, "seed") != "0 seeds" {
		t.Error("plural")
	}
	if got := joinNonEmpty("; ", "a", "", " ", "b"); got != "a; b" {
		t.Errorf("joinNonEmpty %q", got)
	}
	if readableRate(5e9) != "5 Gbps" || readableRate(784e3) != "784 Kbps" {
		t.Error("readableRate")
	}
}

// ttfRuns are runs with the given times to fairness (nil: never fair) in
// runs of 20 s.
func ttfRuns(ts ...*float64) Runs {
	var rs Runs
	for i, x := range ts {
		rs = append(rs, ClaimRun{RunSummary: batch.RunSummary{Summary: model.Summary{Algorithm: "qcn", Seed: uint64(i + 1), SimSeconds: 20,
			TimeToFairness: x, Bottlenecks: []model.BottleneckSummary{{}}}}})
	}
	return rs
}

func f(x float64) *float64 { return &x }

// A run that never became fair never counts for "within N seconds", even
// where N is past the run's length (the old rule scored it as the run's
// length and let it agree); never_fair says how many there were.
func TestNeverFairNeverCountsAsFair(t *testing.T) {
	s := check("fair within 10 s ± 100%", "10 s", ttfRuns(f(10), nil).collect(timeToFair), near(10, 1))
	if s.holds() || s.NeverFair == nil || *s.NeverFair != 1 || !strings.HasPrefix(s.Measured, "≥ ") {
		t.Errorf("one never fair: %+v", s)
	}
	s = check("fair within 10 s ± 100%", "10 s", ttfRuns(f(10), f(12)).collect(timeToFair), near(10, 1))
	if !s.holds() || s.NeverFair == nil || *s.NeverFair != 0 || s.Measured != "11 s" || s.Spread != "10 s to 12 s over 2 seeds" {
		t.Errorf("both fair: %+v", s)
	}
	// Compared with a faster scheme, a slower one that never became fair
	// is bounded by its run's length: "at most half" still holds.
	fast, slow := ttfRuns(f(3), f(4)).collect(timeToFair), ttfRuns(f(15), nil).collect(timeToFair)
	c := compare("fast over slow", "", fast, slow, ratioOf, ratio, atMost(0.5))
	if !c.holds() || *c.NeverFair != 1 || c.Measured != "≤ 0.20" {
		t.Errorf("bounded ratio: %+v", c)
	}
	// The other way round it cannot be shown.
	c = compare("slow over fast", "", slow, fast, ratioOf, ratio, atMost(0.5))
	if c.holds() {
		t.Errorf("a never-fair numerator holds: %+v", c)
	}
}

// Seeds that disagree with a statement make it fragile.
func TestSeedsThatDisagreeAreReported(t *testing.T) {
	s := check("fair within [5, 15] s", "10 s", ttfRuns(f(6), f(14), f(16)).collect(timeToFair), near(10, 0.5))
	if !s.holds() || !strings.Contains(s.Fragile, "taken alone, 1 of the 3 do not satisfy it") {
		t.Errorf("%+v", s)
	}
}

func TestVerdicts(t *testing.T) {
	yes, no := Statement{Holds: boolPtr(true)}, Statement{Holds: boolPtr(false)}
	unjudged := Statement{}
	for _, c := range []struct {
		ss   []Statement
		want string
	}{{[]Statement{yes, yes}, Agrees}, {[]Statement{no, no}, Differs}, {[]Statement{yes, no}, Partly},
		{[]Statement{yes, unjudged}, Agrees}, {[]Statement{unjudged}, NotJudged}, {nil, NotJudged}} {
		if got := gradeStatements(c.ss); got != c.want {
			t.Errorf("grade %v = %s, want %s", c.ss, got, c.want)
		}
	}
	for _, c := range []struct {
		vs   []string
		want string
	}{{[]string{Agrees, Agrees}, Agrees}, {[]string{Differs, Differs}, Differs}, {[]string{Agrees, Differs}, Partly},
		{[]string{Agrees, NotJudged}, Agrees}, {[]string{NotJudged}, NotJudged}, {[]string{Partly}, Partly}} {
		if got := combine(c.vs); got != c.want {
			t.Errorf("combine(%v) = %s, want %s", c.vs, got, c.want)
		}
	}
	o := Outcome{Statements: []Statement{{Text: "a", Holds: boolPtr(true)}, {Text: "b", Holds: boolPtr(false)}, {Text: "c"}}}.finish()
	if o.Verdict != Partly || o.Measured() != "1 of 2 statements hold; not: b (1 not judged)" {
		t.Errorf("%s: %q", o.Verdict, o.Measured())
	}
}

// A value that rounds to zero has no sign; a ratio of two times that may
// both be infinite is undetermined; runs of one seed are runs, not seeds.
func TestFormattingEdges(t *testing.T) {
	if got := percent.format(-0.00001); got != "0.00%" {
		t.Errorf("%q", got)
	}
	if got := kilobyte.format(-1); got != "0.0 KB" {
		t.Errorf("%q", got)
	}
	if got := ratioOf(ival{5, math.Inf(1)}, ival{20, math.Inf(1)}).text(ratio); got != "undetermined" {
		t.Errorf("%q", got)
	}
	v := ttfRuns(f(3), f(4)).collect(timeToFair)
	v.seeds = []uint64{1, 1}
	if got := v.spread(); got != "3 s to 4 s over 2 runs" {
		t.Errorf("%q", got)
	}
}
