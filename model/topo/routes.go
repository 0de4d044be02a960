package topo

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
	"sync"

	"qcnlab/algos"
)

// Routes are the equal-cost shortest paths (by hop count) between the
// hosts of a topology. Frames cross switches only: a host never forwards.
//
// A fat-tree built by FatTree routes by formula (fattree.go): its next
// hops toward a host are its switch's up ports, or the one port down
// toward the host's pod or edge switch, read from the switch's ports; it
// keeps no table. Any other topology keeps tables per destination switch:
// for every switch a host hangs off (its group) one breadth-first search
// gives each switch's distance to it, and a switch's next hops toward any
// host of the group are its ports to the neighbours one hop closer. The
// tables are groups x switches (hosts have no row): a leaf-spine of 8,192
// hosts under 128 leaves keeps 128 rows of its 192 switches, not 8,192
// rows of its 8,384 nodes.
type Routes struct {
	t      *Topology
	down   []int32 // host -> the port from its switch to it
	group  []int32 // node -> group index (the switches hosts hang off), -1 for the others
	groups []int   // group -> its switch
	sw     []int32 // node -> its row in the tables, -1 for a host

	// The tables, without a formula.
	dist [][]uint16 // [group][switch]: switch hops from the switch to the group's switch
	off  [][]int32  // [group][switch]: start of the switch's next hops in hops, the next switch's is the end
	hops [][]int32  // [group]: the next-hop ports of every switch, switch by switch

	tree *fatTreeRoutes // the formula of a fat-tree, or nil

	feedersOnce sync.Once
	feeders     [][]int32
}

// ErrDisconnected is the error of a flow between hosts that no path joins.
var ErrDisconnected = errors.New("the topology is disconnected")

// unreachable is the distance of a node with no path.
const unreachable = math.MaxUint16

// Routes computes the next-hop sets toward every group.
// They are computed once per topology and shared: a topology does not
// change once built.
func (t *Topology) Routes() *Routes {
	t.routesOnce.Do(func() { t.routes = t.computeRoutes() })
	return t.routes
}

func (t *Topology) computeRoutes() *Routes {
	r := &Routes{t: t, group: make([]int32, len(t.Nodes)), sw: make([]int32, len(t.Nodes)), down: make([]int32, len(t.Hosts))}
	for h := range t.Hosts {
		r.down[h] = int32(t.NIC(h) ^ 1) // the NIC's link, the other way
	}
	switches := 0
	for i, node := range t.Nodes {
		r.group[i], r.sw[i] = -1, -1
		if node.Kind == Switch {
			r.sw[i] = int32(switches)
			switches++
		}
	}
	for h := range t.Hosts {
		if s := t.Attach(h); r.group[s] < 0 {
			r.group[s] = int32(len(r.groups))
			r.groups = append(r.groups, s)
		}
	}
	if t.fatTree > 0 {
		r.tree = newFatTreeRoutes(t, t.fatTree)
		return r
	}
	n := len(t.Nodes)
	queue := make([]int, 0, n)
	var scratch []int32 // next hops of one group, copied at their size: no slack kept per group
	for _, g := range r.groups {
		dist := make([]uint16, switches)
		for i := range dist {
			dist[i] = unreachable
		}
		dist[r.sw[g]] = 0
		queue = append(queue[:0], g)
		for k := 0; k < len(queue); k++ {
			u := queue[k]
			for _, p := range t.out[u] { // links are full duplex: u's neighbours
				v := t.Ports[p].To
				if t.Nodes[v].Kind == Switch && dist[r.sw[v]] == unreachable {
					dist[r.sw[v]] = dist[r.sw[u]] + 1
					queue = append(queue, v)
				}
			}
		}
		off := make([]int32, switches+1)
		hops := scratch[:0]
		for u := 0; u < n; u++ {
			su := r.sw[u]
			if su < 0 {
				continue
			}
			off[su] = int32(len(hops))
			if dist[su] == 0 || dist[su] == unreachable {
				continue
			}
			for _, p := range t.out[u] {
				if v := t.Ports[p].To; t.Nodes[v].Kind == Switch && dist[r.sw[v]] == dist[su]-1 {
					hops = append(hops, int32(p))
				}
			}
		}
		off[switches] = int32(len(hops))
		scratch = hops
		r.dist, r.off, r.hops = append(r.dist, dist), append(r.off, off), append(r.hops, slices.Clone(hops))
	}
	return r
}

// Bytes is the memory the routing tables hold, as allocated: what a cost
// estimate counts for them.
func (r *Routes) Bytes() float64 {
	const header = 24 // a slice's
	b := float64(cap(r.down)+cap(r.group)+cap(r.sw))*4 + float64(cap(r.groups))*8 + 3*header*float64(cap(r.dist))
	for g := range r.dist {
		b += float64(cap(r.dist[g]))*2 + float64(cap(r.off[g])+cap(r.hops[g]))*4
	}
	if r.tree != nil {
		b += r.tree.bytes()
	}
	return b
}

