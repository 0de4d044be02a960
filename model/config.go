package model

import (
	"errors"
	"fmt"
	"math"

	"qcnlab/algos"
)

// Config is a fully resolved scenario in base units: bits per second,
// bytes and picoseconds. The experiments package builds it from a file.
type Config struct {
	Model  string // "packet" (the default), "fluid" or "convergence"
	Scheme *algos.Scheme
	Params algos.Values // resolved: every parameter of Scheme present
	Seed   uint64

	Duration algos.Time
	Warmup   algos.Time // summary metrics cover [Warmup, Duration]

	Capacity   float64 // bottleneck link, bits per second
	Buffer     int     // bottleneck buffer, bytes (drop-tail)
	FrameBytes int     // data frame size

	// Links are the congestible switch ports in a chain (a parking lot):
	// link j's switch port feeds, after Delay, the switch of link j+1.
	// Empty means the dumbbell: one link of Capacity and Buffer.
	Links []LinkConfig

	Sources []SourceConfig

	// Traffic, if set, gives the sources several greedy flows and short
	// flows (traffic.go); nil is one greedy flow per source.
	Traffic *Traffic

	// FeedbackLatency is the switch's time to generate each feedback
	// frame, drawn per frame (packet model).
	FeedbackLatency Dist
	// Changes set link capacities during the run, in time order (packet
	// model).
	Changes []CapacityChange
	// Phases are times in (0, Duration), increasing, that split the run
	// into phases with a summary each (packet model).
	Phases []algos.Time
	// PFC, if set, turns on IEEE 802.1Qbb on every switch port (pfc.go).
	PFC *PFC
	// Transport configures the transport layer of the ACK-clocked schemes
	// (transport.go); the others run without one.
	Transport Transport
	// Classes, if set, gives every switch port several traffic classes
	// (classes.go); nil is one.
	Classes *Classes
	// Shared, if set, gives every switch one buffer its queues share
	// (buffer.go); nil is a buffer per port.
	Shared *SharedBuffer
	// ControlFrames sends the scheme's feedback and CNPs, or its
	// transport's ACKs and NACKs, as frames that queue at the switch ports
	// of the reverse path (control.go); else out of band, never queued
	// (an ACK: the reverse path's propagation and its own transmission).
	// A fabric's, routed by ECMP.
	ControlFrames bool
	// ClockPPM bounds each host's clock offset, drawn from the seed
	// uniformly within +-ClockPPM parts per million: its link and its rate
	// limiters run that much fast or slow (clock.go). 0: every clock exact.
	ClockPPM float64
	// SwitchJitter bounds the variation of a switch's forwarding latency:
	// each frame reaches the switch after its link's propagation plus a
	// delay drawn uniformly from [0, SwitchJitter) (clock.go). 0: none.
	SwitchJitter algos.Time

	// Fabric, if set, is the network instead of a chain (fabric.go):
	// Capacity, Buffer, Links, Sources and Traffic are then unused.
	Fabric *Fabric

	// FlowBuckets are the upper edges, in bytes and increasing, of the
	// size buckets of the summary's flows; none for DefaultFlowBuckets.
	FlowBuckets []float64

	SampleInterval    algos.Time // time series resolution
	RateWindow        algos.Time // per-source rates are averaged over this window
	FairnessThreshold float64    // min rate / max rate counted as fair

	// OnSample, if set, receives the time series every SampleInterval.
	// The Sample is reused: copy what you keep.
	OnSample func(*Sample)
	// OnFlow, if set, receives every flow of a given size as it ends, and
	// those still going at the end of the run (flowrecord.go). The record
	// is reused: copy what you keep.
	OnFlow func(*FlowRecord)
}

// SourceConfig is one source and its access link.
type SourceConfig struct {
	LineRate      float64    // access link rate, bits per second
	InitialRate   float64    // rate the source starts at
	ForwardDelay  algos.Time // propagation delay to the bottleneck
	BackwardDelay algos.Time // propagation delay of feedback back to the source
	Start         algos.Time // when the source starts sending
	Stop          algos.Time // when it stops; algos.Never for never
	// Path lists the links the source's frames cross, consecutive in the
	// chain; empty means the first link. ForwardDelay and BackwardDelay
	// are to the first of them.
	Path []int
	// Class is its frames' traffic class, below Config.Classes.N.
	Class int
}

