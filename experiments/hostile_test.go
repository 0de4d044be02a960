package experiments

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"qcnlab/experiments/userfile"
)

// CDF files that are not small regular files, or whose sizes overflow a
// flow, are refused at load without being read whole.
func TestFlowSizesFileBounds(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("big.cdf", strings.Repeat("1 0\n", userfile.MaxText/4+1))
	write("huge-flow.cdf", "1 0\n1e30 100\n")
	if err := os.Mkdir(filepath.Join(dir, "folder.cdf"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ sizes, want string }{
		{"big.cdf", "big.cdf: is larger than 1MB"},
		{"huge-flow.cdf", `huge-flow.cdf:2: size "1e30" is above`},
		{"folder.cdf", "folder.cdf: not a regular file"},
		{"/dev/zero", "/dev/zero: not a regular file"},
		{"1e30B", `size "1e30B" is above`},
		{"-1B", `size "-1B" must not be negative`},
	} {
		text := "[traffic]\nshort_flow_rate = 10.0\nshort_flow_sizes = \"" + c.sizes + "\"\n"
		_, err := Parse(filepath.Join(dir, "bad.toml"), []byte(text))
		if err == nil || !strings.Contains(err.Error(), "bad.toml:3: traffic.short_flow_sizes: ") || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", c.sizes, err, c.want)
		}
	}
}

// An experiment saved elsewhere (--out DIR) still finds a CDF file named
// relative to the file it was loaded from, in [traffic] and in a sweep.
func TestSavedExperimentFindsItsCDF(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "my.cdf"), []byte("1000 0\n5000 50\n20000 100\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	text := "[traffic]\nshort_flow_rate = 10.0\nshort_flow_sizes = \"my.cdf\"\n" +
		"[sweep]\n\"traffic.short_flow_sizes\" = [\"my.cdf\", \"hadoop\"]\n"
	e, err := Parse(filepath.Join(dir, "exp.toml"), []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if err := e.Encode(&b); err != nil {
		t.Fatal(err)
	}
	other := t.TempDir()
	back, err := Parse(filepath.Join(other, "experiment.toml"), []byte(b.String()))
	if err != nil {
		t.Fatalf("the saved file does not load from another directory: %v", err)
	}
	want, _ := e.FlowSizes()
	got, err := back.FlowSizes()
	if err != nil || got.Mean() != want.Mean() {
		t.Errorf("mean flow size %v (%v), want %v", got, err, want.Mean())
	}
	if _, err := back.Runs(); err != nil {
		t.Errorf("sweep: %v", err)
	}
}
