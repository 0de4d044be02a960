package sweep

import (
	"fmt"
	"slices"
	"strings"

	"github.com/BurntSushi/toml"

	"qcnlab/experiments/tomltext"
)

// Whole reports whether the text sets [sweep] as a whole (a file's
// table, or --set sweep={...}) rather than some of its keys (--set
// sweep.network.rtt=[...]).
func Whole(md toml.MetaData) bool {
	for _, k := range md.Keys() {
		if len(k) == 1 && k[0] == "sweep" {
			return true
		}
	}
	return false
}

// Merge sets the given axes: all of them if whole, else each one in the
// place of the axis of the same key, or after the others.
func Merge(old, set []Axis, whole bool) []Axis {
	if whole {
		return set
	}
	out := append([]Axis(nil), old...)
	for _, a := range set {
		i := slices.IndexFunc(out, func(b Axis) bool { return b.Key == a.Key })
		if i < 0 {
			out = append(out, a)
		} else {
			out[i] = a
		}
	}
	return out
}

// Decode reads [sweep] in document order: each key, dotted or nested,
// names an experiment key and holds the array of values it takes.
func Decode(md toml.MetaData, table map[string]any, loc func(string, int) string) ([]Axis, []error) {
	var axes []Axis
	var errs []error
	for _, k := range md.Keys() {
		if len(k) < 2 || k[0] != "sweep" {
			continue
		}
		var v any = table
		inValue := false
		for _, part := range k[1:] {
			t, ok := v.(map[string]any)
			if !ok { // a key of an inline table inside an axis's array
				inValue = true
				break
			}
			v = t[part]
		}
		key := strings.Join(k[1:], ".")
		if t, isTable := v.(map[string]any); isTable && len(t) == 0 && key == "sweep" {
			errs = append(errs, &tomltext.Error{Where: loc(k.String(), 0), Key: k.String(),
				Msg: "names the sweep table twice, and sweeps nothing: inside [sweep], a key names the setting it sweeps (seed = [1, 2])"})
			continue
		}
		if _, isTable := v.(map[string]any); isTable || inValue {
			continue // a table on the way to a key, or part of a value
		}
		if key == "sweep" { // sweep = [1, 2] inside [sweep]: a setting's name is missing
			errs = append(errs, &tomltext.Error{Where: loc(k.String(), 0), Key: k.String(),
				Msg: "names the sweep table twice, and no setting: inside [sweep], a key names the setting it sweeps (seed = [1, 2], network.rtt = [\"100us\", \"300us\"])"})
			continue
		}
		if rest, again := strings.CutPrefix(key, "sweep."); again {
			// "sweep.seed" = [1, 2] inside [sweep] is the key sweep.sweep.seed:
			// a run would set it as a sweep of its own, and fail on its value.
			errs = append(errs, &tomltext.Error{Where: loc(k.String(), 0), Key: k.String(),
				Msg: fmt.Sprintf("names the sweep table twice: inside [sweep], %s = %s; outside it or in --set, sweep.%s = %s", rest, tomltext.Value(v), rest, tomltext.Value(v))})
			continue
		}
		if slices.ContainsFunc(axes, func(a Axis) bool { return a.Key == key }) {
			// "network.rtt" and network.rtt, quoted and dotted: one key
			errs = append(errs, &tomltext.Error{Where: loc(k.String(), 0), Key: k.String(),
				Msg: fmt.Sprintf("sweeps %s a second time (a quoted and a dotted key name the same key): give its values once", key)})
			continue
		}
		values, ok := v.([]any)
		if !ok || len(values) == 0 {
			errs = append(errs, &tomltext.Error{Where: loc(k.String(), 0), Key: k.String(), Msg: "a sweep key takes a non-empty array of values"})
			continue
		}
		if slices.ContainsFunc(values, tomltext.HoldsTable) {
			errs = append(errs, &tomltext.Error{Where: loc(k.String(), 0), Key: k.String(),
				Msg: "a sweep takes values, not tables ([[network.changes]] and [[sources.override]] cannot be swept)"})
			continue
		}
		a := Axis{Key: key}
		for _, x := range values {
			a.Values = append(a.Values, tomltext.Value(x))
		}
		axes = append(axes, a)
	}
	return axes, errs
}
