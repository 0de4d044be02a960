package experiments

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
)

// chainTopologies are the topologies of sources behind a chain of links.
var chainTopologies = []string{"dumbbell", "parking_lot"}

// keyScopes says, for each key (or table) that only some topologies read,
// which ones do. A key set where it does not apply would be silently
// ignored, so it is an error naming the place and the key that set it.
// One row per key: the registry of keys takes it over whole.
var keyScopes = []struct {
	key        string   // a key, or a table and everything in it
	topologies []string // where it applies
}{
	{"network.rtt", chainTopologies},
	{"network.links", chainTopologies},
	{"sources", chainTopologies},
	{"network.uplink_capacity", []string{"leaf_spine"}},
	{"network.leaves", []string{"leaf_spine"}},
	{"network.spines", []string{"leaf_spine"}},
	{"network.hosts_per_leaf", []string{"leaf_spine"}},
	{"network.k", []string{"fat_tree"}},
	{"network.node", []string{"custom"}},
	{"network.link", []string{"custom"}},
	{"network.routing", FabricTopologies},
	{"network.spray", FabricTopologies},
	{"traffic.pattern", FabricTopologies},
	{"traffic.flow_size", FabricTopologies},
	{"traffic.incast_senders", FabricTopologies},
	{"traffic.incast_from", FabricTopologies},
	{"traffic.incast_to", FabricTopologies},
	{"traffic.incast_start", FabricTopologies},
	{"traffic.incast_jitter", FabricTopologies},
	{"traffic.load", FabricTopologies},
	{"flows", FabricTopologies},
	{"output.watch_ports", FabricTopologies},
	{"output.watch_flows", FabricTopologies},
}

// elementIndex is the index of an element of an array of tables in a key:
// "flows[2].to" is key "flows.to" of element 2.
var elementIndex = regexp.MustCompile(`\[\d+\]`)

// scopeErrors reports every key set (in a file, by --set or by a sweep)
// that the experiment's topology does not read, once per row of keyScopes,
// at the first place it was set.
func (e *Experiment) scopeErrors(bad func(key, format string, args ...any)) {
	topology := e.Network.Topology
	if !slices.Contains(Topologies, topology) {
		return // reported as such
	}
	set := sortedKeys(e.origin)
	for _, s := range keyScopes {
		if slices.Contains(s.topologies, topology) {
			continue
		}
		for _, key := range set {
			plain := elementIndex.ReplaceAllString(key, "")
			if plain != s.key && !strings.HasPrefix(plain, s.key+".") {
				continue
			}
			bad(key, "%s", scopeMessage(s.key, s.topologies, topology))
			break
		}
	}
}

// scopeMessage says where a key applies and what to use instead.
func scopeMessage(key string, topologies []string, topology string) string {
	if slices.Equal(topologies, chainTopologies) && slices.Contains(FabricTopologies, topology) {
		return fmt.Sprintf("a %s fabric has no %s: its delays are its links' (network.hop_delay, [[network.link]] delay) and its traffic is [traffic] pattern and [[flows]]",
			topology, key)
	}
	quoted := make([]string, len(topologies))
	for i, t := range topologies {
		quoted[i] = fmt.Sprintf("%q", t)
	}
	list := quoted[0]
	if n := len(quoted); n > 1 {
		list = strings.Join(quoted[:n-1], ", ") + " or " + quoted[n-1]
	}
	return fmt.Sprintf("applies to topology = %s, not %q", list, topology)
}
