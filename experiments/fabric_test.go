package experiments

import (
	"bytes"
	"reflect"
	"strings"
	"testing"
)

func parseFabric(t *testing.T, text string) *Experiment {
	t.Helper()
	e, err := Parse("fabric.toml", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// A fabric saved and loaded back builds the same configuration: topology,
// routes, flows and parameters.
func TestFabricSaveReload(t *testing.T) {
	for _, text := range []string{
		"name = \"ft\"\n[network]\ntopology = \"fat_tree\"\nk = 4\nhop_delay = \"uniform(1us, 3us)\"\nrouting = \"spray\"\nspray = \"random\"\n",
		"name = \"ls\"\n[network]\ntopology = \"leaf_spine\"\nleaves = 3\nspines = 2\nhosts_per_leaf = 4\nuplink_capacity = \"40Gbps\"\npfc = true\n[traffic]\npattern = \"incast\"\nincast_from = [5, 9]\nincast_to = 1\nflow_size = \"100KB\"\nincast_jitter = \"10us\"\n[[flows]]\nfrom = 0\nto = 11\nstop = \"50ms\"\n",
		"name = \"cu\"\n[network]\ntopology = \"custom\"\n[[network.node]]\nname = \"s\"\nkind = \"switch\"\ntier = \"tor\"\nlevel = 1\n[[network.link]]\na = \"h0\"\nb = \"s\"\n[[network.link]]\na = \"h1\"\nb = \"s\"\nbuffer = \"64KB\"\n[traffic]\npattern = \"all_to_all\"\nload = 0.2\n",
	} {
		e := parseFabric(t, text)
		var b bytes.Buffer
		if err := e.Encode(&b); err != nil {
			t.Fatal(err)
		}
		if strings.Contains(b.String(), "[sources]") || strings.Contains(b.String(), "rtt =") {
			t.Errorf("%s: a saved fabric carries the chains' keys:\n%s", e.Name, b.String())
		}
		back, err := Parse("saved.toml", b.Bytes())
		if err != nil {
			t.Fatalf("%s: the saved file does not load: %v\n%s", e.Name, err, b.String())
		}
		want, err := e.Config("qcn")
		if err != nil {
			t.Fatal(err)
		}
		got, err := back.Config("qcn")
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got.Fabric.Flows, want.Fabric.Flows) || !reflect.DeepEqual(got.Params, want.Params) ||
			!reflect.DeepEqual(got.Fabric.Topology.Ports, want.Fabric.Topology.Ports) || got.Fabric.Routing != want.Fabric.Routing ||
			got.Fabric.Spray != want.Fabric.Spray || !reflect.DeepEqual(got.PFC, want.PFC) {
			t.Errorf("%s: the saved experiment builds another configuration", e.Name)
		}
	}
}

// The patterns: a permutation is a derangement of the hosts; an incast's
// senders are drawn away from the receiver's switch; explicit flows follow
// the pattern's; a greedy flow has no size.
func TestFabricPatterns(t *testing.T) {
	e := parseFabric(t, "name = \"p\"\n[network]\ntopology = \"fat_tree\"\nk = 4\n")
	f, err := e.Fabric()
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Flows) != 16 {
		t.Fatalf("%d flows, want a permutation of 16 hosts", len(f.Flows))
	}
	seen := map[int]bool{}
	for _, fl := range f.Flows {
		if fl.From == fl.To || seen[fl.To] || fl.Size != 0 {
			t.Fatalf("not a greedy derangement: %+v", f.Flows)
		}
		seen[fl.To] = true
	}
	e = parseFabric(t, "name = \"i\"\n[network]\ntopology = \"leaf_spine\"\nleaves = 4\nspines = 2\nhosts_per_leaf = 4\n[traffic]\npattern = \"incast\"\nincast_senders = 12\nincast_to = 2\nflow_size = \"64KB\"\n[[flows]]\nfrom = 1\nto = 3\n")
	if f, err = e.Fabric(); err != nil {
		t.Fatal(err)
	}
	if len(f.Flows) != 13 {
		t.Fatalf("%d flows, want 12 incast flows and one more", len(f.Flows))
	}
	for _, fl := range f.Flows[:12] {
		if fl.To != 2 || fl.From < 4 || fl.Size != 64e3 || !fl.Incast {
			t.Errorf("incast flow %+v: want from a host off leaf 0, 64 KB, to host 2", fl)
		}
	}
	if last := f.Flows[12]; last.From != 1 || last.To != 3 || last.Size != 0 || last.Incast {
		t.Errorf("the explicit flow is %+v", last)
	}
	// All to all on 4 hosts: 12 flows.
	e = parseFabric(t, "name = \"a\"\n[network]\ntopology = \"leaf_spine\"\nleaves = 2\nspines = 1\nhosts_per_leaf = 2\n[traffic]\npattern = \"all_to_all\"\n")
	if f, err = e.Fabric(); err != nil || len(f.Flows) != 12 {
		t.Errorf("all to all: %d flows, %v", len(f.Flows), err)
	}
}

