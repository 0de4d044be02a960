package main

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// The README's FCT worked example is testdata/script/fct.txtar: the same
// experiment file, and the numbers it quotes are those the script asserts
// the command prints, so that neither can drift from the program.
func TestREADMEFCTExampleIsTheScript(t *testing.T) {
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	script, err := os.ReadFile("testdata/script/fct.txtar")
	if err != nil {
		t.Fatal(err)
	}
	_, example, ok := strings.Cut(string(readme), "A worked example, DCQCN against QCN on a k = 4 fat-tree")
	if !ok {
		t.Fatal("README.md has no FCT worked example")
	}
	_, toml, _ := strings.Cut(example, "```toml\n")
	toml, _, _ = strings.Cut(toml, "```\n")
	_, file, _ := strings.Cut(string(script), "-- fct.toml --\n")
	file, _, _ = strings.Cut(file, "\n-- ")
	if toml == "" || strings.TrimSpace(toml) != strings.TrimSpace(file) {
		t.Errorf("the README's fct.toml is not the script's:\nREADME:\n%s\nscript:\n%s", toml, file)
	}
	quoted := regexp.MustCompile(`\(DCQCN: (\d+) started, (\d+) completed, (\d+) unfinished at 20 ms; slowdown\s+p50 ([\d.]+), p95 ([\d.]+), p99 ([\d.]+) over all sizes\)`).
		FindStringSubmatch(example)
	if quoted == nil {
		t.Fatal("the README's FCT example quotes no DCQCN numbers in the expected form")
	}
	for _, want := range []string{
		"stdout '^  flows, seeds pooled +" + quoted[1] + " started, " + quoted[2] + " completed, 0 lost, " + quoted[3] + " unfinished; '",
		"stdout '^  FCT, all sizes +slowdown p50 " + quoted[4] + ", p95 " + quoted[5] + ", p99 " + quoted[6] + ", '",
	} {
		if !strings.Contains(string(script), want+"\n") {
			t.Errorf("testdata/script/fct.txtar does not assert the README's numbers: no line\n%s", want)
		}
	}
}
