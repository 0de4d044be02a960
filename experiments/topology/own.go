package topology

import (
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"

	"github.com/BurntSushi/toml"

	"qcnlab/experiments/keys"
)

// Own holds the values of the topologies' own keys, by topology name: each
// the struct its Keys declares. A key set on a file of another topology is
// held too, for Validate to refuse it at its line. Network values share
// it: it is written by copy (Keys.Set).
type Own map[string]any

// Keys declares a topology's own keys, the keys of [network] it alone
// reads: T is a struct of them, each field a key by its toml tag, a pointer
// or a slice (nil where the file leaves the key out); Entries are their
// registry entries (package keys) without Topologies, in the order qcnlab
// help keys and the README list them, an array of tables' keys after it.
// The loader, --set, sweeps, saving, the workbench and the README read
// them from here: a topology declares its keys in its own file.
type Keys[T any] struct {
	Entries  []keys.Key
	topology string // Register writes it
}

// Of is n's values of the keys; T's zero value where the file sets none.
func (k *Keys[T]) Of(n Network) T {
	v, _ := n.Own[k.topology].(T)
	return v
}

// Set writes the values of the keys in n, leaving other copies of n as
// they were.
func (k *Keys[T]) Set(n *Network, v T) { n.setOwn(k.topology, v) }

func (k *Keys[T]) declared() (string, []keys.Key, reflect.Type) {
	return k.topology, k.Entries, reflect.TypeFor[T]()
}

func (k *Keys[T]) bind(topology string) { k.topology = topology }

// declaration is a Keys as Register reads it, whatever its T.
type declaration interface {
	declared() (topology string, entries []keys.Key, fields reflect.Type)
	bind(topology string)
}

func (n *Network) setOwn(topology string, v any) {
	own := make(Own, len(n.Own)+1)
	maps.Copy(own, n.Own)
	own[topology] = v
	n.Own = own
}

// ownKey is where an own key's value is held.
type ownKey struct {
	topology string
	fields   reflect.Type // the topology's struct
	field    int
}

// owners are the own keys by their name in [network] ("k" for network.k).
var owners = map[string]ownKey{}

// declare checks a topology's declaration of its own keys against its
// struct, key for key, and records where each is held. It panics on a
// mistake in the program.
func declare(topology string, d declaration) {
	d.bind(topology)
	_, entries, t := d.declared()
	fail := func(format string, args ...any) {
		panic(fmt.Sprintf("topology %s: ", topology) + fmt.Sprintf(format, args...))
	}
	if t.Kind() != reflect.Struct {
		fail("its keys are a struct, not a %s", t)
	}
	named := map[string]bool{}
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("toml"), ",")
		switch {
		case !f.IsExported() || name == "" || name == "-":
			fail("field %s is not a key: it needs a toml tag", f.Name)
		case f.Type.Kind() != reflect.Pointer && f.Type.Kind() != reflect.Slice:
			fail("network.%s is a %s: a key is a pointer or a slice, nil where the file leaves it out", name, f.Type)
		case !slices.ContainsFunc(entries, func(k keys.Key) bool { return k.Path == "network."+name }):
			fail("network.%s has no registry entry", name)
		}
		if _, taken := owners[name]; taken {
			fail("network.%s is another topology's key", name)
		}
		owners[name] = ownKey{topology: topology, fields: t, field: i}
		named[name] = true
	}
	for _, k := range entries {
		if name, _, _ := strings.Cut(strings.TrimPrefix(k.Path, "network."), "."); !named[name] {
			fail("%s is registered but not a field of its keys' struct", k.Path)
		}
	}
}

// OwnType is the Go type of the own key network.name (of a struct of an
// array of tables, its slice); false when no topology declares it.
func OwnType(name string) (reflect.Type, bool) {
	o, ok := owners[name]
	if !ok {
		return nil, false
	}
	return o.fields.Field(o.field).Type, true
}

// OwnValue is the value n holds of the own key network.name (nil where
// the file leaves it out); false when no topology declares it.
func (n Network) OwnValue(name string) (reflect.Value, bool) {
	o, ok := owners[name]
	if !ok {
		return reflect.Value{}, false
	}
	return n.ownStruct(o).Field(o.field), true
}

// ownStruct is n's struct of o's topology, a copy that may be written.
func (n Network) ownStruct(o ownKey) reflect.Value {
	v := reflect.New(o.fields).Elem()
	if x, ok := n.Own[o.topology]; ok {
		v.Set(reflect.ValueOf(x))
	}
	return v
}