// distance is the switch hops from switch u to the switch of group g,
// unreachable if none.
func (r *Routes) distance(g int32, u int) uint16 {
	if r.tree != nil {
		return r.tree.distance(g, u)
	}
	return r.dist[g][r.sw[u]]
}

// toward is switch u's next hops toward the hosts of group g, u not being
// g's switch.
func (r *Routes) toward(g int32, u int) []int32 {
	if r.tree != nil {
		return r.tree.toward(u, r.groups[g])
	}
	su := r.sw[u]
	return r.hops[g][r.off[g][su]:r.off[g][su+1]]
}

// Topology is the topology the routes are of.
func (r *Routes) Topology() *Topology { return r.t }

// NextHops lists the equal-cost egress ports at node toward host dst, in
// port order: at dst's own switch the port to dst, at a host its NIC. It is
// empty where dst cannot be reached.
func (r *Routes) NextHops(node, dst int) []int32 {
	t := r.t
	s := t.Attach(dst)
	switch {
	case node == s:
		return r.down[dst : dst+1]
	case t.Nodes[node].Kind == Host:
		h := t.hostOf[node]
		return []int32{int32(t.NIC(h))}
	}
	return r.toward(r.group[s], node)
}

// Hops is the number of switch ports a frame from host src to host dst
// crosses (its switches), or -1 if there is no path.
func (r *Routes) Hops(src, dst int) int {
	s, d := r.t.Attach(src), r.t.Attach(dst)
	x := r.distance(r.group[d], s)
	if x == unreachable {
		return -1
	}
	return int(x) + 1
}

// Unreachable is a host that no path joins to host 0, or -1 if every host
// can reach every other (links are full duplex, so one host's view is
// everyone's).
func (r *Routes) Unreachable() int {
	if len(r.t.Hosts) == 0 {
		return -1
	}
	g := r.group[r.t.Attach(0)]
	for h := range r.t.Hosts {
		if r.distance(g, r.t.Attach(h)) == unreachable {
			return h
		}
	}
	return -1
}

// Check reports why a flow from host src to host dst cannot be routed.
func (r *Routes) Check(src, dst int) error {
	t := r.t
	switch {
	case src < 0 || src >= len(t.Hosts):
		return fmt.Errorf("host %d is out of range: the topology has hosts 0 to %d", src, len(t.Hosts)-1)
	case dst < 0 || dst >= len(t.Hosts):
		return fmt.Errorf("host %d is out of range: the topology has hosts 0 to %d", dst, len(t.Hosts)-1)
	case src == dst:
		return fmt.Errorf("a flow from host %d (%s) to itself", src, t.HostName(src))
	case r.Hops(src, dst) < 0:
		return fmt.Errorf("no route from host %d (%s) to host %d (%s): %w",
			src, t.HostName(src), dst, t.HostName(dst), ErrDisconnected)
	}
	return nil
}

// Path is the switch ports of one shortest path from host src to host dst:
// at each switch pick chooses among the equal-cost next hops. The host's
// NIC is not in it.
func (r *Routes) Path(src, dst int, pick func(node int, hops []int32) int32) []int32 {
	t := r.t
	node := t.Attach(src)
	var path []int32
	for {
		p := pick(node, r.NextHops(node, dst))
		path = append(path, p)
		node = t.Ports[p].To
		if node == t.Hosts[dst] {
			return path
		}
	}
}

// ECMP is the path a flow hashed with key takes from src to dst: at each
// switch the next hop is the flow's hash with the switch, modulo the
// equal-cost next hops. The same key gives the same path.
func (r *Routes) ECMP(src, dst int, key uint64) []int32 {
	return r.Path(src, dst, func(node int, hops []int32) int32 {
		return hops[Mix(key, uint64(node))%uint64(len(hops))]
	})
}

// Paths counts the distinct shortest paths from host src to host dst.
func (r *Routes) Paths(src, dst int) float64 {
	ways := map[int]float64{r.t.Attach(src): 1}
	count := 0.0
	for len(ways) > 0 {
		next := map[int]float64{}
		for node, w := range ways {
			for _, p := range r.NextHops(node, dst) {
				to := r.t.Ports[p].To
				if to == r.t.Hosts[dst] {
					count += w
					continue
				}
				next[to] += w
			}
		}
		ways = next
	}
	return count
}

// Mix hashes two words into one (splitmix64's finaliser over their
// combination): ECMP's per-flow hash.
func Mix(a, b uint64) uint64 {
	x := a ^ (b+0x9e3779b97f4a7c15)*0xbf58476d1ce4e5b9
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	return x ^ x>>31
}

// Feeders lists, for every port, the ports into its switch whose frames
// routing may send on through it: the links a PFC PAUSE from it must stop.
// A frame crosses a switch from an ingress to an egress port if some host
// can reach some other host that way along a shortest path; ports are
// listed in port order.
func (r *Routes) Feeders() [][]int32 {
	r.feedersOnce.Do(func() { r.feeders = r.computeFeeders() })
	return r.feeders
}

