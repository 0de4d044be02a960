package experiments

import (
	"fmt"
	"strings"

	"github.com/BurntSushi/toml"
)

// Run is one simulation of a batch: one algorithm at one point of the sweep.
type Run struct {
	Algorithm string
	// Point is the sweep's values at this point that apply to the
	// algorithm, in axis order: an axis params.NAME.KEY applies to scheme
	// NAME only (AxisApplies).
	Point []Assignment
	Exp   *Experiment // the experiment at this point
}

// Assignment is one sweep key and its value as TOML text.
type Assignment struct {
	Key, Value string
}

// Label names the run: "qcn" or "qcn network.rtt=300us".
func (r Run) Label() string {
	parts := []string{r.Algorithm}
	for _, a := range r.Point {
		parts = append(parts, a.Key+"="+strings.Trim(a.Value, `"`))
	}
	return strings.Join(parts, " ")
}

// AxisApplies reports whether a sweep axis varies the runs of an algorithm:
// every axis does, except a scheme parameter params.NAME.KEY, which applies
// to scheme NAME only. Another scheme's runs do not repeat for each of its
// values, and do not carry it in their label.
func AxisApplies(key, algorithm string) bool {
	rest, ok := strings.CutPrefix(key, "params.")
	if !ok {
		return true
	}
	name, _, _ := strings.Cut(rest, ".")
	return name == algorithm
}

// project keeps the assignments of a point that apply to an algorithm, and
// reports whether the point is the first of its kind for it: every axis that
// does not apply is at its first value, so the others are repeats.
func (e *Experiment) project(p []Assignment, algorithm string) ([]Assignment, bool) {
	var out []Assignment
	for i, a := range p {
		if AxisApplies(a.Key, algorithm) {
			out = append(out, a)
		} else if a.Value != e.Sweep[i].Values[0] {
			return nil, false
		}
	}
	return out, true
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
			if point, first := e.project(p, name); first {
				runs = append(runs, Run{Algorithm: name, Point: point, Exp: x})
			}
		}
	}
	if len(errs) > 0 {
		return nil, joinErrors(errs)
	}
	return runs, nil
}

// Points lists the sweep's points: every combination of its values, the
// first axis varying slowest. Without a sweep there is one empty point.
func (e *Experiment) Points() [][]Assignment {
	points := [][]Assignment{nil}
	for _, axis := range e.Sweep {
		var next [][]Assignment
		for _, p := range points {
			for _, v := range axis.Values {
				next = append(next, append(append([]Assignment(nil), p...), Assignment{axis.Key, v}))
			}
		}
		points = next
	}
	return points
}

// PointsFor lists the sweep's points for one algorithm: every combination
// of the axes that apply to it, in the order of Points. Each point holds
// every axis, those that do not apply at their first value, so that At
// takes it.
func (e *Experiment) PointsFor(algorithm string) [][]Assignment {
	var out [][]Assignment
	for _, p := range e.Points() {
		if _, first := e.project(p, algorithm); first {
			out = append(out, p)
		}
	}
	return out
}

// At is the experiment at one point of its sweep: a clone without the
// sweep, the point's values set, validated.
func (e *Experiment) At(p []Assignment) (*Experiment, error) {
	x := e.Clone()
	x.Sweep = nil
	var errs []error
	for _, a := range p {
		key := toml.Key{"sweep", a.Key}.String() // sweep."network.rtt", as most files write it
		if _, ok := e.origin[key]; !ok {
			key = "sweep." + a.Key
		}
		where := e.where(key) + " (sweep)"
		if err := x.assign(where, a.Key, a.Value); err != nil {
			errs = append(errs, err)
		}
	}
	if len(errs) > 0 {
		return nil, joinErrors(errs)
	}
	if err := x.Validate(); err != nil {
		return nil, fmt.Errorf("at sweep point %s: %w", pointString(p), err)
	}
	return x, nil
}

func pointString(p []Assignment) string {
	var parts []string
	for _, a := range p {
		parts = append(parts, a.Key+"="+a.Value)
	}
	return strings.Join(parts, ", ")
}

// ShortKey names a sweep key for titles, legends and the workbench: its last
// part ("rtt" for network.rtt, "sampling" for params.ap-n-aimd.sampling), or
// more of it where another axis of the sweep ends the same way
// ("qcn.w" and "qcn-t.w").
func (e *Experiment) ShortKey(key string) string {
	parts := strings.Split(key, ".")
	for n := 1; n < len(parts); n++ {
		short := strings.Join(parts[len(parts)-n:], ".")
		unique := true
		for _, a := range e.Sweep {
			if a.Key != key && (a.Key == short || strings.HasSuffix(a.Key, "."+short)) {
				unique = false
				break
			}
		}
		if unique {
			return short
		}
	}
	return key
}

// ShortLabel is a run's label with short keys: "qcn rtt=300us seed=2".
func (e *Experiment) ShortLabel(r Run) string {
	parts := []string{r.Algorithm}
	for _, a := range r.Point {
		parts = append(parts, e.ShortKey(a.Key)+"="+strings.Trim(a.Value, `"`))
	}
	return strings.Join(parts, " ")
}
