package experiments

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
)

// A fabric too large to build is refused from its keys alone: the links,
// switch ports and routing tables its sizes make are counted, not built.
// A 4096 x 4096 leaf-spine made 16.8 M links in validation and ran out of
// memory; with 64 spines, its routes did.
func TestFabricBoundedBeforeBuilding(t *testing.T) {
	leafSpine := func(leaves, spines, hosts int, extra string) string {
		return fmt.Sprintf("duration = \"1ms\"\n[network]\ntopology = \"leaf_spine\"\nleaves = %d\nspines = %d\nhosts_per_leaf = %d\n%s", leaves, spines, hosts, extra)
	}
	for _, c := range []struct{ text, want string }{
		{leafSpine(4096, 4096, 1, ""), "exp.toml:4: network.leaves: 16781312 links; the most is 200000"},
		{leafSpine(4096, 64, 1, ""), "exp.toml:4: network.leaves: 266240 links; the most is 200000"},
		{leafSpine(3000, 64, 1, ""), "exp.toml:4: network.leaves: routing tables would need ~2.4GB"},
		{leafSpine(4096, 10, 4, ""), "exp.toml:4: network.leaves: routing tables would need ~1.2GB"},
		{leafSpine(64, 4096, 1, ""), "exp.toml:5: network.spines: 262208 links"},
		// PFC lists every port's feeders: a spine over 4,000 leaves has
		// 4,000 ports each fed by the 4,000 others.
		{leafSpine(4000, 12, 1, "pfc = true"), "exp.toml:4: network.leaves: routing tables and PFC's feeder lists would need"},
	} {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		_, err := Parse("exp.toml", []byte(c.text))
		runtime.ReadMemStats(&after)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: got %v\nwant %q", c.text, err, c.want)
		}
		if grew := after.TotalAlloc - before.TotalAlloc; grew > 20e6 {
			t.Errorf("%q: refusing it allocated %d bytes", c.text, grew)
		}
	}
	// The largest fabrics that are accepted still are.
	for _, text := range []string{leafSpine(4, 2, 4096, ""), "[network]\ntopology = \"fat_tree\"\nk = 40\n"} {
		e := Default()
		if err := e.decode("exp.toml", text, false); err != nil {
			t.Fatal(err)
		}
		var errs []error
		e.shapeErrors(func(key, format string, args ...any) { errs = append(errs, fmt.Errorf(format, args...)) })
		if len(errs) > 0 {
			t.Errorf("%q: %v", text, errs)
		}
	}
}

// Values that silently meant something else are errors: a flow without
// its hosts went to host 0, a watch count below 1 watched the default, a
// topology in pieces was accepted when no flow crossed the gap.
func TestSilentDefaultsRefused(t *testing.T) {
	const fabric = "[network]\ntopology = \"leaf_spine\"\n"
	const custom = "[network]\ntopology = \"custom\"\n" +
		"[[network.link]]\na = \"h0\"\nb = \"s0\"\n[[network.link]]\na = \"h1\"\nb = \"s0\"\n" +
		"[[network.link]]\na = \"h2\"\nb = \"s1\"\n[[network.link]]\na = \"h3\"\nb = \"s1\"\n"
	for _, c := range []struct{ text, want string }{
		{fabric + "[traffic]\npattern = \"none\"\n[[flows]]\nfrom = 1\n", "exp.toml:5: flows[0].to: missing: the host the flow goes to"},
		{fabric + "[traffic]\npattern = \"none\"\n[[flows]]\nto = 1\n", "exp.toml:5: flows[0].from: missing: the host the flow starts at"},
		{fabric + "[traffic]\npattern = \"none\"\n[[flows]]\nfrom = 1\nto = 2\n[[flows]]\nfrom = 3\n",
			"exp.toml:8: flows[1].to: missing"},
		{fabric + "[output]\nwatch_ports = 0\n", "exp.toml:4: output.watch_ports: 0: the time series follows at least 1 of the ports"},
		{fabric + "[output]\nwatch_ports = -1\n", "exp.toml:4: output.watch_ports: -1: the time series follows at least 1"},
		{fabric + "[output]\nwatch_flows = 0\n", "exp.toml:4: output.watch_flows: 0: the time series follows at least 1 of the flows"},
		{custom + "[traffic]\npattern = \"none\"\n[[flows]]\nfrom = 0\nto = 1\n",
			"exp.toml:3: network.link: no route from host 0 (h0) to host 2 (h2): the topology is disconnected"},
	} {
		_, err := Parse("exp.toml", []byte(c.text))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: got %v\nwant %q", c.text, err, c.want)
		}
	}
}

