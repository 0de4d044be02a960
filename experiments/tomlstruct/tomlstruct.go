// Package tomlstruct is reflection over the experiment's schema, structs
// whose fields TOML names by their tags: finding a field by its key, a
// deep copy, and a copy with one field's value swapped for another type's
// (what the encoder writes in its place).
package tomlstruct

import (
	"reflect"
	"strings"
)

// Field is the field of struct type t that TOML names name.
func Field(t reflect.Type, name string) (reflect.StructField, bool) {
	if t.Kind() != reflect.Struct {
		return reflect.StructField{}, false
	}
	for i := range t.NumField() {
		f := t.Field(i)
		tag, _, _ := strings.Cut(f.Tag.Get("toml"), ",")
		if tag == name && tag != "-" {
			return f, true
		}
	}
	return reflect.StructField{}, false
}

// DeepCopy copies v and what its pointers, slices, maps and interfaces
// hold; unexported fields are copied as they are (shallow).
func DeepCopy(v reflect.Value) reflect.Value {
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			return v
		}
		c := reflect.New(v.Type().Elem())
		c.Elem().Set(DeepCopy(v.Elem()))
		return c
	case reflect.Slice:
		if v.IsNil() {
			return v
		}
		c := reflect.MakeSlice(v.Type(), v.Len(), v.Len())
		for i := range v.Len() {
			c.Index(i).Set(DeepCopy(v.Index(i)))
		}
		return c
	case reflect.Map:
		if v.IsNil() {
			return v
		}
		c := reflect.MakeMapWithSize(v.Type(), v.Len())
		for it := v.MapRange(); it.Next(); {
			c.SetMapIndex(it.Key(), DeepCopy(it.Value()))
		}
		return c
	case reflect.Interface:
		if v.IsNil() {
			return v
		}
		c := reflect.New(v.Type()).Elem()
		c.Set(DeepCopy(v.Elem()))
		return c
	case reflect.Struct:
		c := reflect.New(v.Type()).Elem()
		c.Set(v)
		for i := range v.NumField() {
			if c.Field(i).CanSet() {
				c.Field(i).Set(DeepCopy(v.Field(i)))
			}
		}
		return c
	}
	return v
}

// WithField is the exported fields of the struct s points to, with the
// field named name holding x instead, whatever x's type: a struct of its
// own type, with the same tags, for an encoder to write.
func WithField(s any, name string, x any) any {
	v := reflect.ValueOf(s).Elem()
	var fields []reflect.StructField
	var values []reflect.Value
	for i := range v.NumField() {
		f := v.Type().Field(i)
		if !f.IsExported() {
			continue
		}
		fv := v.Field(i)
		if f.Name == name {
			fv = reflect.ValueOf(x)
		}
		fields = append(fields, reflect.StructField{Name: f.Name, Type: fv.Type(), Tag: f.Tag})
		values = append(values, fv)
	}
	out := reflect.New(reflect.StructOf(fields)).Elem()
	for i, fv := range values {
		out.Field(i).Set(fv)
	}
	return out.Interface()
}
