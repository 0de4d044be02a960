package tui

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"qcnlab/algos"
)

// The README's workbench section names the algorithm bar's defaults as the
// program has them.
func TestREADMENamesTheBarDefaults(t *testing.T) {
	data, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Join(strings.Fields(string(data)), " ")
	m := regexp.MustCompile(`the algorithm bar: the experiment's algorithms, then ([^,]+(?:, [^,]+)*?) and ([^,]+), nine at most`).FindStringSubmatch(text)
	if m == nil {
		t.Fatal("README.md does not list the algorithm bar's defaults in the expected form")
	}
	said := append(strings.Split(m[1], ", "), m[2])
	var want []string
	for _, name := range barDefaults {
		sc, err := algos.Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		want = append(want, sc.Display)
	}
	if strings.Join(said, ", ") != strings.Join(want, ", ") {
		t.Errorf("the README says the bar offers %s; the program offers %s", strings.Join(said, ", "), strings.Join(want, ", "))
	}
	if len(barDefaults) > 9 {
		t.Errorf("%d defaults: more than the keys 1 to 9 choose", len(barDefaults))
	}
}
