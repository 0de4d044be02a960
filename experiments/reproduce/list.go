package reproduce

import (
	"fmt"
	"io"
	"text/tabwriter"
)

// WriteList lists the claims for --list, one a line in aligned columns:
// the id, the built-in experiment, then the source and its figure, last
// because a source's label can be long ("Zhu et al., CoNEXT 2016 section
// 3.2 (stability; ...)") and would push a column after it off the screen.
func WriteList(w io.Writer, claims []Claim) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	for _, cl := range claims {
		fmt.Fprintf(tw, "%s\t%s\t%s %s\n", cl.ID, cl.Experiment, RefLabel(cl.Ref), cl.Figure)
	}
	return tw.Flush()
}

// Judged is the last line of a reproduction: how many claims were judged,
// in how long, and where the report is.
func Judged(claims int, seconds float64, dir string) string {
	noun := "claims"
	if claims == 1 {
		noun = "claim"
	}
	return fmt.Sprintf("%d %s judged in %.0f s; report in %s/report.md", claims, noun, seconds, dir)
}
