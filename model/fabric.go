package model

import (
	"errors"

	"qcnlab/algos"
)

// Fabric is a data-center network: a topology of hosts and switches, how
// frames are routed, and the flows between hosts.
type Fabric struct {
	WatchPorts, WatchFlows int
}

// Spray says how a fabric routes a flow's frames.
type Spray uint8

const defaultWatchPorts, defaultWatchFlows = 8, 16

func (f *Fabric) watchPorts() int { return defaultWatchPorts }
func (f *Fabric) watchFlows() int { return defaultWatchFlows }

// fabricState is what a fabric run keeps beyond a chain's.
type fabricState struct{}

// sizedFlow is a fabric flow of a given size.
type sizedFlow struct {
	size, left int64
	start      algos.Time
	incast     bool
}

func fabricNetwork(cfg *Config) (*network, error) {
	return nil, errors.New("fabrics are not built yet")
}

// network builds the configuration's network.
func (c *Config) network() (*network, error) {
	if c.Fabric != nil {
		return fabricNetwork(c)
	}
	return chainNetwork(c)
}

func (s *Packet) startFabric() error                                                { return nil }
func (s *Packet) spray(node, dst int32) int32                                       { panic("no spray") }
func (s *Packet) pathTaken(l *limiter, path uint32)                                 {}
func (s *Packet) nextSizedFrame(l *limiter) int                                     { return 0 }
func (s *Packet) afterSizedFrame(l *limiter)                                        {}
func (s *Packet) sizedDelivered(l *limiter, at algos.Time)                          {}
func (s *Packet) ecmpRoute(l *limiter) []int32                                      { return nil }
func (s *Packet) fabricFlowArrival()                                                {}
func (s *Packet) describeFlow(i int, ss *SourceSummary)                             {}
func (s *Packet) incastSummary(fs *FlowSummary)                                     {}
func (s *Packet) offeredLoad() []float64                                            { return make([]float64, len(s.ports)) }
func (s *Packet) tiers(all []BottleneckSummary, srcs []SourceSummary) []TierSummary { return nil }

// TierSummary sums up one tier's ports.
type TierSummary struct{}

// frameLost follows a dropped frame f of limiter l: a chain's short flow
// whose last frame it was is lost.
func (s *Packet) frameLost(l *limiter, f *frame) {
	if f.flags&frameEnd != 0 {
		s.flowLost(l, f.sent)
	}
}
