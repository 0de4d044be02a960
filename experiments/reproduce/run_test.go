package reproduce

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"qcnlab/experiments/batch"
	"qcnlab/experiments/outdir"
	"qcnlab/experiments/results"
)

// A tiny real reproduction: two claims, one on the convergence model and
// one comparing the fluid and packet models, at a twentieth of their
// durations. The report names both, with computed verdicts, and every plot
// it links exists under the output directory.
func TestTinyReproduction(t *testing.T) {
	claims, err := Select([]string{"000-fig5", "002-fig7"})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	var progress []batch.Progress
	rep, err := Run(context.Background(), claims, Options{OutDir: dir, Scale: 0.05, Workers: 2,
		Progress: func(p batch.Progress) { progress = append(progress, p) }})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Entries) != 2 || len(rep.Interrupted) != 0 {
		t.Fatalf("%d entries, interrupted %v", len(rep.Entries), rep.Interrupted)
	}
	if len(progress) == 0 || progress[len(progress)-1].Done != 2 {
		t.Errorf("progress %+v", progress)
	}
	data, err := os.ReadFile(filepath.Join(dir, "report.json"))
	if err != nil {
		t.Fatal(err)
	}
	var entries []map[string]any
	if err := json.Unmarshal(data, &entries); err != nil {
		t.Fatal(err)
	}
	for i, e := range entries {
		for _, k := range []string{"id", "seed", "figure", "claim", "verdict", "measured", "criterion", "notes", "statements"} {
			if _, ok := e[k]; !ok {
				t.Errorf("entry %d has no %q", i, k)
			}
		}
		if v := e["verdict"]; !slices.Contains([]string{Agrees, Partly, Differs}, v.(string)) {
			t.Errorf("verdict %v", v)
		}
	}
	if entries[0]["id"] != "000-fig5" || entries[1]["id"] != "002-fig7" {
		t.Errorf("ids %v, %v", entries[0]["id"], entries[1]["id"])
	}
	// 002-fig7 at 1.5 s never reaches fairness: no run has a time, so the
	// time does not fall with G_d and the claim differs; never_fair counts
	// the runs on its time-to-fairness statement.
	if entries[1]["verdict"] != Differs || !strings.Contains(entries[1]["measured"].(string), "0 of 2 statements hold") {
		t.Errorf("002-fig7 at 1.5 s: %v, %v", entries[1]["verdict"], entries[1]["measured"])
	}
	st := entries[1]["statements"].([]any)
	if nf, ok := st[1].(map[string]any)["never_fair"]; !ok || nf.(float64) != 2 {
		t.Errorf("002-fig7's ratio statement: never_fair %v", st[1])
	}
	md, err := os.ReadFile(filepath.Join(dir, "report.md"))
	if err != nil {
		t.Fatal(err)
	}
	links := regexp.MustCompile(`!\[[^]]*\]\(([^)]+)\)`).FindAllSubmatch(md, -1)
	if len(links) < 2 {
		t.Fatalf("%d plots linked:\n%s", len(links), md)
	}
	for _, l := range links {
		p := strings.ReplaceAll(string(l[1]), "%20", " ")
		if filepath.IsAbs(p) {
			t.Errorf("absolute link %s", p)
		}
		if b, err := os.ReadFile(filepath.Join(dir, p)); err != nil || !bytes.HasPrefix(b, []byte("\x89PNG")) {
			t.Errorf("plot %s: %v", p, err)
		}
	}
	if !bytes.Contains(md, []byte("| 000-fig5 |")) || !bytes.Contains(md, []byte("**Rule.**")) {
		t.Errorf("report.md:\n%s", md)
	}
}

// Interrupted before anything finished, the report still gets written and
// lists the claims it could not judge.
func TestInterruptedReproduction(t *testing.T) {
	claims, _ := Select([]string{"002-fig3"})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	dir := t.TempDir()
	rep, err := Run(ctx, claims, Options{OutDir: dir})
	if !errors.Is(err, context.Canceled) || rep == nil || len(rep.Entries) != 0 || len(rep.Interrupted) != 1 {
		t.Fatalf("err %v, report %+v", err, rep)
	}
	md, _ := os.ReadFile(filepath.Join(dir, "report.md"))
	js, _ := os.ReadFile(filepath.Join(dir, "report.json"))
	if !bytes.Contains(md, []byte("**Interrupted**")) || !bytes.Contains(md, []byte("002-fig3")) || strings.TrimSpace(string(js)) != "[]" {
		t.Errorf("report.md:\n%s\nreport.json: %s", md, js)
	}
}

