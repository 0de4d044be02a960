package topo

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"qcnlab/algos"
)

// evenByPaths is EvenDelays the long way: every equal-cost path between
// every two hosts, walked, must cross the same propagation to each of its
// switches.
func evenByPaths(tp *Topology) bool {
	r := tp.Routes()
	for src := range tp.Hosts {
		for dst := range tp.Hosts {
			if src == dst || r.Hops(src, dst) < 0 {
				continue
			}
			var first []algos.Time
			even := true
			var walk func(node int, prefix []algos.Time)
			walk = func(node int, prefix []algos.Time) {
				if node == tp.Hosts[dst] {
					if first == nil {
						first = slices.Clone(prefix)
					} else if !slices.Equal(first, prefix) {
						even = false
					}
					return
				}
				for _, p := range r.NextHops(node, dst) {
					walk(tp.Ports[p].To, append(prefix, prefix[len(prefix)-1]+tp.Ports[p].Delay))
				}
			}
			walk(tp.Attach(src), []algos.Time{0})
			if !even {
				return false
			}
		}
	}
	return true
}

// EvenDelays agrees with every path walked: on fabrics of one delay, of a
// delay per tier, per leaf, per link drawn, and with a switch off every
// shortest path between hosts whose links differ.
func TestEvenDelaysIsEveryPath(t *testing.T) {
	tier := func(l Link) algos.Time { // by the kinds of switch the link joins
		switch {
		case l.A[0] == 'h' || l.B[0] == 'h':
			return 5 * us
		case l.A[0] == 'c' || l.B[0] == 'c':
			return 3 * us
		}
		return us
	}
	drawn := func(seed uint64) DelayFunc {
		rng := rand.New(rand.NewPCG(seed, 1))
		return func(Link) algos.Time { return algos.Time(1+rng.IntN(4)) * us }
	}
	perLeaf := func(l Link) algos.Time { // every uplink of leaf i: i+1 us
		var i int
		if _, err := fmt.Sscanf(l.A, "leaf%d", &i); err == nil && l.B[0] == 's' {
			return algos.Time(i+1) * us
		}
		return us
	}
	perSpine := func(l Link) algos.Time {
		var i int
		if _, err := fmt.Sscanf(l.B, "spine%d", &i); err == nil {
			return algos.Time(i+1) * us
		}
		return us
	}
	build := func(tp *Topology, err error) *Topology {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return tp
	}
	// A leaf-spine of one delay with a switch beside it that no host's
	// frames reach: linked to two spines, by links of different delays.
	spur := func() *Topology {
		ls := build(LeafSpine(3, 2, 2, 10e9, 10e9, 150e3, Uniform(us)))
		nodes := append(slices.Clone(ls.Nodes), Node{Name: "x", Kind: Switch})
		links := append(slices.Clone(ls.Links), Duplex("x", "spine0", 10e9, us, 150e3), Duplex("x", "spine1", 10e9, 2*us, 150e3))
		return build(Custom(nodes, links))
	}
	// Two hosts on s, one on d; s reaches d by a and by b, both 31 us in
	// all, 1 then 30 by a and 30 then 1 by b: a congestion point at a or
	// b reads a propagation so far that depends on the path.
	twoPaths := func(sa, ad, sb, bd algos.Time) *Topology {
		nodes := []Node{{Name: "h0", Kind: Host}, {Name: "h1", Kind: Host}, {Name: "h2", Kind: Host},
			{Name: "s", Kind: Switch}, {Name: "a", Kind: Switch}, {Name: "b", Kind: Switch}, {Name: "d", Kind: Switch}}
		links := []Link{Duplex("h0", "s", 2e9, us, 150e3), Duplex("h1", "s", 2e9, us, 150e3), Duplex("h2", "d", 2e9, us, 150e3),
			Duplex("s", "a", 2e9, sa, 150e3), Duplex("a", "d", 2e9, ad, 150e3),
			Duplex("s", "b", 2e9, sb, 150e3), Duplex("b", "d", 2e9, bd, 150e3)}
		return build(Custom(nodes, links))
	}
	split := func() *Topology { return twoPaths(us, 30*us, 30*us, us) }
	splitEven := func() *Topology { return twoPaths(2*us, 30*us, 2*us, 30*us) }
	for _, c := range []struct {
		name string
		tp   *Topology
		even bool
	}{
		{"fat-tree, one delay", build(FatTree(4, 10e9, 150e3, Uniform(us))), true},
		{"fat-tree, a delay per tier", build(FatTree(4, 10e9, 150e3, tier)), true},
		{"fat-tree, drawn per link", build(FatTree(4, 10e9, 150e3, drawn(1))), false},
		{"leaf-spine, drawn per link", build(LeafSpine(3, 3, 2, 10e9, 10e9, 150e3, drawn(2))), false},
		{"leaf-spine, a delay per leaf", build(LeafSpine(4, 3, 2, 10e9, 10e9, 150e3, perLeaf)), true},
		{"leaf-spine, a delay per spine", build(LeafSpine(4, 3, 2, 10e9, 10e9, 150e3, perSpine)), false},
		{"leaf-spine, one spine", build(LeafSpine(4, 1, 2, 10e9, 10e9, 150e3, drawn(3))), true},
		{"a switch off the paths", spur(), true},
		{"two paths of one total, split otherwise", split(), false},
		{"two paths, the same at each hop", splitEven(), true},
	} {
		if got, walked := c.tp.Routes().EvenDelays(), evenByPaths(c.tp); got != walked || got != c.even {
			t.Errorf("%s: EvenDelays %v, the paths walked %v, want %v", c.name, got, walked, c.even)
		}
	}
}
