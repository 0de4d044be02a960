package topology

import "qcnlab/algos"

// chain is a dumbbell or a parking lot: sources behind links in a row.
type chain struct {
	name         string
	defaultLinks int
	maxLinks     int
}

// dumbbell is a chain of one link, the one qcnlab bench measures.
type dumbbell struct{ chain }

// Bench is 10 greedy sources at 10 Gbps, 1500 B frames, 100 us RTT: the
// defaults.
func (dumbbell) Bench() Bench {
	return Bench{
		Description: "10 greedy QCN sources, 10 Gbps dumbbell, 1500 B frames, 100 us RTT, one core:",
		Duration:    algos.Second,
		Sources:     10,
	}
}

func (c chain) Name() string          { return c.name }
func (c chain) DefaultLinks() int     { return c.defaultLinks }
func (c chain) MaxLinks() int         { return c.maxLinks }
func (c chain) Validate(Network, Bad) {} // validateChain checks every chain's keys

// A dumbbell: one congestible link. A parking lot: a chain of them, two
// unless network.links says.
var (
	_ = Register(dumbbell{chain{name: "dumbbell", defaultLinks: 1, maxLinks: 1}}, 10, nil)
	_ = Register(chain{name: "parking_lot", defaultLinks: 2, maxLinks: MaxChainLinks}, 20, nil)
)

// MaxChainLinks is the most links a chain may have.
const MaxChainLinks = 64
