package reproduce

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"flag"
	"fmt"
	"slices"
	"sort"
	"strings"
	"testing"
)

// The checks that need real runs are opt-in, each a few minutes on two
// cores:
//
//	go test ./experiments/reproduce -run TestQuickKeepsVerdicts -check-quick
//	go test ./experiments/reproduce -run TestNeighbourSeeds -check-seeds
var (
	checkQuick = flag.Bool("check-quick", false, "run the claims whose --quick settings differ, quick and full, and compare every statement")
	checkSeeds = flag.Bool("check-seeds", false, "run every claim with its seeds and with the next ones, and compare every statement")
)

// planHash identifies what a claim runs in a mode: its parts' experiments,
// searches and probes, and its corrections'.
func planHash(t testing.TB, c Claim, opt Options) string {
	h := sha256.New()
	variants := []*Correction{nil}
	for i := range c.Corrections {
		variants = append(variants, &c.Corrections[i])
	}
	for _, corr := range variants {
		for _, p := range c.parts() {
			tk, err := plan(p, corr, opt)
			if err != nil {
				t.Fatalf("%s: %v", c.ID, err)
			}
			// The settings name --quick's changes; the key is the run.
			fmt.Fprintln(h, tk.key)
		}
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
}

// quickChanges lists the claims whose --quick runs differ from the full
// report's.
func quickChanges(t testing.TB) []Claim {
	var out []Claim
	for _, c := range Claims() {
		if planHash(t, c, Options{Quick: true}) != planHash(t, c, Options{}) {
			out = append(out, c)
		}
	}
	return out
}

// Every claim whose --quick settings change its runs was measured to keep
// the full report's verdict on every statement with exactly those settings
// (quickMeasured records the plans it was measured with), or is listed in
// quickDiffers, which the report shows. Fast: it compares plans, not runs;
// TestQuickKeepsVerdicts with -check-quick measures.
func TestQuickRecordIsCurrent(t *testing.T) {
	changed := quickChanges(t)
	for _, c := range changed {
		m, ok := quickMeasured[c.ID]
		if !ok {
			t.Errorf("%s: --quick changes its runs but it was never measured against the full report; run TestQuickKeepsVerdicts -check-quick and record it in quickMeasured", c.ID)
			continue
		}
		if q, f := planHash(t, c, Options{Quick: true}), planHash(t, c, Options{}); m.quick != q || m.full != f {
			t.Errorf("%s: its runs changed since quick and full were compared (plans %s/%s, recorded %s/%s); run TestQuickKeepsVerdicts -check-quick again", c.ID, q, f, m.quick, m.full)
		}
	}
	for id := range quickMeasured {
		if !slices.ContainsFunc(changed, func(c Claim) bool { return c.ID == id }) {
			t.Errorf("quickMeasured lists %s, whose --quick runs are its full ones", id)
		}
	}
	for id := range quickDiffers {
		if _, ok := quickMeasured[id]; !ok {
			t.Errorf("quickDiffers lists %s, which was not measured", id)
		}
	}
}

// judged is every statement's verdict, by criterion and text, and each
// verdict of a claim and its corrections.
func judged(rep *Report) map[string]map[string]string {
	out := map[string]map[string]string{}
	add := func(id, key, v string) {
		if out[id] == nil {
			out[id] = map[string]string{}
		}
		out[id][key] = v
	}
	holds := func(s Statement) string {
		if s.Holds == nil {
			return "not judged"
		}
		return fmt.Sprint(*s.Holds)
	}
	for _, e := range rep.Entries {
		add(e.ID, "verdict", e.Verdict)
		for _, s := range e.Statements {
			add(e.ID, s.Text, holds(s))
		}
		for _, c := range e.Criteria {
			add(e.ID, "["+c.Name+"] verdict", c.Verdict)
			for _, s := range c.Statements {
				add(e.ID, "["+c.Name+"] "+s.Text, holds(s))
			}
		}
		for _, corr := range e.Corrections {
			p := "{" + corr.Name + "} "
			add(e.ID, p+"verdict", corr.Verdict)
			for _, s := range corr.Statements {
				add(e.ID, p+s.Text, holds(s))
			}
			for _, c := range corr.Criteria {
				for _, s := range c.Statements {
					add(e.ID, p+"["+c.Name+"] "+s.Text, holds(s))
				}
			}
		}
	}
	return out
}

// differences lists the statements judged differently.
func differences(a, b map[string]string) []string {
	var out []string
	for k, v := range a {
		if b[k] != v {
			out = append(out, fmt.Sprintf("%s: %s against %s", k, v, b[k]))
		}
	}
	sort.Strings(out)
	return out
}

func TestQuickKeepsVerdicts(t *testing.T) {
	if !*checkQuick {
		t.Skip("opt-in: -check-quick")
	}
	claims := quickChanges(t)
	if len(claims) == 0 {
		t.Skip("--quick runs every claim as the full report does")
	}
	full, err := Run(context.Background(), claims, Options{})
	if err != nil {
		t.Fatal(err)
	}
	quick, err := Run(context.Background(), claims, Options{Quick: true})
	if err != nil {
		t.Fatal(err)
	}
	f, q := judged(full), judged(quick)
	for _, c := range claims {
		diff := differences(f[c.ID], q[c.ID])
		_, known := quickDiffers[c.ID]
		switch {
		case len(diff) > 0 && !known:
			t.Errorf("%s: --quick judges differently:\n  %s", c.ID, strings.Join(diff, "\n  "))
		case len(diff) == 0 && known:
			t.Errorf("%s: listed in quickDiffers, but quick and full agree now", c.ID)
		}
		t.Logf("%s: record as quickMeasured[%q] = {quick: %q, full: %q}", c.ID, c.ID, planHash(t, c, Options{Quick: true}), planHash(t, c, Options{}))
	}
	t.Logf("full %.0f s, quick %.0f s wall", full.WallSeconds, quick.WallSeconds)
}

// TestNeighbourSeeds runs every claim with its seeds and with each seed
// moved up by one, and lists the statements that flip: the ones
// seedFragile must name, which the report marks.
func TestNeighbourSeeds(t *testing.T) {
	if !*checkSeeds {
		t.Skip("opt-in: -check-seeds")
	}
	claims := Claims()
	a, err := Run(context.Background(), claims, Options{})
	if err != nil {
		t.Fatal(err)
	}
	b, err := Run(context.Background(), claims, Options{SeedOffset: 1})
	if err != nil {
		t.Fatal(err)
	}
	ja, jb := judged(a), judged(b)
	// The full report's verdicts are the ones the claims record (Found).
	for _, c := range claims {
		if v := ja[c.ID]["verdict"]; v != c.Found {
			t.Errorf("%s: the full report finds it %s, its Found says %q: record the verdict (and, if it differs, Why)", c.ID, v, c.Found)
		}
	}
	for _, c := range claims {
		diff := differences(ja[c.ID], jb[c.ID])
		var got []string
		for _, d := range diff {
			// "key: a against b", where the key may hold ": " too.
			head := d[:strings.LastIndex(d, " against ")]
			got = append(got, head[:strings.LastIndex(head, ": ")])
		}
		want := seedFragile[c.ID]
		sort.Strings(want)
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("%s: with the seeds moved up by one these flip:\n  %s\nseedFragile says:\n  %s", c.ID, strings.Join(diff, "\n  "), strings.Join(want, "\n  "))
		}
	}
}

// The statements seedFragile names are marked in the report, with the
// correction they belong to; a flipping verdict is noted.
func TestMarkSeedFragile(t *testing.T) {
	o := Outcome{Criteria: []CriterionResult{{Name: "std>4.5KB", Statements: []Statement{
		{Text: "n-aimd: becomes unstable at 190 us"}, {Text: "ap-n-aimd: becomes unstable only beyond 230 us"}}}}}
	markSeedFragile("000-fig8", "sampling = regular", &o)
	if s := o.Criteria[0].Statements; !strings.Contains(s[0].Fragile, "seed moved up by one") || s[1].Fragile != "" {
		t.Errorf("%+v", s)
	}
	if !strings.Contains(o.Notes, "the verdict flips") {
		t.Errorf("notes %q", o.Notes)
	}
	o = Outcome{Criteria: []CriterionResult{{Name: "std>4.5KB", Statements: []Statement{{Text: "n-aimd: becomes unstable at 190 us"}}}}}
	markSeedFragile("000-fig8", "", &o)
	if o.Criteria[0].Statements[0].Fragile != "" || o.Notes != "" {
		t.Errorf("the paper's parameters are not the correction's: %+v", o)
	}
}
