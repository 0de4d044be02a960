package experiments

import (
	"encoding"
	"fmt"
	"reflect"
	"strconv"
	"strings"

	"qcnlab/experiments/keys"
	"qcnlab/experiments/tomlstruct"
	"qcnlab/experiments/tomltext"
	"qcnlab/experiments/topology"
)

// fieldByTOML is the field of struct type t that TOML names name: in
// [network], a topology's own key is a field of its struct of them
// (topology.OwnType), without an index.
func fieldByTOML(t reflect.Type, name string) (reflect.StructField, bool) {
	if t == reflect.TypeFor[Network]() {
		if typ, ok := topology.OwnType(name); ok {
			return reflect.StructField{Name: name, Type: typ}, true
		}
	}
	return tomlstruct.Field(t, name)
}

// valueAt is the value of e at a dotted key, an element of an array of
// tables named by its index ("flows[2].to"); false where the path is not a
// field, passes a nil pointer or an element that does not exist.
func valueAt(e *Experiment, path string) (reflect.Value, bool) {
	v := reflect.ValueOf(e).Elem()
	for _, part := range strings.Split(path, ".") {
		part, index, indexed := strings.Cut(part, "[")
		f, ok := fieldByTOML(v.Type(), part)
		if !ok {
			return reflect.Value{}, false
		}
		if f.Index == nil { // a topology's own key
			v, _ = v.Interface().(Network).OwnValue(part)
		} else {
			v = v.FieldByIndex(f.Index)
		}
		if indexed {
			i, err := strconv.Atoi(strings.TrimSuffix(index, "]"))
			if err != nil || v.Kind() != reflect.Slice || i < 0 || i >= v.Len() {
				return reflect.Value{}, false
			}
			v = v.Index(i)
		}
		if v.Kind() == reflect.Pointer {
			if v.IsNil() {
				return reflect.Value{}, false
			}
			v = v.Elem()
		}
	}
	return v, true
}

// KeyText is the value of the key at path as the workbench shows it: with
// its unit, unquoted; "-" where it is unset.
func (e *Experiment) KeyText(path string) string {
	v, ok := valueAt(e, path)
	if !ok {
		return "-"
	}
	if m, ok := v.Interface().(encoding.TextMarshaler); ok {
		text, _ := m.MarshalText()
		return string(text)
	}
	return fmt.Sprint(v.Interface())
}

// KeyDefaults is each key's default as a file writes it, where it has one:
// the value a default experiment resolves it to, on the first topology
// the key applies to (so a derived default shows what it derives to
// there). The registry says how a derived one follows other keys.
func KeyDefaults() map[string]string {
	out := map[string]string{}
	resolved := map[string]*Experiment{}
	for _, k := range keys.All {
		if k.Kind == keys.Table || k.Kind == keys.Tables || keys.InRepeated(k.Path) {
			continue
		}
		topology := Default().Network.Topology
		if on := keys.Named(k.Topologies); len(on) > 0 {
			topology = on[0]
		}
		r, ok := resolved[topology]
		if !ok {
			e := Default()
			e.Network.Topology = topology
			r = e.Resolved()
			resolved[topology] = r
		}
		v, ok := valueAt(r, k.Path)
		if !ok || v.IsZero() && k.Kind != keys.Count && k.Kind != keys.Number && k.Kind != keys.Switch && k.Kind != keys.Duration && k.Kind != keys.Delay {
			continue
		}
		out[k.Path] = tomltext.Value(v.Interface())
	}
	return out
}
