package experiments

import (
	"context"
	"encoding/json"
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

// Short flows come from the experiment seed: the same numbers whatever the
// number of workers, different with another seed.
func TestFlowsSameWhateverTheWorkers(t *testing.T) {
	text := `
duration = "20ms"
algorithms = ["qcn", "none"]
[network]
topology = "parking_lot"
[sources]
count = 3
[traffic]
long_flows = 2
short_flow_rate = 2000.0
short_flow_sizes = "hadoop"
[sweep]
seed = [1, 2]
`
	var outs []string
	for _, workers := range []int{1, 3} {
		res, err := Execute(context.Background(), mustParse(t, text), Options{Workers: workers})
		if err != nil {
			t.Fatal(err)
		}
		js, _ := json.Marshal(withoutWall(res))
		outs = append(outs, string(js))
		if f := res.Runs[0].Flows; f == nil || f.Started < 10 || f.Completed == 0 {
			t.Fatalf("flows %+v", f)
		}
		if a, b := res.Runs[0].Flows, res.Runs[2].Flows; a.Started == b.Started && a.FCTMean == b.FCTMean {
			t.Error("seeds 1 and 2 gave the same flows")
		}
	}
	if outs[0] != outs[1] {
		t.Error("results differ with the number of workers")
	}
}
