package results

import (
	"bufio"
	"container/list"
	"context"
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
// (run, the swept values in base units, algorithm, seed), then its cells
// as the metrics registry lists them (metrics.Row): every metric of the
// summary in its Column, those of each bottleneck, source, phase and tier
// in their own (sw0_utilization, src1_throughput_bps), and the registry's
// groups beside them (sw0_queue_quantiles_bytes_p50).
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
		// A fabric's ports are in ports.csv.gz by name: a position (sw16_)
		// is a different port in different runs.
		metrics.Row(ctx, &res.Runs[i].Summary, !e.IsFabric(), func(name, value string) { cells[i] = append(cells[i], cell{name, value}) })
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
	return slices.Insert(cells, at, cell{"wall_seconds", strconv.FormatFloat(seconds, 'g', -1, 64)})
}
