package keys

import (
	"slices"
	"strings"
	"testing"
)

// The topologies the rules' tests name, as package topology registers
// them (it cannot be imported here), with an own key for leaf_spine.
func init() {
	AddTopology(Topology{Name: "dumbbell", Order: 10})
	AddTopology(Topology{Name: "parking_lot", Order: 20})
	AddTopology(Topology{Name: "fat_tree", Fabric: true, Order: 20})
	AddTopology(Topology{Name: "custom", Fabric: true, Order: 30, Keys: []Key{
		{Path: "network.cable", Kind: Tables, Doc: "a cable"},
		{Path: "network.cable.a", Kind: Text, Doc: "one end"},
	}})
	AddTopology(Topology{Name: "leaf_spine", Fabric: true, Order: 10, Keys: []Key{{Path: "network.racks", Kind: Count, Doc: "racks"}}})
}

// A topology's place in the lists is its order's, whatever the order of
// registration; a family is read when asked.
func TestTopologiesInOrder(t *testing.T) {
	if got, want := Topologies(), []string{"dumbbell", "parking_lot", "leaf_spine", "fat_tree", "custom"}; !slices.Equal(got, want) {
		t.Errorf("topologies %q, want %q", got, want)
	}
	k, _ := Lookup("network.topology")
	if want := "dumbbell or parking_lot (a chain of bottlenecks); leaf_spine, fat_tree or custom (a fabric)"; k.Doc != want || !slices.Equal(k.Choices, Topologies()) {
		t.Errorf("network.topology: %q %q", k.Doc, k.Choices)
	}
	routing, _ := Lookup("network.routing")
	if !routing.AppliesTo("custom") || routing.AppliesTo("dumbbell") || routing.Where() != "fabrics" {
		t.Errorf("network.routing applies to %q", routing.Where())
	}
	if got, want := routing.Elsewhere("dumbbell"), `applies to topology = "leaf_spine", "fat_tree" or "custom", not "dumbbell"`; got != want {
		t.Errorf("network.routing on a dumbbell: %q, want %q", got, want)
	}
	// Own keys: the plain ones before the routing, the tables at the end
	// of [network].
	paths := Paths()
	racks, route, cable, sources := slices.Index(paths, "network.racks"), slices.Index(paths, "network.routing"), slices.Index(paths, "network.cable"), slices.Index(paths, "sources")
	if !(racks >= 0 && racks == route-1 && cable > route && paths[cable+1] == "network.cable.a" && cable+2 == sources) {
		t.Errorf("own keys out of place: %q", paths)
	}
	racksKey, _ := Lookup("network.racks")
	if !slices.Equal(racksKey.Topologies, []string{"leaf_spine"}) || racksKey.AppliesTo("fat_tree") {
		t.Errorf("network.racks applies to %q", racksKey.Topologies)
	}
}

// A key that names a topology no one registered is a mistake.
func TestUnknownTopologyIsAnError(t *testing.T) {
	k := Key{Path: "network.x", Kind: Count, Doc: "x", Topologies: []string{"torus"}}
	if err := k.Check(); err == nil || !strings.Contains(err.Error(), `unknown topology "torus"`) {
		t.Errorf("a key on an unregistered topology: %v", err)
	}
	for _, bad := range []Topology{
		{Name: "fat_tree", Fabric: true},
		{Name: OnFabrics},
		{Name: "torus", Fabric: true, Keys: []Key{{Path: "network.routing", Kind: Text, Doc: "taken"}}},
		{Name: "torus", Fabric: true, Keys: []Key{{Path: "traffic.x", Kind: Text, Doc: "not [network]'s"}}},
		{Name: "torus", Fabric: true, Keys: []Key{{Path: "network.x", Kind: Choice, Doc: "a choice without words"}}},
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%+v: registered", bad)
				}
			}()
			saved, savedAll := topologies, All
			defer func() { topologies, All = saved, savedAll }()
			AddTopology(bad)
		}()
	}
}
