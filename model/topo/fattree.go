package topo

// fatTreeRoutes routes a fat-tree built by FatTree by its formula (Al-Fares
// et al., section 3.3): toward a host, an edge switch goes up to every
// aggregation switch of its pod, unless the host hangs off it; an
// aggregation switch goes down to the host's edge switch if the host is in
// its pod, else up to every core it links to; a core goes down to the
// aggregation switch of the host's pod. These are exactly the equal-cost
// shortest paths a breadth-first search finds (TestFatTreeFormulaIsTheSearch),
// in the same port order, from the switches' own port lists: no table.
//
// FatTree numbers the nodes pod by pod (k/2 edge switches, then k/2
// aggregation switches), then the (k/2)^2 cores, then the hosts; a
// switch's ports are in link order: an edge switch's k/2 hosts then its
// k/2 aggregation switches, an aggregation switch's k/2 edge switches then
// its k/2 cores, a core's k pods.
type fatTreeRoutes struct {
	k, half int
	// ports lists every switch's egress ports, switch by switch in node
	// order (the switches come first), as NextHops returns them; off[u]
	// is the start of switch u's.
	ports []int32
	off   []int32
}

func newFatTreeRoutes(t *Topology, k int) *fatTreeRoutes {
	half := k / 2
	switches := k*k + half*half
	f := &fatTreeRoutes{k: k, half: half, off: make([]int32, switches+1)}
	for u := range switches {
		f.off[u] = int32(len(f.ports))
		for _, p := range t.out[u] {
			f.ports = append(f.ports, int32(p))
		}
	}
	f.off[switches] = int32(len(f.ports))
	return f
}

func (f *fatTreeRoutes) bytes() float64 { return float64(cap(f.ports)+cap(f.off)) * 4 }

// place says where switch u is: its pod and its index among the pod's edge
// switches (edge) or aggregation switches (agg), or for a core its index
// (pod -1).
func (f *fatTreeRoutes) place(u int) (pod, index int, edge bool) {
	if u >= f.k*f.k {
		return -1, u - f.k*f.k, false
	}
	pod, pos := u/f.k, u%f.k
	if pos < f.half {
		return pod, pos, true
	}
	return pod, pos - f.half, false
}

// distance is the switch hops from switch u to edge switch g (a node).
func (f *fatTreeRoutes) distance(group int32, u int) uint16 {
	return f.dist(u, f.groupSwitch(group))
}

// groupSwitch is the edge switch of group g: FatTree's hosts hang off the
// edge switches in node order, so group g is edge switch g (pod g / (k/2)).
func (f *fatTreeRoutes) groupSwitch(g int32) int {
	pod, e := int(g)/f.half, int(g)%f.half
	return pod*f.k + e
}

func (f *fatTreeRoutes) dist(u, g int) uint16 {
	gp := g / f.k
	pod, _, edge := f.place(u)
	switch {
	case u == g:
		return 0
	case pod < 0: // a core: down to the pod's aggregation, then its edge
		return 2
	case edge && pod == gp:
		return 2
	case edge:
		return 4
	case pod == gp:
		return 1
	}
	return 3
}

// toward is switch u's next hops toward edge switch g's hosts, u != g.
func (f *fatTreeRoutes) toward(u, g int) []int32 {
	gp, ge := g/f.k, g%f.k
	pod, _, edge := f.place(u)
	ports := f.ports[f.off[u]:f.off[u+1]]
	switch {
	case pod < 0:
		return ports[gp : gp+1]
	case edge || pod != gp:
		return ports[f.half:]
	}
	return ports[ge : ge+1]
}