// LinkConfig is one congestible switch port and the link it drives.
type LinkConfig struct {
	Capacity float64    // bits per second
	Buffer   int        // bytes, drop-tail
	Delay    algos.Time // propagation to the next switch in the chain
}

// links returns the chain of links, the dumbbell's single one if none are
// given.
func (c *Config) links() []LinkConfig {
	if len(c.Links) > 0 {
		return c.Links
	}
	return []LinkConfig{{Capacity: c.Capacity, Buffer: c.Buffer}}
}

// path returns a source's path, the first link if none is given.
func (s *SourceConfig) path() []int {
	if len(s.Path) > 0 {
		return s.Path
	}
	return []int{0}
}

// hopDelay is the propagation from the first link of a path to its pos-th.
func (c *Config) hopDelay(path []int, pos int) algos.Time {
	var d algos.Time
	links := c.links()
	for _, j := range path[:pos] {
		if j >= 0 && j < len(links) { // validate reports the others
			d += links[j].Delay
		}
	}
	return d
}

// Network is what the schemes see of the scenario.
func (c *Config) Network() algos.Network {
	if c.Fabric != nil {
		n, err := fabricNetwork(c)
		if err != nil { // validation reports it
			return algos.Network{FrameBytes: float64(c.FrameBytes)}
		}
		return c.networkOf(n)
	}
	links := c.links()
	n := algos.Network{
		Capacity:   links[0].Capacity,
		Sources:    len(c.Sources),
		Buffer:     float64(links[0].Buffer),
		FrameBytes: float64(c.FrameBytes),
	}
	for _, l := range links[1:] { // the tightest link sets the defaults
		n.Capacity, n.Buffer = min(n.Capacity, l.Capacity), min(n.Buffer, float64(l.Buffer))
	}
	for _, s := range c.Sources {
		n.LineRate = max(n.LineRate, s.LineRate)
		// The loop to the farthest congestion point on the path.
		p := s.path()
		n.MaxLoopDelay = max(n.MaxLoopDelay, s.ForwardDelay+s.BackwardDelay+2*c.hopDelay(p, len(p)-1))
	}
	n.MaxLoopDelay += c.FeedbackLatency.Max()
	return n
}

// networkOf is Network for a network already built: a fabric's tightest
// switch port, fastest host link and longest loop, over its flows' routes
// and, with short flows, over any pair of hosts.
func (c *Config) networkOf(n *network) algos.Network {
	if n.chain {
		return c.Network()
	}
	t := n.topo
	out := algos.Network{Sources: len(n.flows), FrameBytes: float64(c.FrameBytes)}
	if out.Sources == 0 {
		out.Sources = len(t.Hosts)
	}
	for j, tp := range n.ports {
		p := t.Ports[tp]
		if j == 0 || p.Capacity < out.Capacity {
			out.Capacity = p.Capacity
		}
		if j == 0 || float64(p.Buffer) < out.Buffer {
			out.Buffer = float64(p.Buffer)
		}
	}
	var nicLoop algos.Time
	for h := range t.Hosts {
		nic := t.Ports[t.NIC(h)]
		out.LineRate = max(out.LineRate, nic.Capacity)
		nicLoop = max(nicLoop, nic.Delay+nic.Back)
	}
	for _, f := range n.flows {
		route := f.route
		if route == nil {
			route = n.route(c.Seed, f.host, f.dst, 0)
		}
		nic := t.Ports[t.NIC(f.host)]
		loop := nic.Delay + nic.Back
		for _, j := range route[:len(route)-1] { // to the last port's switch and back
			loop += 2 * t.Ports[n.ports[j]].Delay
		}
		out.MaxLoopDelay = max(out.MaxLoopDelay, loop)
	}
	if c.Fabric.Short != nil {
		out.MaxLoopDelay = max(out.MaxLoopDelay, nicLoop+2*n.routes.Farthest())
	}
	out.MaxLoopDelay += c.FeedbackLatency.Max()
	return out
}

