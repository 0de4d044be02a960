package experiments

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"qcnlab/experiments/keys"
	"qcnlab/experiments/topology"
	"qcnlab/units"
)

// schemaPaths walks the file's schema (Experiment, and the tables the
// loader decodes apart) and gives every TOML key's Go type.
func schemaPaths() map[string]reflect.Type {
	out := map[string]reflect.Type{}
	var walk func(prefix string, t reflect.Type)
	walk = func(prefix string, t reflect.Type) {
		fields := reflect.VisibleFields(t)
		if t == reflect.TypeFor[Network]() { // and the topologies' own keys
			for _, k := range keys.All {
				name, ok := strings.CutPrefix(k.Path, "network.")
				if typ, own := topology.OwnType(name); ok && own {
					fields = append(fields, reflect.StructField{Name: name, Type: typ, Tag: reflect.StructTag(`toml:"` + name + `"`)})
				}
			}
		}
		for _, f := range fields {
			tag, _, _ := strings.Cut(f.Tag.Get("toml"), ",")
			if tag == "" || tag == "-" {
				continue
			}
			ft := f.Type
			if ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			out[prefix+tag] = ft
			switch {
			case ft.Kind() == reflect.Struct && strings.HasPrefix(ft.PkgPath(), "qcnlab/experiments") && ft != reflect.TypeOf(Delay{}):
				walk(prefix+tag+".", ft)
			case ft.Kind() == reflect.Slice && ft.Elem().Kind() == reflect.Struct:
				walk(prefix+tag+".", ft.Elem())
			}
		}
	}
	walk("", reflect.TypeOf(Experiment{}))
	for _, table := range []string{"params", "sweep"} { // decoded apart (load.go's document)
		f, _ := fieldByTOML(reflect.TypeOf(document{}), table)
		out[table] = f.Type
	}
	return out
}

// The registry and the schema have the same keys, each of the kind its
// Go type holds: a key added to one and not the other fails here.
func TestRegistryIsTheSchema(t *testing.T) {
	schema := schemaPaths()
	for _, k := range keys.All {
		if err := k.Check(); err != nil {
			t.Error(err)
		}
		typ, ok := schema[k.Path]
		if !ok {
			t.Errorf("%s: in the registry, not in the schema", k.Path)
			continue
		}
		delete(schema, k.Path)
		if want := kindOf(typ); !slices.Contains(want, k.Kind) {
			t.Errorf("%s: %s in the registry, but the schema's %s is one of %v", k.Path, k.Kind, typ, want)
		}
	}
	for path := range schema {
		t.Errorf("%s: in the schema, not in the registry (experiments/keys)", path)
	}
	if !slices.Equal(keys.Paths(), slices.Compact(slices.Clone(keys.Paths()))) {
		t.Error("a key is registered twice")
	}
}

// kindOf is the kinds a Go type of the schema may hold.
func kindOf(t reflect.Type) []keys.Kind {
	switch t {
	case reflect.TypeOf(units.Duration(0)):
		return []keys.Kind{keys.Duration}
	case reflect.TypeOf(Delay{}):
		return []keys.Kind{keys.Delay}
	case reflect.TypeOf(units.Bytes(0)):
		return []keys.Kind{keys.Bytes}
	case reflect.TypeOf(units.Rate(0)):
		return []keys.Kind{keys.Rate}
	}
	switch t.Kind() {
	case reflect.String:
		return []keys.Kind{keys.Text, keys.Choice}
	case reflect.Bool:
		return []keys.Kind{keys.Switch}
	case reflect.Int, reflect.Int64, reflect.Uint64:
		return []keys.Kind{keys.Count}
	case reflect.Float64:
		return []keys.Kind{keys.Number}
	case reflect.Struct, reflect.Map:
		return []keys.Kind{keys.Table}
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Struct && t.Elem() != reflect.TypeOf(Delay{}) {
			return []keys.Kind{keys.Tables}
		}
		return []keys.Kind{keys.List}
	}
	return nil
}

// Each key that applies to some topologies only is an error where it does
// not apply, at the place it was set.
func TestRegistryScopesAreErrors(t *testing.T) {
	for _, k := range keys.All {
		if k.Topologies == nil || k.Kind == keys.Table || k.Kind == keys.Tables || keys.InRepeated(k.Path) {
			continue
		}
		other := keys.Fabrics()[0]
		if k.AppliesTo(other) {
			other = keys.Chains()[0]
		}
		def, ok := KeyDefaults()[k.Path]
		if !ok {
			def = map[keys.Kind]string{keys.Count: "2", keys.Number: "0.5", keys.Duration: `"1ms"`,
				keys.Text: `"x"`, keys.List: "[0]", keys.Rate: `"1Gbps"`, keys.Delay: `"1us"`}[k.Kind]
			if k.Kind == keys.Choice {
				def = `"` + k.Choices[0] + `"`
			}
		}
		e := Default()
		e.Network.Topology = other
		if err := e.Set(k.Path + "=" + def); err != nil {
			t.Errorf("%s=%s: %v", k.Path, def, err)
			continue
		}
		err := e.Validate()
		if err == nil || !strings.Contains(err.Error(), "--set: "+k.Path+": ") {
			t.Errorf("%s on a %s: %v, want an error naming the key", k.Path, other, err)
		}
	}
}

// The registered topologies are the registry's, each a chain or a fabric
// as the registry says.
func TestTopologiesAreRegistered(t *testing.T) {
	want := slices.Sorted(slices.Values(keys.Topologies()))
	if got := topology.Names(); !slices.Equal(got, want) {
		t.Errorf("registered topologies %q, the registry's %q", got, want)
	}
	for _, name := range keys.Chains() {
		if topology.Chain(name) == nil {
			t.Errorf("%s: not a registered chain", name)
		}
	}
	for _, name := range keys.Fabrics() {
		if topology.Fabric(name) == nil {
			t.Errorf("%s: not a registered fabric", name)
		}
	}
}
