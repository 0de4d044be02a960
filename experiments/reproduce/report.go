package reproduce

import (
	"encoding/json"
	"fmt"
	"io"
	"path"
	"path/filepath"
	"qcnlab/experiments/outdir"
	"sort"
	"strings"
	"time"
)

// Report is the outcome of a reproduction.
type Report struct {
	Quick       bool      `json:"-"`
	Started     time.Time `json:"-"`
	WallSeconds float64   `json:"-"`
	Workers     int       `json:"-"`
	Entries     []Entry   `json:"-"`
	// Interrupted lists the claims whose runs did not finish.
	Interrupted []string `json:"-"`
	plots       map[string][]byte
}

// Entry is one claim in report.json.
type Entry struct {
	ID        string `json:"id"`
	Ref       string `json:"seed"` // the seed paper
	Figure    string `json:"figure"`
	Claim     string `json:"claim"`
	Verdict   string `json:"verdict"`
	Measured  string `json:"measured"`
	Criterion string `json:"criterion"`
	Notes     string `json:"notes"`

	Experiment  string             `json:"experiment"`
	Settings    []string           `json:"settings"`
	Runs        int                `json:"runs"`
	WallSeconds float64            `json:"wall_seconds"`
	Criteria    []CriterionResult  `json:"criteria,omitempty"`
	Corrections []CorrectionResult `json:"corrections,omitempty"`
	Plots       []string           `json:"plots,omitempty"` // relative to the report
}

// CorrectionResult is a claim judged again under a documented correction.
type CorrectionResult struct {
	Name     string            `json:"name"`
	Doc      string            `json:"doc"`
	Settings []string          `json:"settings"`
	Verdict  string            `json:"verdict"`
	Measured string            `json:"measured"`
	Criteria []CriterionResult `json:"criteria,omitempty"`
	Plots    []string          `json:"plots,omitempty"`
}

// add judges one job and files it under its claim.
func (r *Report) add(j job, opt Options) {
	var rs Runs
	var out Outcome
	runs := 0
	if j.task.stab != nil {
		out = j.claim.Judge(j.task.stab)
		runs = j.task.stab.Runs
	} else {
		rs = Runs(j.task.res.Runs)
		out = j.claim.Rule(rs)
		runs = len(rs)
	}
	if out.Verdict == "" {
		out.Verdict = combine(out.Criteria)
	}
	name := j.claim.ID
	if j.correction != nil {
		name += "-" + slug(j.correction.Name)
	}
	var plots []string
	// A plot that cannot be drawn is left out; the verdict stands.
	keep := func(file string, data []byte, err error) {
		if err != nil {
			return
		}
		if r.plots == nil {
			r.plots = map[string][]byte{}
		}
		p := filepath.ToSlash(filepath.Join("plots", file))
		r.plots[p] = data
		plots = append(plots, p)
	}
	if j.task.stab != nil {
		data, err := renderSearch(name, j.task.stab)
		keep(name+".png", data, err)
	}
	if sp := j.claim.Plot; sp != nil && rs != nil {
		data, err := sp.render(name, rs)
		keep(name+".png", data, err)
	}
	if out := j.task.out; out != nil {
		if key := j.claim.Overlay; key != "" {
			data, err := renderOverlay(name+": rates", out, key)
			keep(name+"-rates.png", data, err)
		}
		plots = append(plots, runPlots(out, j.task.dir)...)
	}
	if j.correction != nil {
		for i := range r.Entries {
			if e := &r.Entries[i]; e.ID == j.claim.ID {
				e.Corrections = append(e.Corrections, CorrectionResult{Name: j.correction.Name, Doc: j.correction.Doc,
					Settings: j.task.settings, Verdict: out.Verdict, Measured: out.Measured, Criteria: out.Criteria, Plots: plots})
			}
		}
		return
	}
	c := j.claim
	r.Entries = append(r.Entries, Entry{ID: c.ID, Ref: c.Ref, Figure: c.Figure, Claim: c.Text,
		Verdict: out.Verdict, Measured: out.Measured, Criterion: out.Criterion, Notes: out.Notes,
		Experiment: c.Experiment, Settings: j.task.settings, Runs: runs, WallSeconds: j.task.wall.Seconds(),
		Criteria: out.Criteria, Plots: plots})
}

// runPlots lists the per-run figures of a series task in its directory out
// (dir in the report's), the first seed's first, at most six.
func runPlots(out *outdir.Dir, dir string) []string {
	entries, _ := out.ReadDir("plots")
	var files []string
	for _, e := range entries {
		if e.Type().IsRegular() && strings.HasSuffix(e.Name(), ".png") {
			files = append(files, e.Name())
		}
	}
	sort.SliceStable(files, func(i, j int) bool {
		return strings.Contains(files[i], "seed=1") && !strings.Contains(files[j], "seed=1")
	})
	var list []string
	for _, f := range files {
		if strings.Contains(f, "seed=") && !strings.Contains(f, "seed=1") && len(files) > 6 {
			continue
		}
		list = append(list, path.Join(filepath.ToSlash(dir), "plots", f))
		if len(list) == 6 {
			break
		}
	}
	return list
}

