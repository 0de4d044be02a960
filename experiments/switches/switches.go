// Package switches is the switch model the [network] keys set, as the
// model takes it: traffic classes and their scheduler, the buffer model
// (per port or shared), PFC, RED per class, control frames, and the hosts'
// clocks and switches' jitter that break line-rate senders' lock-step;
// each default where the keys leave it, and where it comes from.
package switches

import (
	"slices"

	"qcnlab/algos"
	"qcnlab/experiments/topology"
	"qcnlab/model"
)

// isFabric reports whether n is a fabric's network.
func isFabric(n topology.Network) bool { return topology.Fabric(n.Topology) != nil }

// Traffic classes (model/classes.go): how many every switch port has,
// how its scheduler shares the port among them, and each flow's.
//
//	[network]
//	classes = 3                 # each switch port has 3 queues
//	scheduler = "dwrr"          # or "strict" (the default)
//	strict_classes = 1          # class 0 first, by strict priority; 1 and 2 by DWRR
//	class_weights = [1, 3, 1]   # DWRR weights (the strict class's unused)
//	dwrr_quantum = "1500B"      # bytes a weight of 1 earns per turn (the frame size)
//
//	[traffic]
//	class = 2                   # the sources', the pattern's and short flows' class
//
//	[[flows]]
//	from = 1
//	to = 0
//	class = 1                   # this flow's

// ClassCount is network.classes or its default, 1.
func ClassCount(n topology.Network) int {
	if c := n.Classes; c != nil {
		return *c
	}
	return 1
}

// Classes is the model's classes, nil with one.
func Classes(n topology.Network) *model.Classes {
	k := &model.Classes{N: ClassCount(n)}
	if k.N <= 1 {
		return nil
	}
	k.Strict = k.N // strict priority by default, as 802.1Q's default selection
	if n.Scheduler == "dwrr" {
		k.Strict = 0
		if n.StrictClasses != nil {
			k.Strict = *n.StrictClasses
		}
	}
	k.Weights = n.ClassWeights
	if k.Weights == nil {
		k.Weights = make([]int, k.N)
		for i := range k.Weights {
			k.Weights[i] = 1
		}
	}
	if n.DWRRQuantum != nil {
		k.Quantum = int(*n.DWRRQuantum)
	}
	return k
}

// lossless is network.pfc_classes as the model's bits, 0 (every
// class lossless) without it.
func lossless(n topology.Network) uint8 {
	var m uint8
	for _, c := range n.PFCClasses {
		if c >= 0 && c < model.MaxClasses {
			m |= 1 << c
		}
	}
	return m
}

// BufferModel is network.buffer_model or its default, "per_port": each
// egress queue its own drop-tail buffer, the seeds' model, on every
// topology (the fabric built-ins' numbers and claims were measured with
// it; the ns-3 RDMA switches' shared buffer is network.buffer_model =
// "shared").
func BufferModel(n topology.Network) string {
	if m := n.BufferModel; m != "" {
		return m
	}
	return "per_port"
}

// Defaults of the shared buffer.
const (
	// defaultDTAlpha is the lossy classes' dynamic threshold: 1, with
	// which one congested queue may take half of the free shared buffer,
	// the value Choudhury and Hahne's analysis centres on.
	defaultDTAlpha = 1.0
)

// SharedBuffer is the model's shared buffer, nil with a buffer per port.
func SharedBuffer(n topology.Network) *model.SharedBuffer {
	if BufferModel(n) != "shared" {
		return nil
	}
	// A queue's reserve is one frame by default: any queue can take a
	// frame whatever the others hold (HPCC's switch reserves 4 KB per
	// ingress queue, ns3-rdma's one 1,030 B cell per egress queue).
	sh := &model.SharedBuffer{Reserve: int(n.FrameSize), Alpha: defaultDTAlpha}
	if n.SwitchBuffer != nil {
		sh.Switch = int(*n.SwitchBuffer)
	}
	if n.QueueReserve != nil {
		sh.Reserve = int(*n.QueueReserve)
	}
	if n.DTAlpha != nil {
		sh.Alpha = *n.DTAlpha
	}
	return sh
}

// ClassParams gives k, for scheme sc, each class's RED thresholds, where
// sc marks by them; k unchanged otherwise.
func ClassParams(n topology.Network, sc *algos.Scheme, k *model.Classes) *model.Classes {
	if k == nil || n.ClassKMin == nil && n.ClassKMax == nil && n.ClassPMax == nil {
		return k
	}
	if _, ok := sc.Param("k_min"); !ok {
		return k
	}
	c := *k
	c.Params = make([]algos.Values, c.N)
	for i := range c.Params {
		v := algos.Values{}
		if i < len(n.ClassKMin) {
			v["k_min"] = float64(n.ClassKMin[i])
		}
		if i < len(n.ClassKMax) {
			v["k_max"] = float64(n.ClassKMax[i])
		}
		if i < len(n.ClassPMax) {
			v["p_max"] = n.ClassPMax[i]
		}
		c.Params[i] = v
	}
	return &c
}

