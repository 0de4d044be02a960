package experiments

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"qcnlab/algos"
)

// parkingLotText is seed 004's figure 4: sources 0 and 1 cross both links,
// source 2 only the first, source 3 only the second.
const parkingLotText = `
name = "pl"
duration = "200ms"
warmup = "100ms"
algorithms = ["qcn"]
[network]
topology = "parking_lot"
hop_delay = "50us"
[sources]
count = 4
[[sources.override]]
ids = [2]
path = [0]
[[sources.override]]
ids = [3]
path = [1]
[params.qcn]
q_eq = "33KB"
`

func TestParkingLotExperiment(t *testing.T) {
	e := mustParse(t, parkingLotText)
	cfg, err := e.Config("qcn")
	if err != nil {
		t.Fatal(err)
	}
	if len(cfg.Links) != 2 || cfg.Links[0].Delay != 50*algos.Microsecond || cfg.Links[1].Delay != 0 ||
		cfg.Links[1].Capacity != 10e9 || cfg.Links[1].Buffer != 150e3 {
		t.Errorf("links %+v", cfg.Links)
	}
	paths := [][]int{{0, 1}, {0, 1}, {0}, {1}}
	for i, s := range cfg.Sources {
		if !reflect.DeepEqual(s.Path, paths[i]) {
			t.Errorf("source %d path %v, want %v", i, s.Path, paths[i])
		}
	}
	assertRoundTrip(t, e)

	dir := t.TempDir()
	res, err := Execute(context.Background(), e, Options{OutDir: dir, Plot: "png"})
	if err != nil {
		t.Fatal(err)
	}
	r := res.Runs[0]
	if len(r.Bottlenecks) != 2 {
		t.Fatalf("%d bottlenecks", len(r.Bottlenecks))
	}
	// Three flows on each link: after QCN's start-up (about 60 ms from
	// line rate) both links are congested and busy.
	for _, b := range r.Bottlenecks {
		if b.Utilization < 0.9 || b.QueueMean == 0 {
			t.Errorf("%s: utilization %.3f queue mean %.0f", b.Name, b.Utilization, b.QueueMean)
		}
	}
	series, _ := os.ReadFile(filepath.Join(dir, "timeseries.csv"))
	if !strings.HasPrefix(string(series), "algorithm,time_s,queue_sw0_bytes,queue_sw1_bytes,rate_0_bps,") {
		t.Errorf("header %q", strings.SplitN(string(series), "\n", 2)[0])
	}
}

func TestTopologyErrors(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"[network]\nlinks = 2\n", "bad.toml:2: network.links: a dumbbell has one congestible link"},
		{"[network]\ntopology = \"ring\"\n", "bad.toml:2: network.topology: \"ring\" is not available"},
		{"model = \"fluid\"\n[network]\ntopology = \"parking_lot\"\n", "network.links: the fluid model has one bottleneck"},
		{"[network]\ntopology = \"parking_lot\"\n[sources]\npath = [1, 0]\n", "bad.toml:4: sources.path: [1 0] is not a run of consecutive links from 0 to 1"},
		{"[network]\ntopology = \"parking_lot\"\nlinks = 3\n[[sources.override]]\nids = [0]\npath = [2, 3]\n", "bad.toml:4: sources.override[0].path: [2 3] is not a run"},
	} {
		_, err := Parse("bad.toml", []byte(c.text))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want %q", c.text, err, c.want)
		}
	}
}
