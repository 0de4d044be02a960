package tomlstruct

import (
	"reflect"
	"testing"
)

type inner struct {
	N *int `toml:"n"`
}

type outer struct {
	A     string           `toml:"a"`
	In    inner            `toml:"in"`
	L     []*int           `toml:"l,omitempty"`
	M     map[string][]int `toml:"m"`
	X     any              `toml:"-"`
	quiet int
}

func TestFieldByTag(t *testing.T) {
	typ := reflect.TypeFor[outer]()
	if f, ok := Field(typ, "l"); !ok || f.Name != "L" {
		t.Errorf("l: %v %v", f.Name, ok)
	}
	for _, name := range []string{"-", "L", "quiet", "nope"} {
		if _, ok := Field(typ, name); ok {
			t.Errorf("%q found", name)
		}
	}
	if _, ok := Field(reflect.TypeFor[int](), "a"); ok {
		t.Error("a field of an int")
	}
}

// A deep copy shares nothing the original can change.
func TestDeepCopySharesNothing(t *testing.T) {
	one, two := 1, 2
	o := outer{A: "a", In: inner{N: &one}, L: []*int{&two}, M: map[string][]int{"k": {3}}, X: &one, quiet: 7}
	c := DeepCopy(reflect.ValueOf(o)).Interface().(outer)
	*o.In.N, *o.L[0], o.M["k"][0] = 10, 20, 30
	*(o.X.(*int)) = 40
	if *c.In.N != 1 || *c.L[0] != 2 || c.M["k"][0] != 3 || *(c.X.(*int)) != 1 || c.quiet != 7 {
		t.Errorf("the copy changed with the original: %+v", c)
	}
}

// WithField swaps one field's value for another type's and keeps the
// others and every tag.
func TestWithFieldSwapsOneField(t *testing.T) {
	o := &outer{A: "a"}
	v := reflect.ValueOf(WithField(o, "In", map[string]int{"n": 5}))
	if v.FieldByName("A").String() != "a" || v.FieldByName("In").Interface().(map[string]int)["n"] != 5 {
		t.Errorf("%+v", v.Interface())
	}
	if f, _ := v.Type().FieldByName("L"); f.Tag.Get("toml") != "l,omitempty" {
		t.Errorf("tag %q", f.Tag)
	}
	if _, ok := v.Type().FieldByName("quiet"); ok {
		t.Error("an unexported field was kept")
	}
}
