package results

import (
	"context"
	"fmt"
	"reflect"
	"strconv"
	"strings"

	"qcnlab/experiments/metrics"
)

// The reflection writer results.csv had before the metrics registry wrote
// it, kept as the oracle the registry's row is compared with
// (csv_registry_test.go): every field of the summary by its JSON name, a
// list of structs as one group per element, a nested struct with its
// name as a prefix.

// groupNames prefix the elements of the summary's lists: the metrics'
// scopes name those of bottlenecks and sources.
var groupNames = map[string]string{"bottlenecks": metrics.Bottleneck.Prefix(), "sources": metrics.Source.Prefix(), "phases": "phase"}

// flatten writes v's fields as cells named by their JSON names: a list of
// structs as one group per element, a nested struct with its name as a
// prefix. The run's identity (algorithm, seed, point) and the elements'
// own names and ids, which the prefixes carry, are left out.
func flatten(ctx context.Context, prefix string, v reflect.Value, out *[]cell) {
	t := v.Type()
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if f.Anonymous {
			flatten(ctx, prefix, v.Field(i), out)
			continue
		}
		if !f.IsExported() || name == "" || name == "-" {
			continue
		}
		if prefix == "" && (name == "run" || name == "algorithm" || name == "seed" || name == "point") {
			continue
		}
		if prefix != "" && (name == "name" || name == "id") {
			continue
		}
		x := v.Field(i)
		if x.Kind() == reflect.Pointer {
			if x.IsNil() {
				if e := x.Type().Elem(); e.Kind() == reflect.Struct { // the same columns, left empty
					var zero []cell
					flatten(ctx, prefix+name+"_", reflect.New(e).Elem(), &zero)
					for _, c := range zero {
						*out = append(*out, cell{c.name, ""})
					}
					continue
				}
				*out = append(*out, cell{prefix + name, ""})
				continue
			}
			x = x.Elem()
		}
		switch x.Kind() {
		case reflect.Struct:
			flatten(ctx, prefix+name+"_", x, out)
		case reflect.Slice:
			group := groupNames[name]
			if group == "" {
				group = name
			}
			for k := 0; k < x.Len(); k++ {
				if k%1024 == 0 && ctx.Err() != nil {
					return // the caller sees ctx's error
				}
				el := x.Index(k)
				if el.Kind() == reflect.Struct {
					flatten(ctx, fmt.Sprintf("%s%s%d_", prefix, group, k), el, out)
				} else {
					*out = append(*out, cell{fmt.Sprintf("%s%s%d", prefix, group, k), scalar(el)})
				}
			}
		default:
			*out = append(*out, cell{prefix + name, scalar(x)})
		}
	}
}

func scalar(v reflect.Value) string {
	switch v.Kind() {
	case reflect.Float32, reflect.Float64:
		return strconv.FormatFloat(v.Float(), 'g', -1, 64)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return strconv.FormatInt(v.Int(), 10)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return strconv.FormatUint(v.Uint(), 10)
	case reflect.Bool:
		return strconv.FormatBool(v.Bool())
	}
	return fmt.Sprint(v.Interface())
}
