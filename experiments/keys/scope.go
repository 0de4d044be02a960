package keys

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
)

// elementIndex is the index of an element of an array of tables in a key:
// "flows[2].to" is key "flows.to" of element 2.
var elementIndex = regexp.MustCompile(`\[\d+\]`)

// OutOfScope reports, among the keys set (sorted), the first of each key
// or table that topology does not read.
func OutOfScope(topology string, set []string, bad func(key, format string, args ...any)) {
	if !IsTopology(topology) {
		return // reported as such
	}
	plain := make([]string, len(set)) // once, not once per scoped key: a file may set 100,000 keys
	for i, key := range set {
		plain[i] = elementIndex.ReplaceAllString(key, "")
	}
	for _, s := range Scoped() {
		if s.AppliesTo(topology) {
			continue
		}
		for i, key := range set {
			if plain[i] == s.Path || strings.HasPrefix(plain[i], s.Path+".") {
				bad(key, "%s", s.Elsewhere(topology))
				break
			}
		}
	}
}

// Scoped are the keys that apply to some topologies only, each but those
// inside a table of the same scope (the table's error covers them).
func Scoped() []*Key {
	var out []*Key
	for i := range All {
		k := &All[i]
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

// Elsewhere says, for a file on topology, where the key applies and what
// to use instead.
func (k *Key) Elsewhere(topology string) string {
	key, topologies := k.Path, Named(k.Topologies)
	if slices.Equal(k.Topologies, chainsOnly) && IsFabric(topology) {
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
