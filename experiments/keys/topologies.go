package keys

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
)

// The families of topologies, as Key.Topologies and Cross.Topologies name
// them: every topology of the family, however many are registered, read
// when asked.
const (
	OnChains  = "chains"
	OnFabrics = "fabrics"
)

// A Topology is what the registry holds of a topology network.topology may
// name (package topology registers each with AddTopology).
type Topology struct {
	Name string
	// Fabric is hosts and switches with flows between them; else a chain
	// of bottlenecks behind sources.
	Fabric bool
	// Order places it in lists (network.topology's words, the errors that
	// name where a key applies, qcnlab help keys, the README): smaller
	// first, a family's topologies together, the chains first.
	Order int
	// Keys are its own keys, which apply to it alone (AddTopology writes
	// their Topologies), in the order help keys lists them. Their plain
	// keys go after the keys of [network] every topology reads, before the
	// routing; their arrays of tables at the end of [network], as a saved
	// file writes them.
	Keys []Key
}

// The places of the topologies' own keys in All: their plain keys before
// ownKeysBefore, their arrays of tables before ownTablesBefore.
const (
	ownKeysBefore   = "network.routing"
	ownTablesBefore = "sources"
)

// topologies are those registered, in list order.
var topologies []Topology

// AddTopology registers a topology and its own keys in All. It panics on a
// mistake in the program: a name taken, an own key that is already a key or
// is not a sound entry.
func AddTopology(t Topology) {
	if t.Name == "" || t.Name == OnChains || t.Name == OnFabrics || IsTopology(t.Name) {
		panic(fmt.Sprintf("keys: topology %q: a name taken, or none", t.Name))
	}
	t.Keys = slices.Clone(t.Keys)
	for i := range t.Keys {
		k := &t.Keys[i]
		if k.Topologies != nil || !strings.HasPrefix(k.Path, "network.") {
			panic(fmt.Sprintf("keys: %s: a topology's own key is a key of [network] and applies to it alone", k.Path))
		}
		if _, taken := Lookup(k.Path); taken || slices.ContainsFunc(t.Keys[:i], func(o Key) bool { return o.Path == k.Path }) {
			panic("keys: " + k.Path + " is registered twice")
		}
		if err := k.Check(); err != nil {
			panic("keys: " + err.Error())
		}
		k.Topologies = []string{t.Name}
	}
	topologies = append(topologies, t)
	slices.SortStableFunc(topologies, func(a, b Topology) int {
		if a.Fabric != b.Fabric {
			if a.Fabric {
				return 1
			}
			return -1
		}
		return cmp.Compare(a.Order, b.Order)
	})
	All = build()
}

// build is the table with every registered topology's own keys in their
// places, and network.topology's words.
func build() []Key {
	var out []Key
	own := func(tables bool) {
		for _, t := range topologies {
			for _, k := range t.Keys {
				inTables := k.Kind == Tables || slices.ContainsFunc(t.Keys, func(a Key) bool {
					return a.Kind == Tables && strings.HasPrefix(k.Path, a.Path+".")
				})
				if inTables == tables {
					out = append(out, k)
				}
			}
		}
	}
	for _, k := range table {
		switch k.Path {
		case ownKeysBefore:
			own(false)
		case ownTablesBefore:
			own(true)
		case "network.topology":
			k.Choices = Topologies()
			k.Doc = orList(Chains()) + " (a chain of bottlenecks); " + orList(Fabrics()) + " (a fabric)"
		}
		out = append(out, k)
	}
	return out
}

// orList is "a, b or c".
func orList(words []string) string {
	if n := len(words); n > 1 {
		return strings.Join(words[:n-1], ", ") + " or " + words[n-1]
	}
	return strings.Join(words, "")
}

// Chains lists the chain topologies, in list order.
func Chains() []string { return family(false) }

// Fabrics lists the fabric topologies, in list order.
func Fabrics() []string { return family(true) }

func family(fabric bool) []string {
	var out []string
	for _, t := range topologies {
		if t.Fabric == fabric {
			out = append(out, t.Name)
		}
	}
	return out
}

// Topologies lists every topology network.topology may name: the chains,
// then the fabrics.
func Topologies() []string { return slices.Concat(Chains(), Fabrics()) }

// IsTopology reports whether a topology of that name is registered.
func IsTopology(name string) bool {
	return slices.ContainsFunc(topologies, func(t Topology) bool { return t.Name == name })
}

// IsFabric reports whether name is a registered fabric.
func IsFabric(name string) bool { return slices.Contains(Fabrics(), name) }

// Named lists the topologies a Topologies list names, its families
// written out; nil for nil (every topology).
func Named(list []string) []string {
	if list == nil {
		return nil
	}
	out := []string{}
	for _, t := range list {
		switch t {
		case OnChains:
			out = append(out, Chains()...)
		case OnFabrics:
			out = append(out, Fabrics()...)
		default:
			out = append(out, t)
		}
	}
	return out
}
