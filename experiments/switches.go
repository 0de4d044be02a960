package experiments

import (
	"maps"
	"strings"

	"qcnlab/algos"
	"qcnlab/experiments/keys"
	"qcnlab/experiments/switches"
	"qcnlab/model"
	"qcnlab/units"
)

// The switch model's keys as the model takes them (package switches).

// ClassCount is network.classes or its default, 1.
func (e *Experiment) ClassCount() int { return switches.ClassCount(e.Network) }

// BufferModel is network.buffer_model or its default (switches.BufferModel).
func (e *Experiment) BufferModel() string { return switches.BufferModel(e.Network) }

// PFCAccounting is network.pfc_accounting or its default
// (switches.PFCAccounting).
func (e *Experiment) PFCAccounting() string { return switches.PFCAccounting(e.Network) }

// TrafficClass is traffic.class or its default, 0: the class of a chain's
// sources and of a fabric's pattern and short flows.
func (e *Experiment) TrafficClass() int { return e.Traffic.ClassOf() }

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
		k := switches.ClassParams(e.Network, sc, switches.Classes(e.Network))
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

// validatePFC checks PFC's thresholds against every port's buffer and
// headroom (their keys against each other are the registry's,
// keys.CrossRules); cfg is the network as the model will see it.
func (e *Experiment) validatePFC(bad func(key, format string, args ...any), cfg model.Config) {
	n := e.Network
	if !n.PFC || e.Model == "fluid" {
		return
	}
	for _, v := range []*units.Bytes{n.PFCXoff, n.PFCXon} {
		if v != nil && (*v < 0 || float64(*v) != float64(int64(*v))) {
			return // the registry reports it
		}
	}
	cfg.PFC = switches.PFC(e.Network)
	if _, err := cfg.PFCThresholds(); err != nil {
		// The model names the threshold at fault first: "XON ...", "XOFF ...".
		key := "network.pfc"
		switch {
		case strings.HasPrefix(err.Error(), "XON") && n.PFCXon != nil:
			key = "network.pfc_xon"
		case strings.HasPrefix(err.Error(), "XOFF") && n.PFCXoff != nil:
			key = "network.pfc_xoff"
		}
		bad(key, "%v", err)
	}
}
