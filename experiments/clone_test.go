package experiments

import (
	"reflect"
	"testing"
)

// fill gives every nil pointer, slice and map under v a value, so that a
// copy has something of each to share or not.
func fill(v reflect.Value, depth int) {
	if depth > 6 || !v.CanSet() {
		return
	}
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			v.Set(reflect.New(v.Type().Elem()))
		}
		fill(v.Elem(), depth+1)
	case reflect.Slice:
		if v.Len() == 0 {
			v.Set(reflect.MakeSlice(v.Type(), 1, 1))
		}
		for i := range v.Len() {
			fill(v.Index(i), depth+1)
		}
	case reflect.Map:
		if v.Len() == 0 {
			m := reflect.MakeMap(v.Type())
			k, x := reflect.New(v.Type().Key()).Elem(), reflect.New(v.Type().Elem()).Elem()
			fill(x, depth+1)
			m.SetMapIndex(k, x)
			v.Set(m)
		}
	case reflect.Struct:
		for i := range v.NumField() {
			fill(v.Field(i), depth+1)
		}
	}
}

// shared reports a pointer, slice or map that a and b both hold.
func shared(t *testing.T, path string, a, b reflect.Value) {
	switch a.Kind() {
	case reflect.Pointer, reflect.Map:
		if !a.IsNil() && a.Pointer() == b.Pointer() {
			t.Errorf("%s: the clone shares it with the original", path)
		}
		if a.Kind() == reflect.Pointer && !a.IsNil() {
			shared(t, path, a.Elem(), b.Elem())
		}
	case reflect.Slice:
		if a.Len() > 0 && a.Pointer() == b.Pointer() {
			t.Errorf("%s: the clone shares it with the original", path)
		}
		for i := range a.Len() {
			shared(t, path+"[]", a.Index(i), b.Index(i))
		}
	case reflect.Struct:
		for i := range a.NumField() {
			if a.Type().Field(i).IsExported() {
				shared(t, path+"."+a.Type().Field(i).Name, a.Field(i), b.Field(i))
			}
		}
	}
}

// A clone shares no pointer, slice or map with its original, whatever
// field the schema gains.
func TestCloneSharesNothing(t *testing.T) {
	e := Default()
	fill(reflect.ValueOf(e).Elem(), 0)
	c := e.Clone()
	if !reflect.DeepEqual(*c, *e) {
		t.Error("the clone differs from the original")
	}
	shared(t, "Experiment", reflect.ValueOf(e).Elem(), reflect.ValueOf(c).Elem())
}