// defaultControlFrames are the schemes whose feedback travels as frames
// by default, where it can (a fabric routed by ECMP): DCQCN, whose CNPs
// both public ns-3 RDMA simulators send as frames in the switches'
// highest-priority queue (alibaba-edu/High-Precision-Congestion-Control's
// qbb-net-device, bobzhuyb/ns3-rdma), and the ACK-clocked schemes, whose
// ACKs and NACKs the HPCC code sends in that queue too
// (RdmaEnqueueHighPrioQ) and htsim's queues serve as packets. The 802.1Qau
// schemes keep theirs out of band: the seeds model feedback delay as a
// parameter.
var defaultControlFrames = []string{"dcqcn", "dctcp", "hpcc", "swift", "timely"}

// SendsControlFrames reports whether scheme name's feedback and CNPs
// travel as frames (model/control.go): listed in network.control_frames,
// or by default, on a fabric routed by ECMP.
func SendsControlFrames(n topology.Network, name string) bool {
	if l := n.ControlFrames; l != nil {
		return slices.Contains(l, name)
	}
	return isFabric(n) && n.Routing != "spray" && !(n.PFC && PFCAccounting(n) != "ingress") &&
		slices.Contains(defaultControlFrames, name)
}

// PFC is the model's PFC setting, nil when network.pfc is off.
func PFC(n topology.Network) *model.PFC {
	if !n.PFC {
		return nil
	}
	p := &model.PFC{Xoff: -1, Xon: -1, Ingress: PFCAccounting(n) == "ingress", DeadlockAfter: defaultDeadlockAfter, Lossless: lossless(n)}
	if n.PFCDeadlockAfter != nil {
		p.DeadlockAfter = algos.Time(*n.PFCDeadlockAfter)
	}
	if n.PFCThreshold == "dynamic" || n.PFCThreshold == "" && BufferModel(n) == "shared" {
		p.Dynamic, p.Alpha = true, defaultPFCAlpha
		if n.PFCAlpha != nil {
			p.Alpha = *n.PFCAlpha
		}
	}
	if n.PFCXoff != nil {
		p.Xoff = int(*n.PFCXoff)
	}
	if n.PFCXon != nil {
		p.Xon = int(*n.PFCXon)
	}
	return p
}

// defaultDeadlockAfter is how long a cycle of paused ports, each with
// frames and waiting on the next, must hold before the run stops as a PFC
// deadlock (model/deadlock.go): a millisecond is some 800 frame times at
// 10 Gbps, far longer than any pause that a cycle does not hold. With
// ingress accounting only; network.pfc_deadlock_after = "0s" turns it off.
const defaultDeadlockAfter = algos.Millisecond

// defaultPFCAlpha is the dynamic threshold's share of a switch's free
// shared buffer: HPCC's simulation's 1/8 (pfc_a_shift 3 for a port at the
// hosts' rate, alibaba-edu/High-Precision-Congestion-Control scratch/
// third.cc).
const defaultPFCAlpha = 0.125

// PFCAccounting is network.pfc_accounting or its default: "ingress" on a
// fabric, PAUSE decided per link into a switch from the bytes that came in
// by it, as both public ns-3 RDMA switch models decide it (model/
// pfc_ingress.go); "egress" on a chain, per port from its queue, pausing
// every link that feeds it, as seed 000 section II describes a congested
// buffer pausing its upstream buffers (and the seeds' figures keep their
// numbers).
func PFCAccounting(n topology.Network) string {
	switch {
	case n.PFCAccounting != "":
		return n.PFCAccounting
	case isFabric(n):
		return "ingress"
	}
	return "egress"
}

// Hosts' clocks and switches' forwarding jitter (model/clock.go), the
// keys network.clock_ppm and network.switch_jitter.
//
// On a fabric they default to what real hardware has: clocks anywhere
// within Ethernet's +-100 ppm (IEEE 802.3), and a forwarding latency that
// varies by up to one frame time at network.capacity (1.2 us at 10 Gbps
// and 1500 B), the time a frame may wait for its turn among the ingress
// ports that contend for the same egress. Less jitter leaves line-rate
// senders locked in phase over windows of milliseconds (model/clock.go).
//
// On a chain (a dumbbell, a parking lot) both default to 0: the seeds'
// figures come from simulators whose sources and switches are exact, and
// keep their numbers.
const defaultClockPPM = 100

// ClockPPM is network.clock_ppm or its default.
func ClockPPM(n topology.Network) float64 {
	switch {
	case n.ClockPPM != nil:
		return *n.ClockPPM
	case isFabric(n):
		return defaultClockPPM
	}
	return 0
}

// SwitchJitter is network.switch_jitter or its default.
func SwitchJitter(n topology.Network) algos.Time {
	switch {
	case n.SwitchJitter != nil:
		return algos.Time(*n.SwitchJitter)
	case isFabric(n) && n.Capacity > 0 && n.FrameSize > 0:
		return algos.TransmitTime(int(n.FrameSize), float64(n.Capacity))
	}
	return 0
}
