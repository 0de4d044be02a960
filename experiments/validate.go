package experiments

import (
	"errors"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"

	"qcnlab/algos"
	"qcnlab/experiments/keys"
	"qcnlab/experiments/sources"
	"qcnlab/experiments/topology"
	"qcnlab/model"
	"qcnlab/units"
)

// Validate checks the whole experiment and reports every problem, each with
// the place its key was set.
func (e *Experiment) Validate() error {
	var errs []error
	bad := func(key, format string, args ...any) {
		errs = append(errs, &Error{Where: e.where(key), Key: key, Msg: fmt.Sprintf(format, args...)})
	}
	// badParams reports a failed Resolve under the key it blames.
	// A default that does not fit is placed at the buffer, the setting
	// most defaults derive from.
	badParams := func(name string, err error) {
		key, where := "params."+name, e.where("params."+name)
		if pe := (*algos.ParamError)(nil); errors.As(err, &pe) {
			key, err = key+"."+pe.Key, pe.Err
			if _, set := e.Params[name][pe.Key]; set {
				where = e.where(key)
			} else {
				where = e.where("network.buffer")
			}
		}
		errs = append(errs, &Error{Where: where, Key: key, Msg: err.Error()})
	}
	keys.Run(e.Network.Topology, fileView{e}, bad) // each key's own rule

	e.scopeErrors(bad)
	if e.IsFabric() {
		e.validateFabric(bad)
	} else {
		e.validateChain(bad)
	}
	refused := map[string]bool{}
	for _, err := range errs {
		if ke := (*Error)(nil); errors.As(err, &ke) {
			refused[keys.Plain(ke.Key)] = true
		}
	}
	keys.RunCross(e.Network.Topology, fileView{e}, refused, bad) // the keys weighed against each other
	e.validateTraffic(bad)
	e.validateClassRED(bad)
	if len(errs) == 0 && e.IsFabric() { // routes, and flows, need sound keys
		e.checkFabric(bad)
	}
	if len(errs) == 0 { // the thresholds need a sound network
		if e.IsFabric() {
			if cfg, err := e.fabricConfig(); err == nil {
				e.validatePFC(bad, cfg)
			}
		} else {
			e.validatePFC(bad, model.Config{FrameBytes: int(e.Network.FrameSize), Links: e.LinkConfigs(), Sources: e.SourceConfigs()})
		}
	}
	sound := len(errs) == 0 // the network is valid enough to derive defaults from
	for _, name := range e.Algorithms {
		// An algorithm without a [params] table still needs defaults that
		// fit this network; one with a table is checked below.
		if _, ok := e.Params[name]; !ok && sound {
			if sc, err := algos.Lookup(name); err == nil {
				if _, err := sc.Resolve(e.SchemeNetwork(), nil); err != nil {
					badParams(name, err)
				}
			}
		}
	}
	for _, name := range slices.Sorted(maps.Keys(e.Params)) {
		sc, err := algos.Lookup(name)
		if err != nil {
			bad("params."+name, "%v", err)
			continue
		}
		ok := true
		for _, key := range slices.Sorted(maps.Keys(e.Params[name])) {
			p, known := sc.Param(key)
			if !known {
				bad("params."+name+"."+key, "%s has no parameter %q", name, key)
			} else if err := keys.ParamError(p, e.Params[name][key]); err != nil {
				bad("params."+name+"."+key, "%v", err)
			} else {
				continue
			}
			ok = false
		}
		if ok && sound {
			if _, err := sc.Resolve(e.SchemeNetwork(), e.Params[name]); err != nil {
				badParams(name, err)
			}
		}
	}
	if len(errs) == 0 {
		e.costErrors(bad)
	}
	if len(errs) == 0 {
		e.seriesErrors(bad)
	}
	if len(e.Sweep) > 0 && e.sweepErrors(bad) && len(errs) == 0 {
		errs = e.sameValues() // a value given twice, before the runs are made
	}
	if len(e.Sweep) > 0 && len(errs) == 0 {
		if runs, err := e.Runs(); err != nil {
			errs = append(errs, err)
		} else {
			batchErrors(runs, bad)
		}
	}
	return joinErrors(errs)
}

// where says where a key was last set: its file and line if it came from a
// file, the experiment's name for defaults.
func (e *Experiment) where(key string) string {
	for k := key; k != ""; {
		if w, ok := e.origin[k]; ok {
			return w
		}
		if i := strings.LastIndexByte(k, '.'); i >= 0 {
			k = k[:i]
		} else {
			break
		}
	}
	return "experiment " + keys.SafeName(e.Name) // a name that is refused must not reach the terminal raw
}

// validateChain checks the keys of a dumbbell or a parking lot: its links,
// its sources and their overrides.
func (e *Experiment) validateChain(bad func(key, format string, args ...any)) {
	n := e.Network
	links := e.LinkCount()
	oneLink := e.OneBottleneck() // a dumbbell
	switch {
	case oneLink && links != 1:
		bad("network.links", "a %s has one congestible link; use topology = \"parking_lot\" for a chain", n.Topology)
	case oneLink && n.HopDelay != nil && *n.HopDelay != FixedDelay(algos.Time(n.RTT)/2):
		// Files saved before dumbbells stopped writing it hold rtt/2, which
		// changes nothing; any other value would be silently ignored.
		bad("network.hop_delay", "a %s has no hop between switches: its delays are network.rtt's and the sources' ([[sources.override]] rtt)", n.Topology)
	case links < 1 || links > topology.MaxChainLinks:
		bad("network.links", "must be from 1 to %d", topology.MaxChainLinks)
	case e.Model == "fluid" && links > 1:
		bad("network.links", "the fluid model has one bottleneck; use model = \"packet\" for a parking lot")
	case e.Model == "convergence" && links > 1:
		bad("model", "seed 002's convergence model has one bottleneck; use model = \"packet\" for a parking lot")
	}
	sources.Check(e.Sources, links, e.SourceConfigs(), bad)
}

// fileView is the experiment as the registry's rules read it.
type fileView struct{ e *Experiment }

func (v fileView) Value(path string) any {
	if x, ok := valueAt(v.e, path); ok {
		return x.Interface()
	}
	return nil
}

func (v fileView) Resolved(path string) any {
	switch path {
	case "warmup":
		return units.Duration(v.e.WarmupTime())
	case "network.links":
		return v.e.LinkCount()
	case "network.classes":
		return v.e.ClassCount()
	case "network.pfc_accounting":
		return v.e.PFCAccounting()
	case "network.buffer_model":
		return v.e.BufferModel()
	case "traffic.pattern":
		return v.e.pattern()
	}
	return v.Value(path)
}

func (v fileView) Set(path string) bool { _, ok := v.e.origin[path]; return ok }

func (v fileView) Overridden(path string) bool { return v.e.origin[path] == "--set" }

func (v fileView) Len(path string) int {
	if x, ok := valueAt(v.e, path); ok && x.Kind() == reflect.Slice {
		return x.Len()
	}
	return 0
}

func (v fileView) Hosts() int { return v.e.hostCount() }

func (v fileView) Ports() int {
	if v.e.IsFabric() {
		return v.e.fabricPorts()
	}
	return v.e.LinkCount()
}
