// Package sweep is an experiment's [sweep]: its axes, the points they make
// (every combination of their values, the first axis varying slowest), the
// axes that vary each algorithm's runs, and the names a point's keys go by
// in labels, and [sweep] read from a file. It knows keys and values as
// text only: setting a point's values on an experiment is package
// experiments'.
package sweep

import (
	"fmt"
	"strings"
)

// Axis is one key of [sweep] and the values it takes, as TOML text.
type Axis struct {
	Key    string
	Values []string
}

// Assignment is one sweep key and its value as TOML text.
type Assignment struct {
	Key, Value string
}

// Applies reports whether a sweep axis varies the runs of an algorithm:
// every axis does, except a scheme parameter params.NAME.KEY, which applies
// to scheme NAME only. Another scheme's runs do not repeat for each of its
// values, and do not carry it in their label.
func Applies(key, algorithm string) bool {
	rest, ok := strings.CutPrefix(key, "params.")
	if !ok {
		return true
	}
	name, _, _ := strings.Cut(rest, ".")
	return name == algorithm
}

// Project keeps the assignments of a point of axes that apply to an
// algorithm, and reports whether the point is the first of its kind for
// it: every axis that does not apply is at its first value, so the others
// are repeats.
func Project(axes []Axis, p []Assignment, algorithm string) ([]Assignment, bool) {
	var out []Assignment
	for i, a := range p {
		if Applies(a.Key, algorithm) {
			out = append(out, a)
		} else if a.Value != axes[i].Values[0] {
			return nil, false
		}
	}
	return out, true
}

// Points lists the points of axes: every combination of their values, the
// first axis varying slowest. Without axes there is one empty point.
func Points(axes []Axis) [][]Assignment {
	points := [][]Assignment{nil}
	for _, axis := range axes {
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

// PointsFor lists the points for one algorithm: every combination of the
// axes that apply to it, in the order of Points. Each point holds every
// axis, those that do not apply at their first value.
func PointsFor(axes []Axis, algorithm string) [][]Assignment {
	var out [][]Assignment
	for _, p := range Points(axes) {
		if _, first := Project(axes, p, algorithm); first {
			out = append(out, p)
		}
	}
	return out
}

// Count is the number of runs of algorithms over axes, computed without
// expanding them: for each algorithm, every combination of the values of
// the axes that apply to it. No algorithm counts as one.
func Count(axes []Axis, algorithms []string) float64 {
	if len(algorithms) == 0 {
		algorithms = []string{""}
	}
	total := 0.0
	for _, name := range algorithms {
		n := 1.0
		for _, a := range axes {
			if Applies(a.Key, name) {
				n *= float64(len(a.Values))
			}
		}
		total += n
	}
	return total
}

// String is a point as "key=value, key=value".
func String(p []Assignment) string {
	var parts []string
	for _, a := range p {
		parts = append(parts, a.Key+"="+a.Value)
	}
	return strings.Join(parts, ", ")
}

// Label names a run of algorithm at point p, each key as short names it:
// "qcn rtt=300us".
func Label(algorithm string, p []Assignment, short func(key string) string) string {
	parts := []string{algorithm}
	for _, a := range p {
		parts = append(parts, short(a.Key)+"="+strings.Trim(a.Value, `"`))
	}
	return strings.Join(parts, " ")
}

// ShortKey names a key of axes for titles, legends and the workbench: its
// last part ("rtt" for network.rtt, "sampling" for
// params.ap-n-aimd.sampling), or more of it where another axis ends the
// same way ("qcn.w" and "qcn-t.w").
func ShortKey(axes []Axis, key string) string {
	parts := strings.Split(key, ".")
	for n := 1; n < len(parts); n++ {
		short := strings.Join(parts[len(parts)-n:], ".")
		unique := true
		for _, a := range axes {
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

// Repeated says which value an axis takes twice, however it is written
// ("100us" and "0.1ms"), or "" if none: its points would be one run
// counted as two, a seed as two seeds. canon is a value as parsed, as
// text, and false if it does not parse (reported elsewhere).
func Repeated(a Axis, canon func(value string) (string, bool)) string {
	seen := map[string]string{}
	for _, v := range a.Values {
		got, ok := canon(v)
		if !ok {
			return ""
		}
		if first, ok := seen[got]; ok {
			return fmt.Sprintf("takes the value %s twice (%s and %s): each value of an axis must differ", got, first, v)
		}
		seen[got] = v
	}
	return ""
}
