package topology_test

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"qcnlab/algos"
	"qcnlab/experiments"
	"qcnlab/experiments/keys"
	"qcnlab/experiments/results"
	"qcnlab/model/topo"
)

// starIncast is DCTCP's single-switch incast, small: three senders of
// 64 KB each into host 0.
const starIncast = `name = "star-incast"
duration = "10ms"
algorithms = ["dctcp"]
[network]
topology = "star"
hosts = 4
buffer = "100KB"
[traffic]
pattern = "incast"
incast_senders = 3
flow_size = "64KB"
incast_start = "3ms"
`

func parseStar(t *testing.T, text string, sets ...string) *experiments.Experiment {
	t.Helper()
	e, err := experiments.Parse("star.toml", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range sets {
		if err := e.Set(s); err != nil {
			t.Fatal(err)
		}
	}
	if err := e.Validate(); err != nil {
		t.Fatal(err)
	}
	return e
}

// starOf is the topology the experiment builds.
func starOf(t *testing.T, e *experiments.Experiment) *topo.Topology {
	t.Helper()
	f, err := e.Fabric()
	if err != nil {
		t.Fatal(err)
	}
	return f.Topology
}

// A star is one switch and network.hosts hosts, each linked to it at
// network.capacity, its ports with network.buffer.
func TestStarIsOneSwitch(t *testing.T) {
	e := parseStar(t, starIncast)
	if !e.IsFabric() || e.FabricLabel() != "star of 4 hosts" {
		t.Errorf("a star: fabric %v, label %q", e.IsFabric(), e.FabricLabel())
	}
	tp := starOf(t, e)
	if len(tp.Hosts) != 4 || len(tp.Nodes) != 5 || len(tp.Links) != 4 {
		t.Fatalf("%d hosts, %d nodes, %d links; want 4, 5, 4", len(tp.Hosts), len(tp.Nodes), len(tp.Links))
	}
	sw := tp.Attach(0)
	for h := range tp.Hosts {
		if tp.Attach(h) != sw {
			t.Errorf("host %d is not under the switch", h)
		}
	}
	for _, p := range tp.Ports {
		if p.Capacity != 10e9 || p.Buffer != 100e3 || p.Delay != algos.Microsecond {
			t.Errorf("port %s: %g bps, %d B, delay %v; want the network's 10 Gbps, 100 KB, 1 us", p.Name, p.Capacity, p.Buffer, p.Delay)
		}
	}
	// Left out, network.hosts is 8; --set changes it.
	if n := len(starOf(t, parseStar(t, "[network]\ntopology = \"star\"\n")).Hosts); n != 8 {
		t.Errorf("default: %d hosts, want 8", n)
	}
	if n := len(starOf(t, parseStar(t, starIncast, "network.hosts=6")).Hosts); n != 6 {
		t.Errorf("--set network.hosts=6: %d hosts", n)
	}
}

// The incast on a star completes: every sender's bytes reach host 0
// through the receiver's one port.
func TestStarIncastCompletes(t *testing.T) {
	res, err := results.Execute(context.Background(), parseStar(t, starIncast), results.Options{})
	if err != nil {
		t.Fatal(err)
	}
	f := res.Runs[0].Flows
	if f == nil || f.IncastFlows != 3 || f.IncastCompleted == nil || *f.IncastCompleted != 3 || f.IncastCompletion == nil {
		t.Fatalf("incast: %+v", f)
	}
	// Three 64 KB flows through one 10 Gbps port take at least 157 us.
	if c := *f.IncastCompletion; c < 157e-6 || c > 5e-3 {
		t.Errorf("incast completion %g s", c)
	}
}

// network.hosts is a key like any other: saved and loaded back, swept, and
// refused where it is out of bounds or not the topology's, at its line.
func TestStarKeyEverywhere(t *testing.T) {
	e := parseStar(t, starIncast)
	var b bytes.Buffer
	if err := e.Encode(&b); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "\npfc = false\nhosts = 4\nrouting = \"ecmp\"\n") {
		t.Errorf("saved without network.hosts in its place:\n%s", b.String())
	}
	back, err := experiments.Parse("saved.toml", b.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if back.KeyText("network.hosts") != "4" || back.FabricLabel() != "star of 4 hosts" {
		t.Errorf("loaded back: network.hosts %s", back.KeyText("network.hosts"))
	}

	swept := parseStar(t, starIncast+"[sweep]\n\"network.hosts\" = [4, 8]\n")
	runs, err := swept.Runs()
	if err != nil || len(runs) != 2 {
		t.Fatalf("%d runs: %v", len(runs), err)
	}
	for i, want := range []int{4, 8} {
		if n := len(starOf(t, runs[i].Exp).Hosts); n != want || runs[i].Label() != "dctcp network.hosts="+[]string{"4", "8"}[i] {
			t.Errorf("run %s: %d hosts, want %d", runs[i].Label(), n, want)
		}
	}

	for _, c := range []struct{ text, want string }{
		{"[network]\ntopology = \"star\"\nhosts = 1\n", "star.toml:3: network.hosts: 1: a star has from 2 to 65536 hosts"},
		{"[network]\ntopology = \"star\"\nhosts = 1000000\n", "star.toml:3: network.hosts: 1000000: a star has from 2 to 65536 hosts"},
		{"[network]\ntopology = \"star\"\nhosts = \"many\"\n", `star.toml:3: network.hosts: a whole number, not the text "many"`},
		{"[network]\ntopology = \"fat_tree\"\nhosts = 4\n", `star.toml:3: network.hosts: applies to topology = "star", not "fat_tree"`},
		{"[network]\ntopology = \"star\"\nk = 4\n", `star.toml:3: network.k: applies to topology = "fat_tree", not "star"`},
		// 16,384 hosts fit; their PFC feeder lists, a switch's ports
		// squared, do not.
		{"[network]\ntopology = \"star\"\nhosts = 16384\npfc = true\n", "star.toml:3: network.hosts: routing tables and PFC's feeder lists would need ~3.5GB"},
	} {
		_, err := experiments.Parse("star.toml", []byte(c.text))
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%q: %v, want %q", c.text, err, c.want)
		}
	}
}

// A star is a fabric to the keys that apply to every fabric, and
// network.hosts its own key, as the workbench's pane and the README read it.
func TestStarIsRegistered(t *testing.T) {
	if !keys.IsFabric("star") || !strings.Contains(strings.Join(keys.Choices("network.topology"), " "), "star") {
		t.Errorf("star is not a fabric: %q", keys.Fabrics())
	}
	for _, path := range []string{"network.routing", "traffic.pattern", "flows", "output.watch_ports"} {
		if k, _ := keys.Lookup(path); !k.AppliesTo("star") {
			t.Errorf("%s does not apply to a star", path)
		}
	}
	k, ok := keys.Lookup("network.hosts")
	if !ok || k.Where() != "star" || k.Kind != keys.Count {
		t.Errorf("network.hosts: %+v", k)
	}
	if d := experiments.KeyDefaults()["network.hosts"]; d != "8" {
		t.Errorf("network.hosts defaults to %q", d)
	}
}
