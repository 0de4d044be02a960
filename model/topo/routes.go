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
// For every switch a host hangs off (its group) one breadth-first search
// gives each switch's distance to it, and a switch's next hops toward any
// host of the group are its ports to the neighbours one hop closer. The
// memory is groups x nodes, not hosts x nodes: a k = 16 fat-tree has 128
// groups, not 1024.
type Routes struct {
	t     *Topology
	down  []int32    // host -> the port from its switch to it
	group []int32    // node -> group index (the switches hosts hang off), -1 for the others
	dist  [][]uint16 // [group][node]: switch hops from node to the group's switch
	off   [][]int32  // [group][node]: start of node's next hops in hops, node+1's is the end
	hops  [][]int32  // [group]: the next-hop ports of every node, node by node

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
	r := &Routes{t: t, group: make([]int32, len(t.Nodes)), down: make([]int32, len(t.Hosts))}
	for h := range t.Hosts {
		r.down[h] = int32(t.NIC(h) ^ 1) // the NIC's link, the other way
	}
	for i := range r.group {
		r.group[i] = -1
	}
	var groups []int
	for h := range t.Hosts {
		if s := t.Attach(h); r.group[s] < 0 {
			r.group[s] = int32(len(groups))
			groups = append(groups, s)
		}
	}
	n := len(t.Nodes)
	queue := make([]int, 0, n)
	var scratch []int32 // next hops of one group, copied at their size: no slack kept per group
	for _, g := range groups {
		dist := make([]uint16, n)
		for i := range dist {
			dist[i] = unreachable
		}
		dist[g] = 0
		queue = append(queue[:0], g)
		for k := 0; k < len(queue); k++ {
			u := queue[k]
			for _, p := range t.out[u] { // links are full duplex: u's neighbours
				v := t.Ports[p].To
				if t.Nodes[v].Kind == Switch && dist[v] == unreachable {
					dist[v] = dist[u] + 1
					queue = append(queue, v)
				}
			}
		}
		off := make([]int32, n+1)
		hops := scratch[:0]
		for u := 0; u < n; u++ {
			off[u] = int32(len(hops))
			if t.Nodes[u].Kind != Switch || dist[u] == 0 || dist[u] == unreachable {
				continue
			}
			for _, p := range t.out[u] {
				if v := t.Ports[p].To; t.Nodes[v].Kind == Switch && dist[v] == dist[u]-1 {
					hops = append(hops, int32(p))
				}
			}
		}
		off[n] = int32(len(hops))
		scratch = hops
		r.dist, r.off, r.hops = append(r.dist, dist), append(r.off, off), append(r.hops, slices.Clone(hops))
	}
	return r
}

// Bytes is the memory the routing tables hold, as allocated: what a cost
// estimate counts for them.
func (r *Routes) Bytes() float64 {
	const header = 24 // a slice's
	b := float64(cap(r.down)+cap(r.group))*4 + 3*header*float64(cap(r.dist))
	for g := range r.dist {
		b += float64(cap(r.dist[g]))*2 + float64(cap(r.off[g])+cap(r.hops[g]))*4
	}
	return b
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
	g := r.group[s]
	return r.hops[g][r.off[g][node]:r.off[g][node+1]]
}

// Hops is the number of switch ports a frame from host src to host dst
// crosses (its switches), or -1 if there is no path.
func (r *Routes) Hops(src, dst int) int {
	s, d := r.t.Attach(src), r.t.Attach(dst)
	x := r.dist[r.group[d]][s]
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
	dist := r.dist[r.group[r.t.Attach(0)]]
	for h := range r.t.Hosts {
		if dist[r.t.Attach(h)] == unreachable {
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
	for s, g := range r.group {
		if g < 0 {
			continue
		}
		dist := r.dist[g]
		for u := range t.Nodes {
			if t.Nodes[u].Kind != Switch || dist[u] == unreachable {
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
				egress = r.hops[g][r.off[g][u]:r.off[g][u+1]]
			}
			for k, p := range t.out[u] {
				in := int32(p ^ 1) // the port that sends into u over this link
				v := t.Ports[p].To
				if t.Nodes[v].Kind == Host || dist[v] == dist[u]+1 {
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
	for g := range r.dist {
		dist := r.dist[g]
		// Nodes nearer the group first: each one's farthest way down is
		// its longest next hop plus that hop's own.
		order = order[:0]
		for u := range t.Nodes {
			if t.Nodes[u].Kind == Switch && dist[u] != unreachable {
				order = append(order, u)
			}
		}
		sort.Slice(order, func(a, b int) bool { return dist[order[a]] < dist[order[b]] })
		for _, u := range order {
			prop[u] = 0
			for _, p := range r.hops[g][r.off[g][u]:r.off[g][u+1]] {
				prop[u] = max(prop[u], t.Ports[p].Delay+prop[t.Ports[p].To])
			}
			if r.group[u] >= 0 {
				far = max(far, prop[u])
			}
		}
	}
	return far
}
