package experiments

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"qcnlab/experiments/keys"
)

// elementIndex is the index of an element of an array of tables in a key:
// "flows[2].to" is key "flows.to" of element 2.
var elementIndex = regexp.MustCompile(`\[\d+\]`)

// scopeErrors reports every key set (in a file, by --set or by a sweep)
// that the experiment's topology does not read (the registry's
// Topologies), once per key or table that does not apply, at the first
// place a key in it was set: a key set where it does not apply would be
// silently ignored.
func (e *Experiment) scopeErrors(bad func(key, format string, args ...any)) {
	topology := e.Network.Topology
	if !slices.Contains(Topologies, topology) {
		return // reported as such
	}
	set := sortedKeys(e.origin)
	for _, s := range scopes() {
		if s.AppliesTo(topology) {
			continue
		}
		for _, key := range set {
			plain := elementIndex.ReplaceAllString(key, "")
			if plain != s.Path && !strings.HasPrefix(plain, s.Path+".") {
				continue
			}
			bad(key, "%s", scopeMessage(s.Path, s.Topologies, topology))
			break
		}
	}
}

// scopes are the keys that apply to some topologies only, each but those
// inside a table of the same scope (the table's error covers them).
func scopes() []*keys.Key {
	var out []*keys.Key
	for i := range keys.All {
		k := &keys.All[i]
		if k.Topologies == nil {
			continue
		}
		if n := len(out); n > 0 && strings.HasPrefix(k.Path, out[n-1].Path+".") && slices.Equal(k.Topologies, out[n-1].Topologies) {
			continue
		}
		out = append(out, k)
	}
	return out
}

// scopeMessage says where a key applies and what to use instead.
func scopeMessage(key string, topologies []string, topology string) string {
	if slices.Equal(topologies, keys.Chains) && slices.Contains(keys.Fabrics, topology) {
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
