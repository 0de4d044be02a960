package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"qcnlab/experiments/outdir"
)

// run and reproduce refuse an --out the same way, with status 2: one in
// use by another run, and one with a symbolic link at an output name.
func TestRunAndReproduceRefuseOutAlike(t *testing.T) {
	busy := t.TempDir()
	held, err := outdir.Open(busy)
	if err != nil {
		t.Fatal(err)
	}
	defer held.Close()
	linked := t.TempDir()
	if err := os.Symlink("/etc/passwd", filepath.Join(linked, "summary.json")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/etc/passwd", filepath.Join(linked, "report.md")); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"run", "qcn-dumbbell", "--set", "duration=1ms", "--out", busy}, "in use by another qcnlab run"},
		{[]string{"reproduce", "002-fig8", "--quick", "--out", busy}, "in use by another qcnlab run"},
		{[]string{"run", "qcn-dumbbell", "--set", "duration=1ms", "--out", linked}, "summary.json: is a symbolic link"},
		{[]string{"reproduce", "002-fig8", "--quick", "--out", linked}, "report.md: is a symbolic link"},
	} {
		var stdout, stderr bytes.Buffer
		if code := run(c.args, &stdout, &stderr); code != exitUsage || !strings.Contains(stderr.String(), c.want) {
			t.Errorf("qcnlab %s: exit %d, stderr %q; want exit 2 and %q", strings.Join(c.args, " "), code, stderr.String(), c.want)
		}
	}
}
