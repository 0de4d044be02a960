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
	"unicode"
	"unicode/utf8"
)

// Report is the outcome of a reproduction.
type Report struct {
	Quick       bool      `json:"-"`
	Started     time.Time `json:"-"`
	WallSeconds float64   `json:"-"`
	Workers     int       `json:"-"`
	SeedOffset  uint64    `json:"-"`
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
	Measured  string `json:"measured"` // which statements hold and which do not
	Criterion string `json:"criterion"`
	Notes     string `json:"notes"`
	// Statements are the claim's own; a claim judged under several
	// criteria has its statements under each of them (Criteria).
	Statements []Statement `json:"statements"`
	// QuickDiffers, in --quick, says what the full report is known to
	// find instead.
	QuickDiffers string `json:"quick_differs,omitempty"`

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
	Name       string            `json:"name"`
	Doc        string            `json:"doc"`
	Settings   []string          `json:"settings"`
	Verdict    string            `json:"verdict"`
	Measured   string            `json:"measured"`
	Notes      string            `json:"notes,omitempty"`
	Statements []Statement       `json:"statements"`
	Criteria   []CriterionResult `json:"criteria,omitempty"`
	Plots      []string          `json:"plots,omitempty"`
}

// add judges one job and files it under its claim.
func (r *Report) add(j job) {
	ev := j.evidence()
	out := j.claim.Rule(ev).finish()
	name, corr := j.claim.ID, ""
	if j.correction != nil {
		name += "-" + slug(j.correction.Name)
		corr = j.correction.Name
	}
	// The neighbouring seeds were tried with the full report's runs.
	if _, shortened := quickMeasured[j.claim.ID]; r.SeedOffset == 0 && !(r.Quick && shortened) {
		markSeedFragile(j.claim.ID, corr, &out)
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
	var settings []string
	runs := 0
	var wall time.Duration
	for i, t := range j.tasks {
		part := j.parts[i]
		settings = append(settings, strings.Join(t.settings, "; "))
		wall += t.wall
		if t.stab != nil {
			runs += t.stab.Runs
			file := name
			if part.Name != "" {
				file += "-" + slug(part.Name)
			}
			data, err := renderSearch(file, t.stab, out.marks[part.Name])
			keep(file+".png", data, err)
		} else {
			runs += len(t.runs)
		}
	}
	if sp := j.claim.Plot; sp != nil {
		data, err := sp.render(name, ev.Part(""))
		keep(name+".png", data, err)
	}
	if t := j.tasks[0]; t.out != nil {
		if key := j.claim.Overlay; key != "" {
			data, err := renderOverlay(name+": rates", t.out, key)
			keep(name+"-rates.png", data, err)
		}
		plots = append(plots, runPlots(t.out, t.dir)...)
	}
	if out.Statements == nil {
		out.Statements = []Statement{}
	}
	if j.correction != nil {
		for i := range r.Entries {
			if e := &r.Entries[i]; e.ID == j.claim.ID {
				e.Corrections = append(e.Corrections, CorrectionResult{Name: j.correction.Name, Doc: j.correction.Doc,
					Settings: settings, Verdict: out.Verdict, Measured: out.Measured(), Notes: out.Notes,
					Statements: out.Statements, Criteria: out.Criteria, Plots: plots})
			}
		}
		return
	}
	c := j.claim
	e := Entry{ID: c.ID, Ref: c.Ref, Figure: c.Figure, Claim: c.Text,
		Verdict: out.Verdict, Measured: out.Measured(), Criterion: out.Criterion, Notes: claimNotes(c, out.Verdict, out.Notes),
		Statements: out.Statements, Experiment: c.Experiment, Settings: settings, Runs: runs, WallSeconds: wall.Seconds(),
		Criteria: out.Criteria, Plots: plots}
	if r.Quick {
		e.QuickDiffers = quickDiffers[c.ID]
	}
	r.Entries = append(r.Entries, e)
}

// claimNotes are a claim's notes in the report: first, where its verdict
// is not agrees, why it differs (or that the project does not know), then
// what its rule noted.
func claimNotes(c Claim, verdict, notes string) string {
	if verdict != Differs && verdict != Partly {
		return notes
	}
	why := c.Why
	if why == "" {
		why = "not known"
	}
	if r, n := utf8.DecodeRuneInString(notes); n > 0 {
		notes = string(unicode.ToUpper(r)) + notes[n:]
	}
	return joinNonEmpty(" ", "Why it differs: "+why+".", notes)
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
		v := e.Verdict
		if e.QuickDiffers != "" {
			v += " (quick; the full report differs)"
		}
		fmt.Fprintf(w, "| %s | %s %s | %s | %s |\n", e.ID, e.Ref, e.Figure, v, strings.Join(corr, "; "))
	}
}

