package topology

// Bounds on what building a fabric allocates, checked from its keys alone
// before anything is built: the topology's links and switch ports.
const (
	MaxLinks       = 200_000
	MaxSwitchPorts = 2 * MaxLinks
)

// Shape is the size of a fabric as its keys give it.
type Shape struct {
	Nodes, Links, SwitchPorts float64
	Groups                    float64 // switches with hosts: one routing table each
	NextHops                  float64 // entries of every routing table
	Feeders                   float64 // PFC's feeder lists, at most the sum of each switch's ports squared
	// Formula says its routes are a formula over its switches' ports (a
	// fat-tree's, model/topo's fatTreeRoutes): no table per group.
	Formula bool
}

// RouteBytes is what the routes and, with PFC, the feeders hold, at the
// sizes of model/topo's tables: a distance and an offset per group and node,
// a port per next hop, a port and a flag per feeder.
func (s Shape) RouteBytes(pfc bool) float64 {
	b := s.Groups*s.Nodes*(2+4) + s.NextHops*4
	if s.Formula {
		// A node's group and switch index, a host's link down, each group's
		// switch, and every switch's ports listed once with their offsets.
		b = s.Nodes*(4+4+4) + s.Groups*8 + (s.SwitchPorts+s.Nodes)*4
	}
	if pfc {
		b += s.Feeders * (4 + 1 + 8)
	}
	return b
}
