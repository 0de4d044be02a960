package topo

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"qcnlab/algos"
)

const us = algos.Microsecond

func fatTree(t *testing.T, k int) *Topology {
	t.Helper()
	ft, err := FatTree(k, 10e9, 150e3, Uniform(us))
	if err != nil {
		t.Fatal(err)
	}
	return ft
}

func TestFatTreeShape(t *testing.T) {
	for _, k := range []int{2, 4, 8} {
		ft := fatTree(t, k)
		hosts, switches := 0, 0
		for _, n := range ft.Nodes {
			if n.Kind == Host {
				hosts++
			} else {
				switches++
			}
		}
		// k pods of k/2 edge and k/2 aggregation switches, (k/2)^2 cores.
		if hosts != k*k*k/4 || switches != k*k+k*k/4 || len(ft.Hosts) != hosts {
			t.Errorf("k=%d: %d hosts, %d switches", k, hosts, switches)
		}
		// Every switch has k ports (a k = 2 core, two).
		for i, n := range ft.Nodes {
			if n.Kind == Switch && len(ft.Out(i)) != k {
				t.Errorf("k=%d: %s has %d ports", k, n.Name, len(ft.Out(i)))
			}
		}
	}
	ft := fatTree(t, 4)
	// Pod-major, edge-major: hosts 0-1 under edge0.0, 2-3 under edge0.1,
	// 4-5 under edge1.0.
	for h, want := range map[int]string{0: "edge0.0", 1: "edge0.0", 2: "edge0.1", 4: "edge1.0", 15: "edge3.1"} {
		if got := ft.Nodes[ft.Attach(h)].Name; got != want {
			t.Errorf("host %d is under %s, want %s", h, got, want)
		}
	}
	var names []string
	tiers := map[string]int{}
	for _, p := range ft.Ports {
		names = append(names, p.Name)
		tiers[p.Tier]++
	}
	for _, want := range []string{"h5->edge1.0", "edge1.0->h5", "edge0.1->agg0.0", "agg0.1->core2", "core2->agg3.1"} {
		if !slices.Contains(names, want) {
			t.Errorf("no port %s", want)
		}
	}
	// 16 of each: host links, edge up, agg up, core down, agg down, edge down.
	for _, tier := range []string{"host", "edge up", "agg up", "core down", "agg down", "edge down"} {
		if tiers[tier] != 16 {
			t.Errorf("tier %q has %d ports, want 16 (all: %v)", tier, tiers[tier], tiers)
		}
	}
	for _, k := range []int{3, 0, -2} {
		if _, err := FatTree(k, 10e9, 150e3, nil); err == nil || !strings.Contains(err.Error(), "even") {
			t.Errorf("k=%d: %v", k, err)
		}
	}
}

func TestLeafSpineShape(t *testing.T) {
	ls, err := LeafSpine(3, 2, 4, 10e9, 40e9, 150e3, Uniform(2*us))
	if err != nil {
		t.Fatal(err)
	}
	if len(ls.Hosts) != 12 || len(ls.Links) != 12+6 {
		t.Fatalf("%d hosts, %d links", len(ls.Hosts), len(ls.Links))
	}
	if got := ls.Nodes[ls.Attach(5)].Name; got != "leaf1" {
		t.Errorf("host 5 under %s, want leaf1", got)
	}
	for _, p := range ls.Ports {
		switch p.Name {
		case "leaf0->spine1":
			if p.Capacity != 40e9 || p.Tier != "leaf up" || p.Delay != 2*us {
				t.Errorf("%+v", p)
			}
		case "leaf1->h5":
			if p.Capacity != 10e9 || p.Tier != "leaf down" {
				t.Errorf("%+v", p)
			}
		case "spine0->leaf2":
			if p.Tier != "spine down" {
				t.Errorf("%+v", p)
			}
		}
	}
}

func TestCustomValidation(t *testing.T) {
	sw := func(n string) Node { return Node{Name: n, Kind: Switch} }
	h := func(n string) Node { return Node{Name: n, Kind: Host} }
	ok := []Node{h("a"), h("b"), sw("s"), sw("t")}
	for _, c := range []struct {
		nodes []Node
		links []Link
		want  string
	}{
		{ok, []Link{Duplex("a", "s", 1e9, 0, 0), Duplex("b", "x", 1e9, 0, 0)}, `link 1 (b-x): unknown node "x"`},
		{ok, []Link{Duplex("a", "s", 1e9, 0, 0), Duplex("b", "s", 1e9, 0, 0), Duplex("a", "t", 1e9, 0, 0)}, `host "a" has 2 links`},
		{ok, []Link{Duplex("a", "s", 1e9, 0, 0)}, `host "b" has 0 links`},
		{ok, []Link{Duplex("a", "b", 1e9, 0, 0)}, "joins two hosts"},
		{ok, []Link{Duplex("a", "s", 0, 0, 0), Duplex("b", "s", 1e9, 0, 0)}, "link 0 (a-s): the capacity must be positive"},
		{ok, []Link{Duplex("a", "s", 1e9, 0, 0), Duplex("b", "t", 1e9, 0, 0), {A: "s", B: "t", Capacity: 1e9, Delay: us, Back: 2 * us}},
			"link 2 (s-t): a link between switches has one delay both ways"},
		{append(ok, h("a")), []Link{Duplex("a", "s", 1e9, 0, 0), Duplex("b", "s", 1e9, 0, 0)}, `node "a" is named twice`},
	} {
		_, err := Custom(c.nodes, c.links)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: %v, want %q", c.links, err, c.want)
		}
	}
	// A link refused for joining two hosts is one error, not that one and
	// then each host's count of links without it.
	_, err := Custom(ok, []Link{Duplex("a", "b", 1e9, 0, 0)})
	if err == nil || strings.Contains(err.Error(), "links; a host has one") {
		t.Errorf("two hosts joined: %v, want the one error", err)
	}
}

