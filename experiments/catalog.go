package experiments

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"qcnlab/algos"
	"qcnlab/units"
)

// WriteList writes the built-in experiments and the algorithms.
func WriteList(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "Built-in experiments (qcnlab show NAME prints one):")
	for _, name := range BuiltinNames() {
		e, err := Builtin(name)
		if err != nil {
			return err
		}
		fmt.Fprintf(tw, "  %s\t%s\n", name, firstSentence(e.Description))
	}
	fmt.Fprintln(tw, "\nAlgorithms (qcnlab algos NAME lists the parameters):")
	for _, name := range algos.Names() {
		sc, _ := algos.Lookup(name)
		fmt.Fprintf(tw, "  %s\t%s\tsource %s\t%s\n", name, sc.Display, sc.Ref, sc.Summary)
	}
	if waiting := algos.AwaitingTransport(); len(waiting) > 0 {
		fmt.Fprintln(tw, "\nNot runnable yet: ACK-clocked, they need the transport layer (qcnlab algos NAME lists the parameters):")
		for _, name := range waiting {
			sc, _ := algos.Describe(name)
			fmt.Fprintf(tw, "  %s\t%s\tsource %s\t%s\n", name, sc.Display, sc.Ref, sc.Summary)
		}
	}
	return tw.Flush()
}

// WriteAlgos writes the parameters of the named algorithms (all runnable
// ones if none; a named one may await the transport layer, and says so):
// key, unit, value in e (what it sets, else the default for its network),
// and meaning.
func WriteAlgos(w io.Writer, e *Experiment, names ...string) error {
	if len(names) == 0 {
		names = algos.Names()
	}
	n := e.SchemeNetwork()
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintf(tw, "Values for %s: %s bottleneck, %d sources, %s buffer, %s frames.\n",
		e.Name, units.FormatRate(n.Capacity), n.Sources, units.FormatBytes(n.Buffer), units.FormatBytes(n.FrameBytes))
	fmt.Fprintln(tw, "\"set\" marks a value the experiment sets; the others are the defaults for its network.")
	for _, name := range names {
		sc, err := algos.Describe(name)
		if err != nil {
			return err
		}
		v, err := sc.Resolve(n, e.Params[name])
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		fmt.Fprintf(tw, "\n%s (%s), source %s: %s\n", name, sc.Display, sc.Ref, sc.Summary)
		if sc.NeedsTransport() {
			fmt.Fprintf(tw, "  NOT RUNNABLE YET: %s is ACK-clocked and needs the transport layer, which the packet model does not have; experiments refuse it.\n", name)
		}
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
