package experiments

import (
	"maps"
	"slices"

	"qcnlab/algos"
	"qcnlab/experiments/keys"
	"qcnlab/model"
)

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
func (e *Experiment) ClassCount() int {
	if c := e.Network.Classes; c != nil {
		return *c
	}
	return 1
}

// classesConfig is the model's classes, nil with one.
func (e *Experiment) classesConfig() *model.Classes {
	n := e.Network
	k := &model.Classes{N: e.ClassCount()}
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

// losslessClasses is network.pfc_classes as the model's bits, 0 (every
// class lossless) without it.
func (e *Experiment) losslessClasses() uint8 {
	var m uint8
	for _, c := range e.Network.PFCClasses {
		if c >= 0 && c < model.MaxClasses {
			m |= 1 << c
		}
	}
	return m
}

// TrafficClass is traffic.class or its default, 0: the class of a chain's
// sources and of a fabric's pattern and short flows.
func (e *Experiment) TrafficClass() int { return e.Traffic.ClassOf() }

// BufferModel is network.buffer_model or its default, "per_port": each
// egress queue its own drop-tail buffer, the seeds' model, on every
// topology (the fabric built-ins' numbers and claims were measured with
// it; the ns-3 RDMA switches' shared buffer is network.buffer_model =
// "shared").
func (e *Experiment) BufferModel() string {
	if m := e.Network.BufferModel; m != "" {
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

// sharedBuffer is the model's shared buffer, nil with a buffer per port.
func (e *Experiment) sharedBuffer() *model.SharedBuffer {
	if e.BufferModel() != "shared" {
		return nil
	}
	n := e.Network
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

// classParams gives k, for scheme sc, each class's RED thresholds, where
// sc marks by them; k unchanged otherwise.
func (e *Experiment) classParams(sc *algos.Scheme, k *model.Classes) *model.Classes {
	n := e.Network
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

// validateClassRED checks each class's RED thresholds against the range
// of every scheme that marks by them (the lists' lengths are the
// registry's, keys.CrossRules).
func (e *Experiment) validateClassRED(bad func(key, format string, args ...any)) {
	n := e.Network
	N := e.ClassCount()
	for _, l := range []int{len(n.ClassKMin), len(n.ClassKMax), len(n.ClassPMax)} {
		if l != 0 && (N < 2 || l != N) {
			return // the registry reports it
		}
	}
	if n.ClassKMin == nil && n.ClassKMax == nil && n.ClassPMax == nil {
		return
	}
	for _, name := range e.Algorithms {
		if !keys.Marks(name) {
			continue
		}
		sc, _ := algos.Lookup(name)
		v, err := e.ParamValues(name)
		if err != nil {
			continue // reported elsewhere
		}
		k := e.classParams(sc, e.classesConfig())
		for c, over := range k.Params {
			x := maps.Clone(v)
			maps.Copy(x, over)
			if _, err := sc.Resolve(e.SchemeNetwork(), x); err != nil {
				bad("network.class_k_min", "class %d with %s: %v", c, name, err)
				return
			}
		}
	}
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
func (e *Experiment) SendsControlFrames(name string) bool {
	if l := e.Network.ControlFrames; l != nil {
		return slices.Contains(l, name)
	}
	return e.IsFabric() && e.Network.Routing != "spray" && !(e.Network.PFC && e.PFCAccounting() != "ingress") &&
		slices.Contains(defaultControlFrames, name)
}
