package experiments

import (
	"fmt"
	"maps"
	"slices"

	"qcnlab/algos"
	"qcnlab/experiments/keys"
	"qcnlab/model"
	"qcnlab/units"
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

// validateClasses checks what the class keys' rules (package keys) cannot
// see alone: the class each of [[flows]] names, PFC with several classes
// (by ingress accounting only) and its lossless classes.
func (e *Experiment) validateClasses(bad func(key, format string, args ...any)) {
	N := e.ClassCount()
	if N < 1 || N > model.MaxClasses {
		return // network.classes's rule reports it
	}
	for i, f := range e.Flows {
		if f.Class != nil {
			if msg := keys.ClassError(*f.Class, N); msg != "" {
				bad(fmt.Sprintf("flows[%d].class", i), "%s", msg)
			}
		}
	}
	n := e.Network
	if N > 1 && n.PFC && e.PFCAccounting() != "ingress" {
		bad("network.pfc_accounting", "PFC per class is decided per link into a switch: with network.classes of 2 or more set network.pfc_accounting = \"ingress\"")
	}
	if pc := n.PFCClasses; pc != nil {
		if !n.PFC {
			bad("network.pfc_classes", "set network.pfc = true for them to apply")
		}
		for _, c := range pc {
			if msg := keys.ClassError(c, N); msg != "" {
				bad("network.pfc_classes", "%s", msg)
			}
		}
	}
}

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

// validateBuffer checks the buffer model's keys.
func (e *Experiment) validateBuffer(bad func(key, format string, args ...any)) {
	n := e.Network
	shared := e.BufferModel() == "shared"
	switch m := n.BufferModel; {
	case m == "":
	case m != "per_port" && m != "shared":
		bad("network.buffer_model", "%q: must be \"per_port\" or \"shared\"", m)
		return
	case shared && e.Model != "packet":
		bad("network.buffer_model", "the shared buffer is the packet model's; use model = \"packet\"")
	}
	only := func(key string) bool {
		if !shared {
			bad(key, "set network.buffer_model = \"shared\" for it to apply")
		}
		return shared
	}
	whole := func(key string, b *units.Bytes, least float64) {
		if b != nil && only(key) && (float64(*b) < least || float64(*b) != float64(int64(*b)) || *b > 1<<40) {
			bad(key, "must be a whole number of bytes, at least %s", units.FormatBytes(least))
		}
	}
	whole("network.switch_buffer", n.SwitchBuffer, 2*float64(n.FrameSize))
	whole("network.queue_reserve", n.QueueReserve, 0)
	if sh := e.sharedBuffer(); sh != nil && !e.IsFabric() {
		// A chain's switch has one port: its queues' reserves must leave
		// two frames of its buffer to share (a fabric's switches are
		// checked as the network is built, model.ReserveError).
		for j, l := range e.LinkConfigs() {
			size := l.Buffer
			if sh.Switch > 0 {
				size = sh.Switch
			}
			if q := e.ClassCount() * sh.Reserve; size-q < 2*int(n.FrameSize) {
				bad("network.queue_reserve", "switch %d's queues reserve %d B of its %d B shared buffer: leave at least two frames to share", j, q, size)
				break
			}
		}
	}
	if a := n.DTAlpha; a != nil && only("network.dt_alpha") && !(*a > 0 && *a <= 64) {
		bad("network.dt_alpha", "must be in (0, 64]")
	}
	if shared && n.PFC {
		switch {
		case e.PFCAccounting() != "ingress":
			bad("network.pfc_accounting", "a shared buffer's PFC is decided per link into a switch: set network.pfc_accounting = \"ingress\"")
		case n.PFCThreshold == "static":
			bad("network.pfc_threshold", "a shared buffer's PFC thresholds follow its free space: leave it out, or \"dynamic\"")
		case n.PFCXoff != nil || n.PFCXon != nil:
			bad("network.pfc_xoff", "a shared buffer's PFC thresholds are dynamic, derived: leave network.pfc_xoff and network.pfc_xon out")
		}
	}
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

// validateClassRED checks the lists of RED's thresholds per class: one
// value per class, each in the scheme's range, with k_min at most k_max.
func (e *Experiment) validateClassRED(bad func(key, format string, args ...any)) {
	n := e.Network
	N := e.ClassCount()
	lists := []struct {
		key string
		n   int
	}{{"network.class_k_min", len(n.ClassKMin)}, {"network.class_k_max", len(n.ClassKMax)}, {"network.class_p_max", len(n.ClassPMax)}}
	given := false
	for _, l := range lists {
		if l.n == 0 {
			continue
		}
		given = true
		if N < 2 {
			bad(l.key, "applies with network.classes of 2 or more")
			return
		}
		if l.n != N {
			bad(l.key, "%d values for %d classes: give one per class", l.n, N)
			return
		}
	}
	if !given {
		return
	}
	marks := false
	for _, name := range e.Algorithms {
		sc, err := algos.Lookup(name)
		if err != nil {
			continue // reported elsewhere
		}
		if _, ok := sc.Param("k_min"); !ok {
			continue
		}
		marks = true
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
	if !marks {
		bad("network.class_k_min", "none of the algorithms marks by RED's k_min, k_max and p_max (DCQCN does)")
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

// validateControlFrames checks network.control_frames: schemes of the
// experiment, on a fabric routed by ECMP.
func (e *Experiment) validateControlFrames(bad func(key, format string, args ...any)) {
	l := e.Network.ControlFrames
	if len(l) == 0 {
		return
	}
	switch {
	case !e.IsFabric():
		bad("network.control_frames", "a chain's reverse ports are not simulated: its feedback travels out of band")
		return
	case e.Network.Routing == "spray":
		bad("network.control_frames", "control frames take the reverse of their flow's route: they need routing = \"ecmp\"")
		return
	case e.Network.PFC && e.PFCAccounting() != "ingress":
		bad("network.control_frames", "control frames need PFC decided per link into a switch: set network.pfc_accounting = \"ingress\"")
		return
	}
	for _, name := range l {
		if !slices.Contains(e.Algorithms, name) {
			bad("network.control_frames", "%q is not one of the experiment's algorithms %q", name, e.Algorithms)
		}
	}
}
