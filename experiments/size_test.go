package experiments

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The package root is the experiment file and what reads, checks and
// saves it; everything else has a package of its own. A root that grows
// past its budget is taking on another job.
func TestRootStaysWithinItsBudget(t *testing.T) {
	const budget = 2200 // lines of non-test Go
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	lines := 0
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		lines += bytes.Count(b, []byte("\n"))
	}
	if lines > budget {
		t.Errorf("the experiments root has %d lines of non-test code, over its budget of %d: move a job into a package", lines, budget)
	}
}
