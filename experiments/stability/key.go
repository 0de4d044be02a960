package stability

import (
	"fmt"
	"math"
	"strings"

	"qcnlab/algos"
	"qcnlab/experiments/keys"
	"qcnlab/units"
)

// axis is the searched key: its kind and how its values are written.
type axis struct {
	key  string
	kind algos.Kind
	step float64 // a whole-number key's spacing (keys.StepOf): k of a fat-tree takes even values only
}

// newAxis is the axis of key, of kind.
func newAxis(key string, kind algos.Kind) axis {
	a := axis{key: key, kind: kind, step: 1}
	if kind == algos.Count {
		a.step = float64(keys.StepOf(key))
	}
	return a
}

// parse reads one end of the range in base units (seconds for a duration).
func (a axis) parse(s string) (float64, error) {
	x, err := units.Parse(a.kind, s)
	if err != nil {
		return 0, fmt.Errorf("--range: %s: %w", a.key, err)
	}
	if a.kind == algos.Count && x != math.Trunc(x) {
		return 0, fmt.Errorf("--range: %s: %q is not a whole number", a.key, s)
	}
	if a.kind == algos.Count && math.Mod(x, a.step) != 0 {
		return 0, fmt.Errorf("--range: %s: %q is not a multiple of %g: the key takes no other value", a.key, s, a.step)
	}
	return x, nil
}

// snap rounds x to a value the key can hold (whole bytes, whole counts and
// their multiples of the key's step, whole picoseconds) and that its text
// form writes exactly.
func (a axis) snap(x float64) float64 {
	switch a.kind {
	case algos.Count:
		return a.step * math.Round(x/a.step)
	case algos.Bytes:
		return math.Round(x)
	case algos.Duration:
		return algos.Seconds(x).Seconds()
	}
	return x
}

// text is x as the TOML value --set takes.
func (a axis) text(x float64) string {
	s := units.Format(a.kind, x)
	if a.kind == algos.Number && !strings.ContainsAny(s, ".eEn") { // "2" would be read as an integer
		s += ".0"
	}
	return s
}

// unit names the base unit of the key's values in reports.
func (a axis) unit() string {
	switch a.kind {
	case algos.Duration:
		return "s"
	case algos.Bytes:
		return "bytes"
	case algos.Rate:
		return "bits/s"
	case algos.Count:
		return "count"
	}
	return ""
}

// format writes x for people, with its unit.
func (a axis) format(x float64) string {
	if a.kind == algos.Duration {
		return units.FormatDuration(algos.Seconds(x))
	}
	return units.Format(a.kind, x)
}

// ParseValue reads a value of key (with its unit: "10us" for network.rtt)
// in base units, for options such as a resolution.
func ParseValue(key, s string) (float64, error) {
	kind, err := keys.NumericKind(key)
	if err != nil {
		return 0, err
	}
	if kind == algos.Duration {
		t, err := units.ParseDuration(s)
		return t.Seconds(), err
	}
	return units.Parse(kind, s)
}
