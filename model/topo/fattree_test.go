package topo

import (
	"slices"
	"testing"

	"qcnlab/algos"
)

// The fat-tree's formula gives the routes the breadth-first search gives
// the same network read as a custom topology: the same next hops in the
// same order at every switch toward every host, the same hop counts, PFC
// feeders and farthest loop.
func TestFatTreeFormulaIsTheSearch(t *testing.T) {
	for _, k := range []int{2, 4, 6, 8} {
		// Delays that differ by link, so that Farthest has one answer.
		delay := func(l Link) algos.Time { return algos.Time(len(l.A)*7+len(l.B)*3) * algos.Nanosecond }
		ft, err := FatTree(k, 10e9, 150e3, delay)
		if err != nil {
			t.Fatal(err)
		}
		searched, err := Custom(ft.Nodes, ft.Links)
		if err != nil {
			t.Fatal(err)
		}
		f, s := ft.Routes(), searched.Routes()
		if f.tree == nil || s.tree != nil {
			t.Fatalf("k = %d: the fat-tree has no formula, or the custom copy has one", k)
		}
		for node := range ft.Nodes {
			for dst := range ft.Hosts {
				if ft.Nodes[node].Kind == Host && ft.HostIndex(node) == dst {
					continue
				}
				if a, b := f.NextHops(node, dst), s.NextHops(node, dst); !slices.Equal(a, b) {
					t.Fatalf("k = %d: %s toward h%d: %v, the search %v", k, ft.Nodes[node].Name, dst, a, b)
				}
			}
		}
		for src := range ft.Hosts {
			for dst := range ft.Hosts {
				if a, b := f.Hops(src, dst), s.Hops(src, dst); a != b {
					t.Fatalf("k = %d: h%d to h%d: %d hops, the search %d", k, src, dst, a, b)
				}
			}
		}
		fa, fb := f.Feeders(), s.Feeders()
		for p := range fa {
			if !slices.Equal(fa[p], fb[p]) {
				t.Fatalf("k = %d: port %s fed by %v, the search %v", k, ft.Ports[p].Name, fa[p], fb[p])
			}
		}
		if a, b := f.Farthest(), s.Farthest(); a != b {
			t.Errorf("k = %d: farthest %v, the search %v", k, a, b)
		}
		if f.Unreachable() != -1 {
			t.Errorf("k = %d: a host is unreachable", k)
		}
	}
}

// Routing tables are sized by what the topology needs: a k = 32 fat-tree
// (8,192 hosts) routes by formula in well under a megabyte (its tables per
// edge switch and node took 55 MB); a leaf-spine keeps a row per leaf of
// its switches only.
func TestRoutesMemory(t *testing.T) {
	ft, err := FatTree(32, 100e9, 1e6, nil)
	if err != nil {
		t.Fatal(err)
	}
	if b := ft.Routes().Bytes(); b > 1e6 {
		t.Errorf("k = 32 fat-tree: routes of %.3g bytes", b)
	}
	ls, err := LeafSpine(128, 64, 64, 100e9, 400e9, 1e6, nil)
	if err != nil {
		t.Fatal(err)
	}
	// 128 rows of 192 switches: distances, offsets and the 128 x 64 up
	// ports and a spine's one port down of each row, plus per-node and
	// per-host indices.
	rows := 128 * (192*2 + 193*4 + (127*64+64)*4)
	if b := ls.Routes().Bytes(); b > 1.1*float64(rows)+12*8384+4*8192+1e4 {
		t.Errorf("a leaf-spine of 8,192 hosts: routes of %.3g bytes, want about %d", b, rows)
	}
}
