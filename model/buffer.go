package model

import (
	"fmt"
	"math"
)

// SharedBuffer is the buffer model of the switches of both public ns-3
// RDMA simulators and of the shared-memory switch chips they model: each
// switch has one buffer, Switch bytes, that its egress queues (port,
// class) share. Each queue has Reserve bytes of its own; above them a
// frame of a lossy class is admitted while the queue's bytes beyond its
// reserve stay within Alpha times the shared buffer still free, the
// dynamic threshold of Choudhury and Hahne ("Dynamic queue length
// thresholds for shared-memory packet switches", 1998), which leaves a
// congested queue Alpha / (1 + Alpha) of the shared space and n of them
// Alpha / (1 + n Alpha) each. A lossless class (PFC) is admitted while the
// switch has room: PFC's thresholds, dynamic from the same free space and
// with headroom per (link, class) set aside (pfc_ingress.go), keep it
// below (alibaba-edu/High-Precision-Congestion-Control's SwitchMmu: its
// egress admission always admits, its ingress side pauses).
type SharedBuffer struct {
	Switch  int     // bytes per switch; 0 for the sum of its ports' buffers (the same memory, shared)
	Reserve int     // bytes reserved per egress queue (port, class)
	Alpha   float64 // the lossy classes' dynamic threshold
}

// validateShared checks c.Shared against the network.
func (c *Config) validateShared(bad func(string, ...any)) {
	sh := c.Shared
	if sh == nil {
		return
	}
	if sh.Switch != 0 && sh.Switch < 2*c.FrameBytes || sh.Reserve < 0 || sh.Switch != 0 && sh.Reserve > sh.Switch {
		bad("shared buffer: a switch's buffer must hold two frames and its queues' reserves be within it")
	}
	if !(sh.Alpha > 0 && sh.Alpha <= 64) {
		bad("shared buffer: the dynamic threshold's alpha must be in (0, 64]")
	}
	if c.PFC != nil && (!c.PFC.Ingress || !c.PFC.Dynamic) {
		bad("shared buffer: PFC's thresholds follow the switch's free buffer: they must be dynamic, with ingress accounting")
	}
}

// switchBuffer is one switch's shared buffer as its queues fill it.
type switchBuffer struct {
	size       int // the whole buffer
	shared     int // less every queue's reserve
	reserve    int
	alpha      float64
	alphaInt   int   // alpha if a whole number (the usual 1), for an exact integer test; else 0
	lossless   uint8 // the classes PFC keeps (admitted while there is room)
	used       int   // bytes in the switch
	sharedUsed int   // bytes of its queues beyond their reserves
}

// startSharedBuffers makes every switch's shared buffer, indexed by node;
// nil with a buffer per port.
func (s *Packet) startSharedBuffers() []*switchBuffer {
	sh := s.cfg.Shared
	if sh == nil {
		return nil
	}
	queues := make([]int, len(s.net.topo.Nodes))
	size := s.cfg.switchBuffers(s.net)
	for j := range s.ports {
		queues[s.net.portNode(int32(j))] += int(s.classes)
	}
	out := make([]*switchBuffer, len(queues))
	for node, n := range queues {
		if n == 0 {
			continue
		}
		b := &switchBuffer{size: size[node], shared: size[node] - n*sh.Reserve, reserve: sh.Reserve, alpha: sh.Alpha}
		if a := int(sh.Alpha); float64(a) == sh.Alpha {
			b.alphaInt = a
		}
		if s.cfg.PFC != nil {
			b.lossless = math.MaxUint8
			if s.cfg.PFC.Lossless != 0 {
				b.lossless = s.cfg.PFC.Lossless
			}
		}
		out[node] = b
	}
	return out
}

// take admits a frame of bytes to queue q (of class class), and counts it
// in, or refuses it: the switch is full, or q is a lossy class's queue
// beyond its reserve and its dynamic threshold. Of the frame, what lies
// beyond q's reserve counts in the shared part: all of it, or the part
// above the reserve.
func (b *switchBuffer) take(q *classQueue, class uint8, bytes int) bool {
	if b.used+bytes > b.size {
		return false
	}
	after := q.bytes + bytes - b.reserve
	if after > 0 && b.lossless&(1<<class) == 0 && b.beyond(after) {
		return false
	}
	// min and max, not a branch: whether a queue is past its reserve is a
	// coin toss near it.
	b.sharedUsed += min(max(after, 0), bytes)
	b.used += bytes
	return true
}

// beyond reports whether a queue's bytes beyond its reserve, after (> 0),
// exceed the dynamic threshold: alpha times the shared buffer still free.
// With a whole alpha the products are exact in integers as in floats
// (the buffers' bytes are far below 2^53), so one integer compare decides.
func (b *switchBuffer) beyond(after int) bool {
	if b.alphaInt != 0 {
		return after > b.alphaInt*(b.shared-b.sharedUsed)
	}
	return float64(after) > b.alpha*float64(b.shared-b.sharedUsed)
}

// leave counts out a frame of bytes that leaves queue q: of it, what lay
// beyond q's reserve leaves the shared part.
func (b *switchBuffer) leave(q *classQueue, bytes int) {
	b.used -= bytes
	b.sharedUsed -= min(max(q.bytes-b.reserve, 0), bytes) // as in take
}

// ReserveError is a switch whose queues' reserves leave less than two
// frames of its shared buffer to share.
type ReserveError struct {
	Switch           string
	Reserves, Buffer int // bytes: its queues' reserves, its buffer
}

func (e *ReserveError) Error() string {
	return fmt.Sprintf("switch %s's queues reserve %d B of its %d B shared buffer: leave at least two frames to share", e.Switch, e.Reserves, e.Buffer)
}

// checkReserves finds a switch whose queues' reserves take its shared
// buffer (the shared part would be negative).
func (c *Config) checkReserves(n *network) error {
	if c.Shared == nil {
		return nil
	}
	size := c.switchBuffers(n)
	queues := make([]int, len(size))
	for _, tp := range n.ports {
		queues[n.topo.Ports[tp].From] += c.classCount()
	}
	for node, q := range queues {
		if q > 0 && size[node]-q*c.Shared.Reserve < 2*c.FrameBytes {
			return &ReserveError{Switch: n.topo.Nodes[node].Name, Reserves: q * c.Shared.Reserve, Buffer: size[node]}
		}
	}
	return nil
}

// switchBuffers is each switch's shared buffer, by node: Shared.Switch, or
// the sum of its ports' buffers.
func (c *Config) switchBuffers(n *network) []int {
	t := n.topo
	out := make([]int, len(t.Nodes))
	for _, tp := range n.ports {
		from := t.Ports[tp].From
		if c.Shared.Switch > 0 {
			out[from] = c.Shared.Switch
		} else {
			out[from] += t.Ports[tp].Buffer
		}
	}
	return out
}