// Absurd fabrics are refused at load, by key, before anything is built.
func TestFabricBounds(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"[network]\ntopology = \"fat_tree\"\nk = 1000000", "fabric.toml:4: network.k: 1000000: 2.5e+17 hosts (k^3/4); the most is 65536, at k = 64"},
		{"[network]\ntopology = \"fat_tree\"\nk = 2000000000", "fabric.toml:4: network.k: 2000000000: 2e+27 hosts (k^3/4); the most is 65536, at k = 64"},
		{"[network]\ntopology = \"fat_tree\"\nk = 0", "fabric.toml:4: network.k: 0: k must be even, 2 or more"},
		{"[network]\ntopology = \"leaf_spine\"\nleaves = 1000000000\nspines = 1\nhosts_per_leaf = 1", "fabric.toml:4: network.leaves: must be from 1 to 4096"},
		{"[network]\ntopology = \"leaf_spine\"\nleaves = 4096\nspines = 1\nhosts_per_leaf = 4096", "network.topology: 16777216 hosts; the most is 65536"},
		{"[network]\ntopology = \"fat_tree\"\nk = 40\n[traffic]\npattern = \"all_to_all\"", "fabric.toml:6: traffic.pattern: 255984000 flows"},
		{"[network]\ntopology = \"fat_tree\"\nk = 32\nbuffer = \"1GB\"", "fabric.toml:5: network.buffer: a run would need"},
		{"[network]\ntopology = \"fat_tree\"\nk = 4\n[sources]\ncount = 3", "fabric.toml:5: sources: a fat_tree fabric has no sources"},
		{"[network]\ntopology = \"fat_tree\"\nk = 4\nspray = \"random\"", "fabric.toml:5: network.spray: applies with network.routing = \"spray\""},
		{"[network]\ntopology = \"fat_tree\"\nk = 4\nleaves = 2", "fabric.toml:5: network.leaves: applies to topology = \"leaf_spine\""},
		{"[network]\ntopology = \"fat_tree\"\nk = 4\n[traffic]\npattern = \"none\"", "traffic.pattern: the fabric has no flows"},
		{"model = \"fluid\"\n[network]\ntopology = \"fat_tree\"\nk = 4", "network.topology: the fluid model has one bottleneck"},
	} {
		_, err := Parse("fabric.toml", []byte("name = \"x\"\n"+c.text))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v\nwant %q", c.text, err, c.want)
		}
	}
}

// A sweep over a fabric's size runs each size.
func TestFabricSweep(t *testing.T) {
	e := parseFabric(t, "name = \"s\"\nduration = \"2ms\"\n[network]\ntopology = \"fat_tree\"\n[sweep]\nnetwork.k = [2, 4]\n")
	runs, err := e.Runs()
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range []int{2, 16} {
		f, err := runs[i].Exp.Fabric()
		if err != nil || len(f.Topology.Hosts) != want {
			t.Errorf("run %d: %v hosts, %v", i, len(f.Topology.Hosts), err)
		}
	}
}