// Errors blame the key to change, and spell a key one way: with the
// element of an array of tables it is in, whatever found the problem.
func TestErrorsBlameTheRightKey(t *testing.T) {
	const custom = "[network]\ntopology = \"custom\"\n[[network.link]]\na = \"h0\"\nb = \"s0\"\ncapacity = \"5Tbps\"\n" +
		"[[network.link]]\na = \"h1\"\nb = \"s0\"\n"
	for _, c := range []struct{ text, want string }{
		// 12 of the 16 hosts are away from host 0's leaf.
		{"[network]\ntopology = \"leaf_spine\"\n[traffic]\npattern = \"incast\"\nincast_senders = 15\n",
			"exp.toml:5: traffic.incast_senders: incast: 15 senders into host 0, but 12 hosts are not under its switch"},
		{"[network]\ntopology = \"fat_tree\"\nk = 4\n[traffic]\npattern = \"none\"\nload = 10.0\nshort_flow_sizes = \"1B\"\n",
			"exp.toml:6: traffic.load: a run would need"},
		{custom, `exp.toml:6: network.link[0].capacity: rate "5Tbps" is above 1.6Tbps`},
		{strings.Replace(custom, "capacity = \"5Tbps\"\n", "", 1) + "capacity = \"5Tbps\"\n", `exp.toml:9: network.link[1].capacity: rate "5Tbps" is above`},
		{strings.Replace(custom, "capacity = \"5Tbps\"\n", "", 1) + "capacity = \"0.5bps\"\n", `exp.toml:9: network.link[1].capacity: must be at least 1bps`},
		{strings.Replace(custom, "capacity = \"5Tbps\"\n", "", 1) + "capcity = \"5Gbps\"\n", `exp.toml:9: network.link[1].capcity: unknown key`},
		{"[[sources.override]]\nids = [0]\n[[sources.override]]\nids = [1]\nline_rate = \"2Tbps\"", `exp.toml:5: sources.override[1].line_rate: rate "2Tbps" is above`},
	} {
		_, err := Parse("exp.toml", []byte(c.text))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: got %v\nwant %q", c.text, err, c.want)
		}
	}
}

// Names reach terminals and paths: control characters are refused in
// every name, path separators and ".." in the experiment's, which the
// workbench's default save path is made from.
func TestNamesAreText(t *testing.T) {
	const custom = "[network]\ntopology = \"custom\"\n[[network.node]]\nname = \"s0\"\nkind = \"switch\"\ntier = \"tor\"\n" +
		"[[network.link]]\na = \"h0\"\nb = \"s0\"\n[[network.link]]\na = \"h1\"\nb = \"s0\"\n"
	for _, c := range []struct{ text, want string }{
		{`name = "../../x"`, `exp.toml:1: name: "../../x" holds a path separator or ".."`},
		{`name = "a/b"`, `exp.toml:1: name: "a/b" holds a path separator`},
		{`name = ".."`, `exp.toml:1: name: ".." holds a path separator or ".."`},
		{`name = "x\u001b[2J"`, `exp.toml:1: name: "x\x1b[2J" holds a control character`},
		{`name = "a\u202eb"`, `exp.toml:1: name: "a\u202eb" holds a control character`},
		// A key is text from the file too: escaped in every error.
		{"[params.\"\\u001b[2J\"]\nx = 1", `exp.toml:1: params."\u001b[2J": unknown algorithm "\x1b[2J"`},
		{"description = \"a\\u001b]0;owned\\u0007\"", "exp.toml:1: description: holds a control character"},
		{strings.Replace(custom, `name = "s0"`, `name = "s0\u001b[2J"`, 1), `exp.toml:4: network.node[0].name: "s0\x1b[2J" holds a control character`},
		{strings.Replace(custom, `tier = "tor"`, `tier = "tor\u009b2J"`, 1), `exp.toml:6: network.node[0].tier: "tor\u009b2J" holds a control character`},
		{strings.Replace(custom, `b = "s0"`+"\n[[", `b = "s0\u0007"`+"\n[[", 1), `network.link[0].b: "s0\a" holds a control character`},
	} {
		_, err := Parse("exp.toml", []byte(c.text))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: got %v\nwant %q", c.text, err, c.want)
		}
		if err != nil && strings.ContainsAny(err.Error(), "\x1b\x07\u009b") {
			t.Errorf("%q: the error holds the control character raw: %q", c.text, err)
		}
	}
	// A name taken from the file's name is made safe, not refused.
	e, err := Parse("/tmp/a\x1b[2Jb..c.toml", []byte("seed = 2\n"))
	if err != nil || e.Name != "a_[2Jb__c" {
		t.Errorf("name from the file: %q, %v", e.Name, err)
	}
	// Descriptions keep their line breaks.
	if _, err := Parse("exp.toml", []byte("description = \"\"\"one\n\ttwo\"\"\"\n")); err != nil {
		t.Error(err)
	}
}

// A host's every event looks at each of its flows: all to all on 256
// hosts counts 7e9 events a second of simulated time, but costs as 2e11
// ordinary ones (measured 47 k events/s on 1,000 hosts against the 30 M
// the bound assumes), and is refused for it.
func TestEventsCountedByTheirCost(t *testing.T) {
	text := "duration = \"1s\"\n[network]\ntopology = \"leaf_spine\"\nleaves = 16\nspines = 2\nhosts_per_leaf = 16\n[traffic]\npattern = \"all_to_all\"\n"
	_, err := Parse("exp.toml", []byte(text))
	want := "exp.toml:8: traffic.pattern: a run would need ~2.3e+11 events (counted by their cost: each of a host's events looks at its 255 flows)"
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("got %v\nwant %s", err, want)
	}
}

// Short flows a host cannot drain stay alive, each a limiter its events
// look at: 1 B flows at a tenth of the load (131,000 flows in 150 us, a
// frame each) took 7 s for 0.57 M events, which the fuzzer found.
func TestShortFlowsAliveCounted(t *testing.T) {
	text := "duration = \"2ms\"\n[network]\ntopology = \"leaf_spine\"\nframe_size = \"64B\"\n[traffic]\npattern = \"permutation\"\nload = 0.1\nshort_flow_sizes = \"1B\"\n"
	_, err := Parse("exp.toml", []byte(text))
	want := "exp.toml:7: traffic.load: a run would need ~"
	if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "looks at its") {
		t.Errorf("got %v\nwant %s", err, want)
	}
}