// Markdown writes report.md.
func (r *Report) Markdown(w io.Writer) {
	mode := "full: the seeds' own durations and repetitions"
	if r.Quick {
		mode = "--quick: shorter runs or fewer seeds where the claim's settings below say so, each measured to give the full report's verdicts"
	}
	if r.SeedOffset > 0 {
		mode += fmt.Sprintf("; every seed moved up by %d", r.SeedOffset)
	}
	fmt.Fprintf(w, "# qcnlab reproduction report\n\n")
	fmt.Fprintf(w, "Started %s, %.0f s wall on %s. Mode: %s.\n\n", r.Started.Format(time.RFC3339), r.WallSeconds, plural(r.Workers, "worker"), mode)
	fmt.Fprintf(w, "Each verdict is computed from the runs by the rule stated under its claim: each of the paper's statements is "+
		"measured (the mean over the seeds, with their spread) and held to a tolerance written next to it, two-sided where the paper "+
		"gives a number; the claim agrees when every statement holds, differs when none does, partly otherwise. Where a rule depends on "+
		"a criterion, the statements are judged under each, and a criterion that sees nothing (no stability boundary anywhere in the "+
		"range) counts neither way. A statement is marked fragile when seeds disagree with it, when a 5%% change of its tolerance or of "+
		"the criterion's threshold flips it, or when it flipped with every seed moved up by one (TestNeighbourSeeds). A run that never became fair has no time to fairness: it never counts as fair within "+
		"any time, and never_fair says how many there were. Where a documented correction exists, the claim is judged with the "+
		"paper's parameters first and then with the correction.\n\n")
	if len(r.Interrupted) > 0 {
		fmt.Fprintf(w, "**Interrupted**: not judged, their runs did not finish: %s.\n\n", strings.Join(r.Interrupted, ", "))
	}
	r.Table(w)
	for _, e := range r.Entries {
		fmt.Fprintf(w, "\n## %s: %s, %s — %s\n\n", e.ID, RefLabel(e.Ref), e.Figure, e.Verdict)
		fmt.Fprintf(w, "**Claim.** %s\n\n", e.Claim)
		fmt.Fprintf(w, "**Rule.** %s\n\n", e.Criterion)
		if e.QuickDiffers != "" {
			fmt.Fprintf(w, "**Quick against full.** %s\n\n", e.QuickDiffers)
		}
		writeJudgement(w, e.Measured, e.Statements, e.Criteria)
		if e.Notes != "" {
			fmt.Fprintf(w, "**Notes.** %s\n\n", e.Notes)
		}
		fmt.Fprintf(w, "**Runs.** %s.\n\n", joinNonEmpty(": ", fmt.Sprintf("%s, %.1f s wall", plural(e.Runs, "run"), e.WallSeconds), strings.Join(e.Settings, " | ")))
		writePlots(w, e.Plots)
		for _, c := range e.Corrections {
			fmt.Fprintf(w, "### With the correction %s — %s\n\n%s\n\n", c.Name, c.Verdict, c.Doc)
			writeJudgement(w, c.Measured, c.Statements, c.Criteria)
			if c.Notes != "" {
				fmt.Fprintf(w, "**Notes.** %s\n\n", c.Notes)
			}
			if len(c.Settings) > 0 {
				fmt.Fprintf(w, "**Runs.** %s.\n\n", strings.Join(c.Settings, " | "))
			}
			writePlots(w, c.Plots)
		}
	}
}

// writeJudgement writes which statements hold, then the statements: the
// claim's own, then each criterion's.
func writeJudgement(w io.Writer, measured string, ss []Statement, cs []CriterionResult) {
	fmt.Fprintf(w, "**Measured.** %s\n\n", measured)
	writeStatements(w, ss)
	for _, c := range cs {
		if c.Verdict == NotJudged {
			note := ""
			if len(c.Statements) > 0 {
				note = ": " + joinNonEmpty("; ", c.Statements[0].Note, c.Statements[0].Fragile)
			}
			fmt.Fprintf(w, "Under **%s** — not judged%s.\n\n", c.Name, note)
			continue
		}
		fmt.Fprintf(w, "Under **%s** — %s: %s\n\n", c.Name, c.Verdict, c.Measured)
		writeStatements(w, c.Statements)
	}
}

// writeStatements writes a table of statements.
func writeStatements(w io.Writer, ss []Statement) {
	if len(ss) == 0 {
		return
	}
	cell := func(s string) string {
		if s == "" {
			return "-"
		}
		return strings.ReplaceAll(s, "|", `\|`)
	}
	fmt.Fprintln(w, "| statement | paper | measured | spread | tolerance | holds | remarks |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|---|")
	for _, s := range ss {
		holds := "not judged"
		if s.Holds != nil {
			holds = map[bool]string{true: "yes", false: "**no**"}[*s.Holds]
		}
		var remarks []string
		if s.NeverFair != nil {
			remarks = append(remarks, fmt.Sprintf("never fair: %d", *s.NeverFair))
		}
		if s.Fragile != "" {
			remarks = append(remarks, "fragile: "+s.Fragile)
		}
		if s.Note != "" {
			remarks = append(remarks, s.Note)
		}
		fmt.Fprintf(w, "| %s | %s | %s | %s | %s | %s | %s |\n", cell(s.Text), cell(s.Paper), cell(s.Measured), cell(s.Spread),
			cell(s.Tolerance), holds, cell(strings.Join(remarks, "; ")))
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

// RefLabel names a claim's reference for people: "seed 000" for a seed
// paper, the reference itself otherwise ("Zhu et al., CoNEXT 2016").
func RefLabel(ref string) string {
	if len(ref) == 3 && strings.Trim(ref, "0123456789") == "" {
		return "seed " + ref
	}
	return ref
}
