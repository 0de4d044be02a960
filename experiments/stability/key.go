package stability

import (
	"fmt"
	"math"
	"reflect"
	"strings"

	"qcnlab/algos"
	"qcnlab/experiments"
	"qcnlab/experiments/units"
)

// keyKind finds the unit family of a numeric experiment key: a field of the
// file's schema, found through its TOML names, or a scheme parameter
// (params.NAME.KEY).
func keyKind(key string) (algos.Kind, error) {
	parts := strings.Split(key, ".")
	if parts[0] == "params" {
		if len(parts) != 3 {
			return 0, fmt.Errorf("%s: a scheme parameter is params.NAME.KEY", key)
		}
		sc, err := algos.Lookup(parts[1])
		if err != nil {
			return 0, fmt.Errorf("%s: %w", key, err)
		}
		p, ok := sc.Param(parts[2])
		if !ok {
			return 0, fmt.Errorf("%s: %s has no parameter %q (it has %s)", key, parts[1], parts[2], strings.Join(sc.Keys(), ", "))
		}
		if p.Kind == algos.Switch {
			return 0, fmt.Errorf("%s: an on/off switch has no range to search", key)
		}
		return p.Kind, nil
	}
	if key == "seed" {
		return 0, fmt.Errorf("seed: the seeds are chosen with --seeds, not searched")
	}
	t := reflect.TypeOf(experiments.Experiment{})
	for i, part := range parts {
		f, ok := fieldByTOML(t, part)
		if !ok {
			return 0, fmt.Errorf("%s: unknown key", key)
		}
		t = f.Type
		if t.Kind() == reflect.Pointer {
			t = t.Elem()
		}
		if t.Kind() == reflect.Struct && i < len(parts)-1 {
			continue
		}
		if i < len(parts)-1 {
			return 0, fmt.Errorf("%s: unknown key", key)
		}
	}
	switch t {
	case reflect.TypeOf(units.Duration(0)):
		return algos.Duration, nil
	case reflect.TypeOf(units.Bytes(0)):
		return algos.Bytes, nil
	case reflect.TypeOf(units.Rate(0)):
		return algos.Rate, nil
	}
	switch t.Kind() {
	case reflect.Int, reflect.Int64, reflect.Uint64:
		return algos.Count, nil
	case reflect.Float64:
		return algos.Number, nil
	}
	return 0, fmt.Errorf("%s: not a numeric key", key)
}

func fieldByTOML(t reflect.Type, name string) (reflect.StructField, bool) {
	if t.Kind() != reflect.Struct {
		return reflect.StructField{}, false
	}
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		tag, _, _ := strings.Cut(f.Tag.Get("toml"), ",")
		if tag == name && tag != "-" {
			return f, true
		}
	}
	return reflect.StructField{}, false
}

// axis is the searched key: its kind and how its values are written.
type axis struct {
	key  string
	kind algos.Kind
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
	return x, nil
}

// snap rounds x to a value the key can hold (whole bytes and counts, whole
// picoseconds) and that its text form writes exactly.
func (a axis) snap(x float64) float64 {
	switch a.kind {
	case algos.Count, algos.Bytes:
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
	kind, err := keyKind(key)
	if err != nil {
		return 0, err
	}
	if kind == algos.Duration {
		t, err := units.ParseDuration(s)
		return t.Seconds(), err
	}
	return units.Parse(kind, s)
}
