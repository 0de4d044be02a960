package experiments

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestTrafficErrorsNameFileLineAndKey(t *testing.T) {
	dir := t.TempDir()
	cdf := filepath.Join(dir, "sizes.cdf")
	if err := os.WriteFile(cdf, []byte("0 0\n1000 60\n500 100\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ name, text, want string }{
		{"negative long flows", "[traffic]\nlong_flows = -1\n", "bad.toml:2: traffic.long_flows: must be from 0"},
		{"negative rate", "[traffic]\n\nshort_flow_rate = -5.0\n", "bad.toml:3: traffic.short_flow_rate: must be from 0"},
		{"unknown workload", "[traffic]\nshort_flow_rate = 10.0\nshort_flow_sizes = \"webserch\"\n",
			`bad.toml:3: traffic.short_flow_sizes: "webserch" is not a workload (websearch, hadoop)`},
		{"bad CDF", "[traffic]\nshort_flow_rate = 10.0\nshort_flow_sizes = \"sizes.cdf\"\n",
			"bad.toml:3: traffic.short_flow_sizes: " + cdf + ":3: sizes must not decrease"},
		{"fluid", "model = \"fluid\"\n[traffic]\nlong_flows = 2\n", "bad.toml:2: traffic: the fluid model"},
	} {
		_, err := Parse(filepath.Join(dir, "bad.toml"), []byte(c.text))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", c.name, err, c.want)
		}
	}
	// A good CDF file next to the experiment, and a fixed size.
	if err := os.WriteFile(cdf, []byte("# bytes pct\n0 0\n1000 60\n5000 100\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, sizes := range []string{"sizes.cdf", "1.25MB", "hadoop"} {
		e, err := Parse(filepath.Join(dir, "ok.toml"), []byte("[traffic]\nshort_flow_rate = 10.0\nshort_flow_sizes = \""+sizes+"\"\n"))
		if err != nil {
			t.Fatalf("%s: %v", sizes, err)
		}
		cfg, err := e.Config("qcn")
		if err != nil || cfg.Traffic == nil || cfg.Traffic.LongFlows != 1 || cfg.Traffic.ShortSizes == nil {
			t.Errorf("%s: config %+v, %v", sizes, cfg.Traffic, err)
		}
	}
}
