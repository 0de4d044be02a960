package experiments_test

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"qcnlab/experiments"
)

// measuredBuiltins are the built-ins whose descriptions' numbers the tests
// of this package measure (fabric_builtins_test.go,
// transport_builtins_test.go).
var measuredBuiltins = []string{
	"qcn-incast-leaf-spine", "ecmp-collisions-fat-tree", "pfc-spreading-fat-tree", "dcqcn-vs-qcn", "dcqcn-incast",
	"dctcp-two-bottlenecks", "hpcc-vs-dcqcn-incast", "ack-clocked-fabric",
}

var (
	readmeNumber   = regexp.MustCompile(`\d+(\.\d+)?`)
	thousandsComma = regexp.MustCompile(`(\d),(\d{3})\b`)
)

// numbers lists the numbers of a text, "16,242" read as 16242.
func numbers(text string) []string {
	return readmeNumber.FindAllString(thousandsComma.ReplaceAllString(text, "$1$2"), -1)
}

// The README's row of a built-in whose description its test measures
// quotes no number the description does not: so each number the row
// quotes is measured, through the description, and cannot drift.
func TestReadmeRowsQuoteTheirDescriptions(t *testing.T) {
	data, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, table, ok := strings.Cut(string(data), "\n## Built-in experiments")
	if !ok {
		t.Fatal("README.md has no section Built-in experiments")
	}
	table, _, _ = strings.Cut(table, "\n## ")
	for _, name := range measuredBuiltins {
		e, err := experiments.Builtin(name)
		if err != nil {
			t.Fatal(err)
		}
		quoted := numbers(e.Description)
		row := ""
		for _, line := range strings.Split(table, "\n") {
			if strings.HasPrefix(line, "| `"+name+"` |") {
				row = strings.TrimPrefix(line, "| `"+name+"` |")
			}
		}
		if row == "" {
			t.Errorf("README.md has no row for %s", name)
			continue
		}
		var stray []string
		for _, x := range numbers(row) {
			if !slices.Contains(quoted, x) && !slices.Contains(stray, x) {
				stray = append(stray, x)
			}
		}
		if len(stray) > 0 {
			t.Errorf("README, %s: numbers its description does not quote: %s", name, strings.Join(stray, ", "))
		}
	}
}
