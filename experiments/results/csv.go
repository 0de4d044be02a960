package results

import (
	"bufio"
	"container/list"
	"context"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"qcnlab/algos"
	"qcnlab/experiments"
	"qcnlab/experiments/keys"
	"qcnlab/experiments/metrics"
	"qcnlab/experiments/outdir"
	"qcnlab/units"
)

// writeResults writes results.csv into dir: one row per run, its Identity
// (run, the swept values in base units, algorithm, seed), then every field
// of the summary,
// those of each bottleneck, source and phase flattened into their own
// columns (sw0_utilization, src1_throughput_bps,
// sw0_queue_quantiles_bytes_p50); a metric of the registry (package
// metrics) is in its Column.
// A cell is empty where a run has no such metric (fewer sources, no
// time to fairness). Its time is linear in the cells; it stops, writing
// nothing, when ctx is cancelled.
func writeResults(ctx context.Context, dir *outdir.Dir, e *experiments.Experiment, res *Result) error {
	var order columnOrder
	cells := make([][]cell, len(res.Runs))
	for i := range res.Runs {
		if err := ctx.Err(); err != nil {
			return err
		}
		sum := res.Runs[i].Summary
		if e.IsFabric() {
			// A fabric's ports are in ports.csv.gz by name: a position
			// (sw16_) is a different port in different runs.
			sum.Bottlenecks = nil
		}
		flatten(ctx, "", reflect.ValueOf(sum), &cells[i])
		cells[i] = withWall(cells[i], res.Runs[i].WallSeconds)
		if err := ctx.Err(); err != nil {
			return err
		}
		order.merge(cells[i])
	}
	header := Identity(e)
	columns := order.list()
	header = append(header, columns...)
	tmp, err := dir.CreateTemp(".", "results.csv")
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(tmp, 1<<16)
	w.Write(csvRow(header, false))
	line := make([]string, 0, len(header))
	for i, r := range res.Runs {
		if err := ctx.Err(); err != nil {
			dir.Discard(tmp)
			return err
		}
		line = append(line[:0], identityCells(e, r.Run, r.Algorithm, r.Seed, func(key string) (string, bool) {
			v, ok := r.Point[key]
			return v, ok
		})...)
		line = appendValues(line, columns, cells[i])
		w.Write(csvRow(line, false))
		cells[i] = nil // done with: memory goes down as it goes
	}
	if err := w.Flush(); err != nil {
		dir.Discard(tmp)
		return err
	}
	return dir.Commit(tmp, "results.csv")
}

// columnOrder is the order of results.csv's metric columns: the union of
// the runs' names, each new name placed after the name that precedes it in
// the run that brings it, so a run with a third source puts src2_ after
// src1_ rather than at the end. A linked list and an index keep it linear
// in the names (a slice insert per name was quadratic: 40,000 sources took
// 36 s).
type columnOrder struct {
	names list.List
	index map[string]*list.Element // built when a second order comes
	last  []cell                   // the last run merged
}

func (o *columnOrder) merge(cells []cell) {
	if sameNames(cells, o.last) {
		return // a sweep's runs mostly share their columns
	}
	o.last = cells
	if o.index == nil && o.names.Len() == 0 {
		for _, c := range cells {
			o.names.PushBack(c.name)
		}
		return
	}
	if o.index == nil {
		o.index = make(map[string]*list.Element, o.names.Len())
		for el := o.names.Front(); el != nil; el = el.Next() {
			o.index[el.Value.(string)] = el
		}
	}
	var at *list.Element // nil: before everything
	for _, c := range cells {
		if el, ok := o.index[c.name]; ok {
			at = el
			continue
		}
		if at == nil {
			at = o.names.PushFront(c.name)
		} else {
			at = o.names.InsertAfter(c.name, at)
		}
		o.index[c.name] = at
	}
}

func sameNames(a, b []cell) bool {
	if len(a) != len(b) || len(a) == 0 {
		return false
	}
	for i := range a {
		if a[i].name != b[i].name {
			return false
		}
	}
	return true
}

func (o *columnOrder) list() []string {
	out := make([]string, 0, o.names.Len())
	for el := o.names.Front(); el != nil; el = el.Next() {
		out = append(out, el.Value.(string))
	}
	return out
}

// appendValues appends a run's value for each of columns, empty where it has
// none. A run's cells come in the columns' order (merge keeps each run's
// order), so one walk matches them; a map is the fallback.
func appendValues(line []string, columns []string, cells []cell) []string {
	k, start := 0, len(line)
	for _, name := range columns {
		if k < len(cells) && cells[k].name == name {
			line = append(line, cells[k].value)
			k++
		} else {
			line = append(line, "")
		}
	}
	if k == len(cells) {
		return line
	}
	value := make(map[string]string, len(cells))
	for _, c := range cells {
		value[c.name] = c.value
	}
	line = line[:start]
	for _, name := range columns {
		line = append(line, value[name])
	}
	return line
}

// SweptColumn names a swept key's column with its base unit:
// network.rtt_s, network.buffer_bytes, network.capacity_bps.
func SweptColumn(key string) string {
	kind, err := keys.NumericKind(key)
	if err != nil {
		return key
	}
	switch kind {
	case algos.Duration:
		return key + "_s"
	case algos.Bytes:
		return key + "_bytes"
	case algos.Rate:
		return key + "_bps"
	}
	return key
}

// SweptValue is a swept value (TOML text) in base units, or the text
// itself for a key that is not a number.
func SweptValue(key, text string) string {
	bare := strings.Trim(text, `"`)
	kind, err := keys.NumericKind(key)
	if err != nil {
		return bare
	}
	x, err := units.Parse(kind, bare)
	if err != nil {
		return bare
	}
	return strconv.FormatFloat(x, 'g', -1, 64)
}

type cell struct{ name, value string }

// withWall puts the run's wall-clock time, which is not part of its
// reproducible summary, in its column after sim_seconds.
func withWall(cells []cell, seconds float64) []cell {
	at := 0
	for k, c := range cells {
		if c.name == "sim_seconds" {
			at = k + 1
			break
		}
	}
	return slices.Insert(cells, at, cell{"wall_seconds", scalar(reflect.ValueOf(seconds))})
}

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
