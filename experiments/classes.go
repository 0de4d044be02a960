package experiments

import (
	"fmt"

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

// TrafficClass is traffic.class or its default, 0: the class of a chain's
// sources and of a fabric's pattern and short flows.
func (e *Experiment) TrafficClass() int {
	if c := e.Traffic.Class; c != nil {
		return *c
	}
	return 0
}

// setFlowClasses gives the flows of fabric f their classes: the
// pattern's and the short flows traffic.class, those of [[flows]] their
// own or traffic.class. The explicit flows are the last of f.Flows.
func (e *Experiment) setFlowClasses(f *model.Fabric) {
	explicit := len(f.Flows) - len(e.Flows)
	for i := range f.Flows {
		f.Flows[i].Class = e.TrafficClass()
		if k := i - explicit; k >= 0 && e.Flows[k].Class != nil {
			f.Flows[i].Class = *e.Flows[k].Class
		}
	}
	if f.Short != nil {
		f.Short.Class = e.TrafficClass()
	}
}

// validateClasses checks the class keys and every class a flow names.
func (e *Experiment) validateClasses(bad func(key, format string, args ...any)) {
	n := e.Network
	N := e.ClassCount()
	if N < 1 || N > model.MaxClasses {
		bad("network.classes", "%d: from 1 to %d (802.1Q's priorities)", N, model.MaxClasses)
		return
	}
	several := func(key string) bool {
		if N < 2 {
			bad(key, "applies with network.classes of 2 or more")
			return false
		}
		return true
	}
	switch s := n.Scheduler; {
	case s == "":
	case s != "strict" && s != "dwrr":
		bad("network.scheduler", "%q: must be \"strict\" or \"dwrr\"", s)
	default:
		several("network.scheduler")
	}
	if sc := n.StrictClasses; sc != nil {
		switch {
		case n.Scheduler != "dwrr":
			bad("network.strict_classes", "set network.scheduler = \"dwrr\" for it to apply (with \"strict\" every class is)")
		case *sc < 0 || *sc > N:
			bad("network.strict_classes", "%d: from 0 to the %d classes", *sc, N)
		}
	}
	if w := n.ClassWeights; w != nil && several("network.class_weights") {
		if len(w) != N {
			bad("network.class_weights", "%d weights for %d classes: give one per class", len(w), N)
		}
		for i, x := range w {
			if x < 1 || x > 1<<16 {
				bad("network.class_weights", "class %d's weight %d: a whole number from 1 to 65536", i, x)
			}
		}
	}
	if q := n.DWRRQuantum; q != nil && several("network.dwrr_quantum") {
		if *q < 1 || *q > 1<<24 || float64(*q) != float64(int64(*q)) {
			bad("network.dwrr_quantum", "must be a whole number of bytes from 1 B to 16 MiB")
		}
	}
	class := func(key string, c *int) {
		if c != nil && (*c < 0 || *c >= N) {
			bad(key, "class %d is not one of the %d classes (0 to %d; network.classes)", *c, N, N-1)
		}
	}
	class("traffic.class", e.Traffic.Class)
	for i, f := range e.Flows {
		class(fmt.Sprintf("flows[%d].class", i), f.Class)
	}
	if N > 1 && n.PFC {
		bad("network.pfc", "PFC pauses a port's single class: with network.classes of 2 or more run without it")
	}
	if N > 1 && e.Model != "packet" {
		bad("network.classes", "classes are the packet model's; use model = \"packet\"")
	}
}
