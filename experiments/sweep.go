package experiments

import (
	"fmt"
	"strings"
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
	for _, p := range points {
		x := e.Clone()
		x.Sweep = nil
		for _, a := range p {
			where := e.where("sweep."+a.Key) + " (sweep)"
			if err := x.assign(where, a.Key, a.Value); err != nil {
				errs = append(errs, err)
			}
		}
		if err := x.Validate(); err != nil {
			errs = append(errs, fmt.Errorf("at sweep point %s: %w", pointString(p), err))
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

func pointString(p []Assignment) string {
	var parts []string
	for _, a := range p {
		parts = append(parts, a.Key+"="+a.Value)
	}
	return strings.Join(parts, ", ")
}