func (r *Routes) computeFeeders() [][]int32 {
	t := r.t
	feeds := make([][]int32, len(t.Ports))
	// seen[p][k]: the k-th link of p's switch already feeds p. A port's
	// feeders are among its own switch's links, so a slice per port does
	// (a map per port took seconds on a k = 32 fat-tree).
	seen := make([][]bool, len(t.Ports))
	add := func(p int, k int, q int32) {
		if seen[p] == nil {
			seen[p] = make([]bool, len(t.out[t.Ports[p].From]))
		}
		if !seen[p][k] {
			seen[p][k] = true
			feeds[p] = append(feeds[p], q)
		}
	}
	for g, s := range r.groups {
		g := int32(g)
		for u := range t.Nodes {
			if t.Nodes[u].Kind != Switch || r.distance(g, u) == unreachable {
				continue
			}
			var egress []int32
			if u == s { // the ports down to the group's hosts
				for _, p := range t.out[u] {
					if t.Nodes[t.Ports[p].To].Kind == Host {
						egress = append(egress, int32(p))
					}
				}
			} else {
				egress = r.toward(g, u)
			}
			for k, p := range t.out[u] {
				in := int32(p ^ 1) // the port that sends into u over this link
				v := t.Ports[p].To
				if t.Nodes[v].Kind == Host || r.distance(g, v) == r.distance(g, u)+1 {
					for _, e := range egress {
						if int32(e) != int32(p) { // a host does not send to itself
							add(int(e), k, in)
						}
					}
				}
			}
		}
	}
	for p := range feeds {
		slices.Sort(feeds[p])
	}
	return feeds
}

// Farthest is the longest propagation along a shortest path from a switch
// that hosts hang off to another, switch to switch: with the hosts' links,
// the longest loop a flow between two hosts can have.
func (r *Routes) Farthest() algos.Time {
	t := r.t
	var far algos.Time
	prop := make([]algos.Time, len(t.Nodes))
	order := make([]int, 0, len(t.Nodes))
	dist := make([]uint16, len(t.Nodes))
	for g := range r.groups {
		g := int32(g)
		// Nodes nearer the group first: each one's farthest way down is
		// its longest next hop plus that hop's own.
		order = order[:0]
		for u := range t.Nodes {
			if t.Nodes[u].Kind == Switch && r.distance(g, u) != unreachable {
				dist[u] = r.distance(g, u)
				order = append(order, u)
			}
		}
		sort.Slice(order, func(a, b int) bool { return dist[order[a]] < dist[order[b]] })
		for _, u := range order {
			prop[u] = 0
			if dist[u] == 0 {
				continue // the group's switch: no next hop among switches
			}
			for _, p := range r.toward(g, u) {
				prop[u] = max(prop[u], t.Ports[p].Delay+prop[t.Ports[p].To])
			}
			if r.group[u] >= 0 {
				far = max(far, prop[u])
			}
		}
	}
	return far
}

// EvenDelays reports whether every equal-cost path between two hosts
// crosses the same propagation up to each of its switches: then a frame's
// propagation so far is its flow's and its hop's, whatever path it was
// sprayed on. It holds where every link between switches has one delay; else
// it is checked toward every group from every switch hosts hang off, a hop
// at a time: every link its frames may take at the k-th hop must end the
// same propagation from that switch (equal totals are not enough: a
// congestion point mid-path reads the propagation so far). Worked out at
// each call (a run's start, its estimate), it leaves the shared routes as
// built.
func (r *Routes) EvenDelays() bool {
	t := r.t
	one, same := algos.Time(-1), true
	for _, p := range t.Ports {
		if t.Nodes[p.From].Kind == Switch && t.Nodes[p.To].Kind == Switch {
			if one < 0 {
				one = p.Delay
			}
			same = same && p.Delay == one
		}
	}
	if same {
		return true // equal-cost paths are as long, link for link
	}
	seen := make([]int, len(t.Nodes)) // the walk that last put a switch in a hop's set
	walk := 0
	var hop, next []int
	for g, gs := range r.groups {
		g := int32(g)
		for src := range t.Nodes {
			if r.group[src] < 0 || src == gs || r.distance(g, src) == unreachable {
				continue
			}
			hop, prop := append(hop[:0], src), algos.Time(0)
			for len(hop) > 0 && hop[0] != gs { // all of a hop's switches are as far from gs
				walk++
				next, to := next[:0], algos.Time(-1)
				for _, u := range hop {
					for _, p := range r.toward(g, u) {
						d := prop + t.Ports[p].Delay
						if to >= 0 && d != to {
							return false
						}
						to = d
						if v := t.Ports[p].To; seen[v] != walk {
							seen[v] = walk
							next = append(next, v)
						}
					}
				}
				hop, next, prop = next, hop, to
			}
		}
	}
	return true
}
