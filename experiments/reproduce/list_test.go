package reproduce

import (
	"strings"
	"testing"
)

// Every claim's experiment starts in the same column of --list, however
// long the source before it was (the CoNEXT labels pushed it right).
func TestListColumnsAlign(t *testing.T) {
	var b strings.Builder
	if err := WriteList(&b, Claims()); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	if len(lines) != len(Claims()) {
		t.Fatalf("%d lines for %d claims", len(lines), len(Claims()))
	}
	col := -1
	for i, l := range lines {
		cl := Claims()[i]
		at := strings.Index(l, "  "+cl.Experiment+"  ") + 2
		if at < 2 || !strings.HasPrefix(l, cl.ID+" ") || !strings.HasSuffix(l, RefLabel(cl.Ref)+" "+cl.Figure) {
			t.Fatalf("line %q: want %s, %s, then %s %s", l, cl.ID, cl.Experiment, RefLabel(cl.Ref), cl.Figure)
		}
		if col >= 0 && at != col {
			t.Errorf("line %q: the experiment at column %d, not %d", l, at, col)
		}
		col = at
	}
}

func TestJudgedCountsInTheRightNumber(t *testing.T) {
	if got := Judged(1, 12, "out"); got != "1 claim judged in 12 s; report in out/report.md" {
		t.Errorf("%q", got)
	}
	if got := Judged(3, 12, "out"); !strings.HasPrefix(got, "3 claims judged") {
		t.Errorf("%q", got)
	}
}