// The report writer: statements as a table with the paper's value, the
// measurement, its spread, the tolerance and whether it holds; criteria
// each with their own; a correction under its claim; report.json with
// "statements" per claim and per criterion.
func TestReportWriter(t *testing.T) {
	nf := 2
	st := []Statement{{Text: "a | b", Paper: "10 s", Measured: "≥ 12 s", Spread: "8 s to 11 s over 4 seeds (2 never fair)", Tolerance: "[5 s, 15 s] (10 s ± 50%)",
		Holds: boolPtr(false), NeverFair: &nf}}
	rep := &Report{Workers: 1, Entries: []Entry{{ID: "004-fig5a", Ref: "004", Figure: "figure 5(a)", Claim: "DSM is stable",
		Verdict: Differs, Measured: "m", Criterion: "rule text", Runs: 1, Statements: []Statement{},
		Criteria: []CriterionResult{{Name: "std>0.2qeq", Verdict: Differs, Measured: "0 of 1 statements hold", Statements: st},
			{Name: "util<0.95", Verdict: NotJudged, Statements: []Statement{{Text: "x", Note: "no boundary in range"}}}},
		Corrections: []CorrectionResult{{Name: "lower c", Doc: "why", Verdict: Agrees, Measured: "m2", Statements: st,
			Plots: []string{"plots/x y.png"}}}}}}
	var b bytes.Buffer
	rep.Markdown(&b)
	md := b.String()
	for _, want := range []string{"| 004-fig5a | 004 figure 5(a) | differs | lower c: agrees |", "## 004-fig5a: seed 004, figure 5(a) — differs",
		"### With the correction lower c — agrees", "| statement | paper | measured | spread | tolerance | holds | remarks |",
		"| a \\| b | 10 s | ≥ 12 s | 8 s to 11 s over 4 seeds (2 never fair) | [5 s, 15 s] (10 s ± 50%) | **no** | never fair: 2 |",
		"Under **util<0.95** — not judged: no boundary in range.", "**Runs.** 1 run, ", "on 1 worker.", "![x y.png](plots/x%20y.png)"} {
		if !strings.Contains(md, want) {
			t.Errorf("report.md lacks %q:\n%s", want, md)
		}
	}
	for _, bad := range []string{"1 runs", "1 workers", "; .", ": ."} {
		if strings.Contains(md, bad) {
			t.Errorf("report.md has %q", bad)
		}
	}
	dir := t.TempDir()
	out, err := outdir.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := rep.write(out); err != nil {
		t.Fatal(err)
	}
	out.Finish()
	var back []map[string]any
	data, _ := os.ReadFile(filepath.Join(dir, "report.json"))
	if err := json.Unmarshal(data, &back); err != nil || len(back) != 1 {
		t.Fatalf("report.json: %v %s", err, data)
	}
	crit := back[0]["criteria"].([]any)[0].(map[string]any)
	s := crit["statements"].([]any)[0].(map[string]any)
	for _, k := range []string{"text", "paper", "measured", "spread", "tolerance", "holds", "never_fair"} {
		if _, ok := s[k]; !ok {
			t.Errorf("a statement in report.json lacks %q: %v", k, s)
		}
	}
	if _, ok := back[0]["statements"]; !ok {
		t.Error("report.json: no statements per claim")
	}
}

// The overlay reads a time series and draws one line per source and per
// value of the key, for the first value of the other swept columns.
func TestOverlay(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, results.SeriesFile)
	csv := "run,model,algorithm,seed,time_s,queue_sw0_bytes,rate_0_bps,rate_1_bps,capacity_sw0_bps\n"
	run := 0
	for _, seed := range []string{"1", "2"} {
		for _, m := range []string{"packet", "convergence"} {
			for i := 1; i <= 5; i++ {
				csv += strconv.Itoa(run) + "," + m + ",qcn," + seed + "," + strings.Repeat("0", 1) + "." + string(rune('0'+i)) + ",1000,9e8,1e8,1e9\n"
			}
			run++
		}
	}
	var gz bytes.Buffer
	if err := results.Gzip(&gz, []byte(csv)); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, gz.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := outdir.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()
	data, err := renderOverlay("x", out, "model")
	if err != nil || !bytes.HasPrefix(data, []byte("\x89PNG")) {
		t.Fatalf("%v", err)
	}
	fig, err := overlayFigure("x", out, "model")
	if err != nil {
		t.Fatal(err)
	}
	checkLayout(t, "overlay", fig, 4)
	if _, err := renderOverlay("x", out, "network.rtt"); err == nil {
		t.Error("a key the series lacks is an error")
	}
}
