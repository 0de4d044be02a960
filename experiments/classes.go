package experiments

import (
	"fmt"

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

// validateClasses checks what the class keys' rules (package keys) cannot
// see alone: the class each of [[flows]] names, and PFC with several
// classes.
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
	if N > 1 && e.Network.PFC {
		bad("network.pfc", "PFC pauses a port's single class: with network.classes of 2 or more run without it")
	}
}
