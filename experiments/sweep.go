package experiments

import (
	"fmt"
	"strings"

	"github.com/BurntSushi/toml"

	"qcnlab/experiments/sweep"
	"qcnlab/experiments/tomltext"
	"qcnlab/experiments/traffic"
)

// The sweep's axes and a point's values, as package sweep has them.
type (
	Axis       = sweep.Axis
	Assignment = sweep.Assignment
)

// AxisApplies reports whether a sweep axis varies the runs of an algorithm
// (sweep.Applies).
var AxisApplies = sweep.Applies

// Run is one simulation of a batch: one algorithm at one point of the sweep.
type Run struct {
	Algorithm string
	// Point is the sweep's values at this point that apply to the
	// algorithm, in axis order: an axis params.NAME.KEY applies to scheme
	// NAME only (AxisApplies).
	Point []Assignment
	Exp   *Experiment // the experiment at this point
}

// Label names the run: "qcn" or "qcn network.rtt=300us".
func (r Run) Label() string {
	return sweep.Label(r.Algorithm, r.Point, func(key string) string { return key })
}

// Runs expands the experiment into its runs: every combination of the sweep
// values (the first axis varies slowest), and at each, every algorithm, once
// per combination of the axes that apply to it.
func (e *Experiment) Runs() ([]Run, error) {
	var runs []Run
	var errs []error
	for _, p := range e.Points() {
		x, err := e.At(p)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		for _, name := range x.Algorithms {
			if point, first := sweep.Project(e.Sweep, p, name); first {
				runs = append(runs, Run{Algorithm: name, Point: point, Exp: x})
			}
		}
	}
	if len(errs) > 0 {
		return nil, joinErrors(errs)
	}
	return runs, nil
}

// Points lists the sweep's points (sweep.Points).
func (e *Experiment) Points() [][]Assignment { return sweep.Points(e.Sweep) }

// PointsFor lists the sweep's points for one algorithm (sweep.PointsFor),
// each of which At takes.
func (e *Experiment) PointsFor(algorithm string) [][]Assignment {
	return sweep.PointsFor(e.Sweep, algorithm)
}

// At is the experiment at one point of its sweep: a clone without the
// sweep, the point's values set, validated.
func (e *Experiment) At(p []Assignment) (*Experiment, error) {
	x := e.Clone()
	x.Sweep = nil
	var errs []error
	for _, a := range p {
		if err := x.assign(e.sweepWhere(a.Key)+" (sweep)", a.Key, a.Value); err != nil {
			errs = append(errs, err)
		}
	}
	if len(errs) > 0 {
		return nil, joinErrors(errs)
	}
	if err := x.Validate(); err != nil {
		return nil, fmt.Errorf("at sweep point %s: %w", sweep.String(p), err)
	}
	return x, nil
}

// ShortKey names a sweep key for titles, legends and the workbench
// (sweep.ShortKey).
func (e *Experiment) ShortKey(key string) string { return sweep.ShortKey(e.Sweep, key) }

// ShortLabel is a run's label with short keys: "qcn rtt=300us seed=2".
func (e *Experiment) ShortLabel(r Run) string { return sweep.Label(r.Algorithm, r.Point, e.ShortKey) }

// sweepWhere says where the axis of key was set.
func (e *Experiment) sweepWhere(key string) string {
	k := toml.Key{"sweep", key}.String() // sweep."network.rtt", as most files write it
	if _, ok := e.origin[k]; !ok {
		k = "sweep." + key
	}
	return e.where(k)
}

// sameValues refuses an axis that takes one value twice, however it is
// written (sweep.Repeated).
func (e *Experiment) sameValues() []error {
	var errs []error
	for _, a := range e.Sweep {
		x := e.Clone()
		if msg := sweep.Repeated(a, func(v string) (string, bool) { return x.parsed(a.Key, v) }); msg != "" {
			errs = append(errs, &Error{Where: e.sweepWhere(a.Key), Key: "sweep." + a.Key, Msg: msg})
		}
	}
	return errs
}

// parsed sets key to value and reads it back as TOML text, the same
// however it was written; false if it cannot.
func (e *Experiment) parsed(key, value string) (string, bool) {
	err := e.assign(e.sweepWhere(key)+" (sweep)", key, value) // as At sets it: a CDF file is relative to the sweep's file
	if key == "traffic.short_flow_sizes" && err == nil {
		return quote(traffic.Named(e.Traffic.ShortFlowSizes, e.dir(key))), true
	}
	if rest, ok := strings.CutPrefix(key, "params."); ok && err == nil {
		name, k, _ := strings.Cut(rest, ".")
		x, ok := e.Params[name][k]
		return fmt.Sprint(x), ok
	}
	if v, ok := valueAt(e, key); ok && err == nil {
		return tomltext.Value(v.Interface()), true
	}
	return "", false
}
