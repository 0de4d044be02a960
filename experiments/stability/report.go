package stability

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"qcnlab/printable"
)

// WriteJSON writes the report as JSON.
func WriteJSON(w io.Writer, r *Report) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false) // criteria hold ">" and "<"
	return enc.Encode(r)
}

// WriteText writes the report as a table for people: per algorithm and
// criterion, the boundary and the bracket it lies in.
func WriteText(w io.Writer, r *Report) error {
	seeds := make([]string, len(r.Seeds))
	for i, s := range r.Seeds {
		seeds[i] = fmt.Sprint(s)
	}
	fmt.Fprintf(w, "%s: stability along %s from %s to %s, resolution %s\n", printable.Text(r.Experiment), r.Key,
		r.axis.format(r.Range[0]), r.axis.format(r.Range[1]), r.axis.format(r.Resolution))
	fmt.Fprintf(w, "%d runs of %gs (warm-up %gs), seeds %s, each criterion's metric averaged over the seeds\n\n",
		r.Runs, r.DurationSeconds, r.WarmupSeconds, strings.Join(seeds, " "))
	for _, k := range r.IgnoredSweep {
		if v, ok := r.HeldAt[k]; ok {
			fmt.Fprintf(w, "(the experiment's sweep over %s is not run: the search holds %s at %s)\n", k, k, v)
		} else {
			fmt.Fprintf(w, "(the experiment's sweep over %s is not run: the search holds %s at its default)\n", k, k)
		}
	}
	if len(r.IgnoredSweep) > 0 {
		fmt.Fprintln(w)
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "algorithm\tcriterion\tunstable from\tstable up to\tnote")
	for _, b := range r.Results {
		boundary, stable := "stable over the range", "-"
		switch {
		case b.Boundary != nil:
			boundary = r.axis.format(*b.Boundary)
		case len(b.Points) == 0:
			boundary = "not measured"
		}
		if b.Bracket[0] != nil {
			stable = r.axis.format(*b.Bracket[0])
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", b.Algorithm, b.Criterion, boundary, stable, b.Note)
	}
	if !r.Complete {
		fmt.Fprintln(tw, "\n(incomplete: the search was stopped; the table holds what the points measured before say)")
	}
	return tw.Flush()
}
