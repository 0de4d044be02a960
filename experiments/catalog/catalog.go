// Package catalog writes what qcnlab offers: the built-in experiments and the
// schemes (qcnlab list), and a scheme's parameters in an experiment (qcnlab
// algos).
package catalog

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"unicode/utf8"

	"qcnlab/algos"
	"qcnlab/experiments"
	"qcnlab/units"
)

// WriteList writes the built-in experiments and the algorithms, each on
// one line however long.
func WriteList(w io.Writer) error { return WriteListWidth(w, 0) }

// WriteListWidth writes the list for a terminal width columns wide: the
// last column (what an experiment or algorithm is) wraps at spaces, its
// continuation lines under its start; 0 for no wrapping.
func WriteListWidth(w io.Writer, width int) error {
	var builtins, schemes [][]string
	for _, name := range experiments.BuiltinNames() {
		e, err := experiments.Builtin(name)
		if err != nil {
			return err
		}
		builtins = append(builtins, []string{name, firstSentence(e.Description)})
	}
	for _, name := range algos.Names() {
		sc, _ := algos.Lookup(name)
		schemes = append(schemes, []string{name, sc.Display, "source " + sc.Ref, withNote(sc)})
	}
	var b strings.Builder
	heading(&b, "Built-in experiments (qcnlab show NAME prints one):", width)
	writeColumns(&b, builtins, width)
	heading(&b, "\nAlgorithms (qcnlab algos NAME lists the parameters):", width)
	writeColumns(&b, schemes, width)
	_, err := io.WriteString(w, b.String())
	return err
}

// heading writes a heading line, wrapped to width (0: not wrapped).
func heading(b *strings.Builder, text string, width int) {
	if strings.HasPrefix(text, "\n") {
		b.WriteByte('\n')
	}
	if width <= 0 {
		b.WriteString(strings.TrimPrefix(text, "\n") + "\n")
		return
	}
	for _, line := range wrapWords(text, width) {
		b.WriteString(line + "\n")
	}
}

// writeColumns writes rows as aligned columns, two spaces in, two between,
// the last one wrapped to width (0: not wrapped; at least 30 columns are
// left for it).
func writeColumns(b *strings.Builder, rows [][]string, width int) {
	if len(rows) == 0 {
		return
	}
	cols := len(rows[0])
	widths := make([]int, cols-1)
	for _, r := range rows {
		for c := range widths {
			widths[c] = max(widths[c], utf8.RuneCountInString(r[c]))
		}
	}
	indent := 2
	for _, w := range widths {
		indent += w + 2
	}
	if width > 0 && indent+30 > width {
		// Too wide for columns (a long source reference): each row's
		// fields on their line, the last below, both wrapped.
		for _, r := range rows {
			for k, line := range wrapWords(strings.Join(r[:cols-1], ", "), width-4) {
				b.WriteString(strings.Repeat(" ", 2+2*min(k, 1)) + line + "\n")
			}
			for _, line := range wrapWords(r[cols-1], max(20, width-6)) {
				b.WriteString("      " + line + "\n")
			}
		}
		return
	}
	for _, r := range rows {
		b.WriteString("  ")
		for c, w := range widths {
			fmt.Fprintf(b, "%-*s  ", w, r[c])
		}
		lines := []string{r[cols-1]}
		if width > 0 {
			lines = wrapWords(r[cols-1], max(30, width-indent))
		}
		for k, line := range lines {
			if k > 0 {
				b.WriteString(strings.Repeat(" ", indent))
			}
			b.WriteString(line)
			b.WriteByte('\n')
		}
	}
}

// wrapWords breaks s into lines of at most width characters, at spaces;
// a word longer than width has a line of its own.
func wrapWords(s string, width int) []string {
	var lines []string
	line := ""
	for _, word := range strings.Fields(s) {
		switch {
		case line == "":
			line = word
		case utf8.RuneCountInString(line)+1+utf8.RuneCountInString(word) <= width:
			line += " " + word
		default:
			lines = append(lines, line)
			line = word
		}
	}
	return append(lines, line)
}

// WriteAlgos writes the parameters of the named algorithms (every
// registered one if none):
// key, unit, value in e (what it sets, else the default for its network),
// and meaning.
func WriteAlgos(w io.Writer, e *experiments.Experiment, names ...string) error {
	if len(names) == 0 {
		names = algos.Names()
	}
	n := e.SchemeNetwork()
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintf(tw, "Values for %s: %s bottleneck, %d sources, %s buffer, %s frames.\n",
		e.Name, units.FormatRate(n.Capacity), n.Sources, units.FormatBytes(n.Buffer), units.FormatBytes(n.FrameBytes))
	fmt.Fprintln(tw, "\"set\" marks a value the experiment sets; the others are the defaults for its network.")
	for _, name := range names {
		sc, err := algos.Lookup(name)
		if err != nil {
			return err
		}
		v, err := sc.Resolve(n, e.Params[name])
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		fmt.Fprintf(tw, "\n%s (%s), source %s: %s\n", name, sc.Display, sc.Ref, withNote(sc))
		fmt.Fprintf(tw, "  [params.%s]\tunit\tvalue\t\tmeaning\n", name)
		for _, p := range sc.Params {
			set := ""
			if _, ok := e.Params[name][p.Key]; ok {
				set = "set"
			}
			fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\t%s\n", p.Key, p.Unit(), units.FormatParam(p, v[p.Key]), set, p.Doc)
		}
		if len(sc.Readings) > 0 {
			fmt.Fprintf(tw, "  Readings of the seed:\n")
			for _, r := range sc.Readings {
				fmt.Fprintf(tw, "  * %s\n", r)
			}
		}
	}
	return tw.Flush()
}

// withNote is a scheme's summary and, if it has one, its note on where its
// defaults fit.
func withNote(sc *algos.Scheme) string {
	if sc.Note == "" {
		return sc.Summary
	}
	return sc.Summary + ". Note: " + sc.Note
}

// firstSentence ends at a full stop followed by a capital, so that "eqs. 9"
// does not end it.
func firstSentence(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	for i := 0; i+2 < len(s); i++ {
		if s[i] == '.' && s[i+1] == ' ' && s[i+2] >= 'A' && s[i+2] <= 'Z' {
			return s[:i+1]
		}
	}
	return s
}
