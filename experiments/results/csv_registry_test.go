package results

import (
	"context"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"testing"

	"qcnlab/experiments/metrics"
	"qcnlab/model"
)

// fill sets every exported field of v, however deep, to a value of its
// own (counter makes each different), slices to two elements, pointers to
// a value; nilPointers leaves pointers nil instead.
func fill(v reflect.Value, counter *int, nilPointers bool) {
	*counter++
	n := *counter
	switch v.Kind() {
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				fill(v.Field(i), counter, nilPointers)
			}
		}
	case reflect.Pointer:
		if nilPointers {
			return
		}
		p := reflect.New(v.Type().Elem())
		fill(p.Elem(), counter, nilPointers)
		v.Set(p)
	case reflect.Slice:
		s := reflect.MakeSlice(v.Type(), 2, 2)
		for i := range 2 {
			fill(s.Index(i), counter, nilPointers)
		}
		v.Set(s)
	case reflect.Int, reflect.Int64:
		v.SetInt(int64(n) * 1_000_003_001) // large: an integer written in %g would show an exponent
	case reflect.Uint64:
		v.SetUint(uint64(n) * 1_000_003_001)
	case reflect.Uint8:
		v.SetUint(uint64(n % 200))
	case reflect.Float64:
		v.SetFloat(float64(n) + 0.125)
	case reflect.String:
		v.SetString("s" + strconv.Itoa(n))
	case reflect.Bool:
		v.SetBool(true)
	}
}

// registryCells is the registry's row, without the traffic classes'
// columns, which the reflection writer did not have.
func registryCells(s *model.Summary, ports bool) []cell {
	var out []cell
	metrics.Row(context.Background(), s, ports, func(name, value string) {
		if !perClass.MatchString(name) {
			out = append(out, cell{name, value})
		}
	})
	return out
}

var perClass = regexp.MustCompile(`^class\d+_`)

func oracleCells(s *model.Summary) []cell {
	var out []cell
	flatten(context.Background(), "", reflect.ValueOf(*s), &out)
	return out
}

// results.csv's row from the metrics registry is the row the reflection
// writer made, cell for cell and in order, on summaries with every field
// set (every list of two elements, every pointer set), with every pointer
// nil, and empty: a field of the summary that the registry neither lists
// as a metric nor places in a group is a column the registry's row lacks.
func TestRowFromRegistryIsTheReflectionRow(t *testing.T) {
	var full, nils model.Summary
	n := 0
	fill(reflect.ValueOf(&full).Elem(), &n, false)
	n = 0
	fill(reflect.ValueOf(&nils).Elem(), &n, true)
	fabric := full
	fabric.Bottlenecks = nil // as the reflection writer left a fabric's
	for _, c := range []struct {
		name        string
		s, reflects *model.Summary
		ports       bool
	}{{"every field", &full, &full, true}, {"nil pointers", &nils, &nils, true}, {"empty", &model.Summary{}, &model.Summary{}, true}, {"a fabric's", &full, &fabric, false}} {
		name := c.name
		want, got := oracleCells(c.reflects), registryCells(c.s, c.ports)
		if slices.Equal(got, want) {
			continue
		}
		for i := range max(len(got), len(want)) {
			var g, w cell
			if i < len(got) {
				g = got[i]
			}
			if i < len(want) {
				w = want[i]
			}
			if g != w {
				t.Errorf("%s: cell %d is %q, the reflection writer's %q (%d cells, want %d)", name, i, g, w, len(got), len(want))
				break
			}
		}
	}
}