// IsOwn reports whether a key of a file is a topology's own key or in one
// (an element's key of an array of tables: network.link.capacity).
func IsOwn(k toml.Key) bool {
	if len(k) < 2 || k[0] != "network" {
		return false
	}
	_, ok := owners[k[1]]
	return ok
}

// DecodeOwn decodes the topologies' own keys that text sets into n, over
// the values n holds: decoding the rest of the file leaves them undecoded
// (IsOwn). It returns the keys in them that their struct does not hold,
// and the toml package's error for each key of the wrong type.
func DecodeOwn(text string, n *Network) (unknown []toml.Key, errs []error) {
	var raw struct {
		Network map[string]toml.Primitive `toml:"network"`
	}
	md, err := toml.Decode(text, &raw)
	if err != nil {
		return nil, []error{err}
	}
	failed := map[string]bool{} // its error says what is wrong: what is left undecoded in it is not unknown
	for _, name := range slices.Sorted(maps.Keys(raw.Network)) {
		o, ok := owners[name]
		if !ok {
			continue
		}
		v := n.ownStruct(o)
		if err := md.PrimitiveDecode(raw.Network[name], v.Field(o.field).Addr().Interface()); err != nil {
			errs = append(errs, err)
			failed[name] = true
			continue
		}
		n.setOwn(o.topology, v.Interface())
	}
	for _, k := range md.Undecoded() {
		if IsOwn(k) && !failed[k[1]] {
			unknown = append(unknown, k)
		}
	}
	return unknown, errs
}

// Encoded is n as a file writes it, for the TOML encoder: a struct of its
// keys with the own keys of its topology in the place of Own, so that they
// are written among [network]'s, in their struct's order.
func (n Network) Encoded() any {
	v := reflect.ValueOf(n)
	var fields []reflect.StructField
	var values []reflect.Value
	for i := range v.NumField() {
		f := v.Type().Field(i)
		if f.Name != "Own" {
			fields = append(fields, reflect.StructField{Name: f.Name, Type: f.Type, Tag: f.Tag})
			values = append(values, v.Field(i))
			continue
		}
		own, ok := n.Own[n.Topology]
		if !ok {
			continue
		}
		o := reflect.ValueOf(own)
		for j := range o.NumField() {
			f := o.Type().Field(j)
			fields = append(fields, reflect.StructField{Name: fmt.Sprintf("Own%d", j), Type: f.Type, Tag: f.Tag})
			values = append(values, o.Field(j))
		}
	}
	out := reflect.New(reflect.StructOf(fields)).Elem()
	for i, x := range values {
		out.Field(i).Set(x)
	}
	return out.Interface()
}

// SetOwn sets the own key network.name to v, a value of the type its field
// holds or points to; false when no topology declares the key or v is
// not of its type.
func (n *Network) SetOwn(name string, v any) bool {
	o, ok := owners[name]
	if !ok {
		return false
	}
	s := n.ownStruct(o)
	f := s.Field(o.field)
	x := reflect.ValueOf(v)
	switch {
	case x.Type() == f.Type():
		f.Set(x)
	case f.Kind() == reflect.Pointer && x.Type() == f.Type().Elem():
		p := reflect.New(x.Type())
		p.Elem().Set(x)
		f.Set(p)
	default:
		return false
	}
	n.setOwn(o.topology, s.Interface())
	return true
}

// KeepDerivedIfSame leaves in r, a network resolved for saving, the value
// of each own key of its topology whose default follows other keys
// (keys.Key.Derived: a leaf-spine's uplinks follow network.capacity) only
// if given sets it, or if point, a point of the sweep, derives the same:
// written once, it would pin every point to the base point's value.
func KeepDerivedIfSame(r *Network, given, point Network) {
	for name, o := range owners {
		if k, ok := keys.Lookup("network." + name); o.topology != r.Topology || !ok || k.Derived == "" {
			continue
		}
		g, _ := given.OwnValue(name)
		v, _ := r.OwnValue(name)
		p, _ := point.OwnValue(name)
		if g.IsNil() && !v.IsNil() && (p.IsNil() || !reflect.DeepEqual(v.Interface(), p.Interface())) {
			s := r.ownStruct(o)
			s.Field(o.field).SetZero()
			r.setOwn(o.topology, s.Interface())
		}
	}
}