func (c *Config) validate() error {
	var errs []error
	bad := func(format string, args ...any) { errs = append(errs, fmt.Errorf(format, args...)) }
	if c.Scheme == nil {
		bad("no algorithm")
	}
	if c.Duration <= 0 {
		bad("duration must be positive")
	}
	if c.Warmup < 0 || c.Warmup >= c.Duration {
		bad("warmup must be in [0, duration)")
	}
	if c.FrameBytes <= 0 || c.FrameBytes > math.MaxUint16 {
		bad("frame size must be from 1 to 65535 bytes (a frame record holds it in 16 bits)")
	}
	if c.Fabric != nil {
		c.validateFabric(bad)
	} else {
		c.validateChain(bad)
	}
	c.validateClasses(bad)
	c.validateShared(bad)
	c.validateControl(bad)
	if !(c.ClockPPM >= 0 && c.ClockPPM <= MaxClockPPM) {
		bad("clock offsets must be within 0 and %g ppm", float64(MaxClockPPM))
	}
	if c.SwitchJitter < 0 || c.SwitchJitter > MaxSwitchJitter {
		bad("switch jitter must be within 0 and %g s", MaxSwitchJitter.Seconds())
	}
	if d := c.FeedbackLatency; d.Lo < 0 || d.Max() < d.Lo || d.Max() >= algos.Never {
		bad("feedback latency must be finite, not negative, its least value at most its most")
	}
	ports := len(c.links())
	if c.Fabric != nil {
		ports = c.Fabric.switchPorts()
	}
	for k, ch := range c.Changes {
		if ch.At < 0 || ch.At >= c.Duration || (k > 0 && ch.At < c.Changes[k-1].At) ||
			ch.Link < -1 || ch.Link >= ports || !(ch.Capacity > 0) {
			bad("capacity change %d: at a time in [0, duration), in order, on a link that exists, to a positive capacity", k)
		}
	}
	for k, t := range c.Phases {
		if t <= 0 || t >= c.Duration || (k > 0 && t <= c.Phases[k-1]) {
			bad("phase boundaries must increase within (0, duration)")
		}
	}
	for k, e := range c.FlowBuckets {
		if !(e > 0) || (k > 0 && e <= c.FlowBuckets[k-1]) {
			bad("flow buckets: their upper edges must be positive and increase")
			break
		}
	}
	if c.SampleInterval <= 0 || c.RateWindow < c.SampleInterval {
		bad("sample interval must be positive and the rate window at least one sample interval")
	}
	return errors.Join(errs...)
}

// validateChain checks a dumbbell's or a parking lot's links and sources.
func (c *Config) validateChain(bad func(string, ...any)) {
	links := c.links()
	for j, l := range links {
		if l.Capacity <= 0 || l.Buffer < c.FrameBytes || l.Delay < 0 {
			bad("link %d: capacity must be positive, the buffer hold a frame, the delay not be negative", j)
		}
	}
	if len(c.Sources) == 0 || len(c.Sources) > MaxSources {
		bad("from 1 to %d sources", MaxSources)
	}
	for i, s := range c.Sources {
		if s.LineRate <= 0 || s.InitialRate <= 0 || s.InitialRate > s.LineRate {
			bad("source %d: rates must be positive, initial rate at most the line rate", i)
		}
		if s.ForwardDelay < 0 || s.BackwardDelay < 0 || s.Start < 0 || s.Stop <= s.Start {
			bad("source %d: delays must not be negative, and it must stop after it starts", i)
		}
		for k, j := range s.path() {
			if j < 0 || j >= len(links) || (k > 0 && j != s.path()[k-1]+1) {
				bad("source %d: its path %v must be consecutive links of 0..%d", i, s.Path, len(links)-1)
				break
			}
		}
	}
	if t := c.Traffic; t != nil && (t.LongFlows < 0 || !(t.ShortRate >= 0) || (t.ShortRate > 0 && t.ShortSizes == nil)) {
		bad("traffic: long flows and the short-flow rate must not be negative, and short flows need sizes")
	}
}
