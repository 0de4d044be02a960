package experiments

import (
	"fmt"
	"reflect"
	"strings"

	"qcnlab/algos"
	"qcnlab/units"
)

// KeyKind finds the unit family of a numeric experiment key: a field of the
// file's schema, found through its TOML names, or a scheme parameter
// (params.NAME.KEY).
func KeyKind(key string) (algos.Kind, error) {
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
		if p.Kind == algos.Switch || p.Kind == algos.Choice {
			return 0, fmt.Errorf("%s: not a numeric key (a %s)", key, p.Kind)
		}
		return p.Kind, nil
	}
	t := reflect.TypeOf(Experiment{})
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
	case reflect.TypeOf(units.Duration(0)), reflect.TypeOf(Delay{}): // a delay varied is a fixed one
		return algos.Duration, nil
	case reflect.TypeOf(units.Bytes(0)):
		return algos.Bytes, nil
	case reflect.TypeOf(units.Rate(0)):
		return algos.Rate, nil
	}
	switch t.Kind() {
	case reflect.Int, reflect.Int64, reflect.Uint64: // seed, sources.count, network.links
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