func TestRoutesAreShortestAndEqualCost(t *testing.T) {
	ft := fatTree(t, 4)
	r := ft.Routes()
	for _, c := range []struct {
		src, dst, hops int
		paths          float64
	}{
		{0, 1, 1, 1},  // same edge switch
		{0, 2, 3, 2},  // same pod: up to either aggregation switch
		{0, 15, 5, 4}, // across the core: (k/2)^2 paths
	} {
		if got := r.Hops(c.src, c.dst); got != c.hops {
			t.Errorf("%d->%d: %d hops, want %d", c.src, c.dst, got, c.hops)
		}
		if got := r.Paths(c.src, c.dst); got != c.paths {
			t.Errorf("%d->%d: %g paths, want %g", c.src, c.dst, got, c.paths)
		}
		// Every ECMP path is a shortest path from src to dst; the keys
		// spread over every equal-cost one; a key always gives the same.
		seen := map[string]bool{}
		for key := uint64(0); key < 64; key++ {
			p := r.ECMP(c.src, c.dst, key)
			if len(p) != c.hops || ft.Ports[p[0]].From != ft.Attach(c.src) || ft.Ports[p[len(p)-1]].To != ft.Hosts[c.dst] {
				t.Fatalf("%d->%d key %d: path %v", c.src, c.dst, key, names(ft, p))
			}
			for i := 1; i < len(p); i++ {
				if ft.Ports[p[i]].From != ft.Ports[p[i-1]].To {
					t.Fatalf("%d->%d: path %v is not connected", c.src, c.dst, names(ft, p))
				}
			}
			if q := r.ECMP(c.src, c.dst, key); !slices.Equal(p, q) {
				t.Fatalf("key %d: %v then %v", key, p, q)
			}
			seen[fmt.Sprint(p)] = true
		}
		if float64(len(seen)) != c.paths {
			t.Errorf("%d->%d: 64 keys took %d of the %g paths", c.src, c.dst, len(seen), c.paths)
		}
	}
}

func names(t *Topology, path []int32) []string {
	var out []string
	for _, p := range path {
		out = append(out, t.Ports[p].Name)
	}
	return out
}

func TestRouteErrors(t *testing.T) {
	sw := func(n string) Node { return Node{Name: n, Kind: Switch} }
	h := func(n string) Node { return Node{Name: n, Kind: Host} }
	// Two islands.
	top, err := Custom([]Node{h("a"), h("b"), h("c"), sw("s"), sw("t")},
		[]Link{Duplex("a", "s", 1e9, 0, 0), Duplex("b", "s", 1e9, 0, 0), Duplex("c", "t", 1e9, 0, 0)})
	if err != nil {
		t.Fatal(err)
	}
	r := top.Routes()
	if err := r.Check(0, 1); err != nil {
		t.Error(err)
	}
	for _, c := range []struct {
		src, dst int
		want     string
	}{
		{0, 2, "no route from host 0 (a) to host 2 (c): the topology is disconnected"},
		{1, 1, "a flow from host 1 (b) to itself"},
		{0, 3, "host 3 is out of range: the topology has hosts 0 to 2"},
		{-1, 0, "host -1 is out of range"},
	} {
		if err := r.Check(c.src, c.dst); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%d->%d: %v, want %q", c.src, c.dst, err, c.want)
		}
	}
}

// A port's feeders are the links into its switch whose frames routing can
// send on through it: a core's port down to a pod is fed by the other
// pods' aggregation switches only; an edge switch's port to a host by the
// other hosts under it and by the aggregation switches above.
func TestFeeders(t *testing.T) {
	ft := fatTree(t, 4)
	feeds := ft.Routes().Feeders()
	byName := map[string]int{}
	for i, p := range ft.Ports {
		byName[p.Name] = i
	}
	check := func(port string, want ...string) {
		t.Helper()
		var got []string
		for _, q := range feeds[byName[port]] {
			got = append(got, ft.Ports[q].Name)
		}
		slices.Sort(got)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("%s is fed by %v, want %v", port, got, want)
		}
	}
	check("core0->agg0.0", "agg1.0->core0", "agg2.0->core0", "agg3.0->core0")
	check("edge0.0->h0", "h1->edge0.0", "agg0.0->edge0.0", "agg0.1->edge0.0")
	// Up from an edge switch: its hosts only (nothing turns back up).
	check("edge0.0->agg0.1", "h0->edge0.0", "h1->edge0.0")
	// Up from an aggregation switch: its pod's edge switches.
	check("agg0.0->core1", "edge0.0->agg0.0", "edge0.1->agg0.0")
	// Down from an aggregation switch: the cores, and the pod's other edge.
	check("agg0.0->edge0.1", "core0->agg0.0", "core1->agg0.0", "edge0.0->agg0.0")
}