func slug(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9', r == '.':
			return r
		case r >= 'A' && r <= 'Z':
			return r - 'A' + 'a'
		}
		return '-'
	}, s)
}

// write saves report.json, report.md and the plots, each through a
// temporary file and a rename.
func (r *Report) write(dir *outdir.Dir) error {
	for p, data := range r.plots {
		if err := dir.WriteFile(p, data); err != nil {
			return err
		}
	}
	entries := r.Entries
	if entries == nil {
		entries = []Entry{}
	}
	data, err := json.MarshalIndent(entries, "", "  ")
	if err != nil {
		return err
	}
	if err := dir.WriteFile("report.json", append(data, '\n')); err != nil {
		return err
	}
	var b strings.Builder
	r.Markdown(&b)
	return dir.WriteFile("report.md", []byte(b.String()))
}

// Table writes the verdict table: one line per claim, with the verdicts
// under the corrections.
func (r *Report) Table(w io.Writer) {
	fmt.Fprintln(w, "| id | figure | verdict | with correction |")
	fmt.Fprintln(w, "|---|---|---|---|")
	for _, e := range r.Entries {
		var corr []string
		for _, c := range e.Corrections {
			corr = append(corr, c.Name+": "+c.Verdict)
		}
		fmt.Fprintf(w, "| %s | %s %s | %s | %s |\n", e.ID, e.Ref, e.Figure, e.Verdict, strings.Join(corr, "; "))
	}
}

// Markdown writes report.md.
func (r *Report) Markdown(w io.Writer) {
	mode := "full: the seeds' own durations and repetitions"
	if r.Quick {
		mode = "--quick: shorter runs and fewer seeds, as each claim's settings below state; verdicts are indicative"
	}
	fmt.Fprintf(w, "# qcnlab reproduction report\n\n")
	fmt.Fprintf(w, "Started %s, %.0f s wall on %d workers. Mode: %s.\n\n", r.Started.Format(time.RFC3339), r.WallSeconds, r.Workers, mode)
	fmt.Fprintf(w, "Each verdict is computed from the runs by the rule stated under its claim (agrees, partly, differs). "+
		"Where a rule depends on a criterion, the verdict under each criterion is listed; where a documented correction exists, "+
		"the claim is judged with the paper's parameters first and then with the correction.\n\n")
	if len(r.Interrupted) > 0 {
		fmt.Fprintf(w, "**Interrupted**: not judged, their runs did not finish: %s.\n\n", strings.Join(r.Interrupted, ", "))
	}
	r.Table(w)
	for _, e := range r.Entries {
		fmt.Fprintf(w, "\n## %s: seed %s, %s — %s\n\n", e.ID, e.Ref, e.Figure, e.Verdict)
		fmt.Fprintf(w, "**Claim.** %s\n\n", e.Claim)
		fmt.Fprintf(w, "**Rule.** %s\n\n", e.Criterion)
		fmt.Fprintf(w, "**Measured.** %s\n\n", e.Measured)
		writeCriteria(w, e.Criteria)
		if e.Notes != "" {
			fmt.Fprintf(w, "**Notes.** %s\n\n", e.Notes)
		}
		fmt.Fprintf(w, "**Runs.** %d runs, %.1f s wall: %s.\n\n", e.Runs, e.WallSeconds, strings.Join(e.Settings, "; "))
		writePlots(w, e.Plots)
		for _, c := range e.Corrections {
			fmt.Fprintf(w, "### With the correction %s — %s\n\n%s\n\n", c.Name, c.Verdict, c.Doc)
			fmt.Fprintf(w, "**Measured.** %s\n\n", c.Measured)
			writeCriteria(w, c.Criteria)
			fmt.Fprintf(w, "**Runs.** %s.\n\n", strings.Join(c.Settings, "; "))
			writePlots(w, c.Plots)
		}
	}
}

func writeCriteria(w io.Writer, cs []CriterionResult) {
	if len(cs) == 0 {
		return
	}
	fmt.Fprintln(w, "| criterion | verdict | measured |")
	fmt.Fprintln(w, "|---|---|---|")
	for _, c := range cs {
		fmt.Fprintf(w, "| %s | %s | %s |\n", c.Name, c.Verdict, strings.ReplaceAll(c.Measured, "|", "/"))
	}
	fmt.Fprintln(w)
}

func writePlots(w io.Writer, plots []string) {
	for _, p := range plots {
		fmt.Fprintf(w, "![%s](%s)\n", filepath.Base(p), strings.ReplaceAll(p, " ", "%20"))
	}
	if len(plots) > 0 {
		fmt.Fprintln(w)
	}
}
