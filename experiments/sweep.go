package experiments

import (
	"fmt"
	"strings"

	"github.com/BurntSushi/toml"
)

// Run is one simulation of a batch: one algorithm at one point of the sweep.
type Run struct {
	Algorithm string
	Point     []Assignment // the sweep's values at this point, in axis order
	Exp       *Experiment  // the experiment at this point
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

// Runs expands the experiment into its runs: every combination of the sweep
// values (the first axis varies slowest), and at each, every algorithm.
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
			runs = append(runs, Run{Algorithm: name, Point: p, Exp: x})
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
