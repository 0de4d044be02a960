package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// A script that expects qcnlab to fail says with which status (status N
// qcnlab ...): "! exec" would accept 1 where 2 is the contract, or a crash.
func TestScriptsAssertExitStatus(t *testing.T) {
	files, err := filepath.Glob("testdata/script/*.txtar")
	if err != nil || len(files) == 0 {
		t.Fatal("no scripts", err)
	}
	negated := regexp.MustCompile(`^!\s*exec\s+qcnlab\b`)
	for _, name := range files {
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		script, _, _ := strings.Cut(string(data), "\n-- ")
		for i, line := range strings.Split(script, "\n") {
			if negated.MatchString(strings.TrimSpace(line)) {
				t.Errorf("%s:%d: %q: say the status, status N qcnlab ...", name, i+1, line)
			}
		}
	}
}
