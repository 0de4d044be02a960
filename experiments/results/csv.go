package results

import (
	"bufio"
	"container/list"
	"context"
	"io"
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
	return writeThrough(ctx, dir, "results.csv", func(w io.Writer) error { return renderResults(ctx, w, e, res) })
}

// renderResults writes results.csv's bytes to w (writeResults).
func renderResults(ctx context.Context, w io.Writer, e *experiments.Experiment, res *Result) error {
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
	if _, err := w.Write(csvRow(header, false)); err != nil {
		return err
	}
	line := make([]string, 0, len(header))
	for i, r := range res.Runs {
		if err := ctx.Err(); err != nil {
			return err
		}
		line = append(line[:0], identityCells(e, r.Run, r.Algorithm, r.Seed, func(key string) (string, bool) {
			v, ok := r.Point[key]
			return v, ok
		})...)
		line = appendValues(line, columns, cells[i])
		if _, err := w.Write(csvRow(line, false)); err != nil {
			return err
		}
		cells[i] = nil // done with: memory goes down as it goes
	}
	return nil
}

// writeThrough writes name into dir through a temporary file, committed
// once render has written it whole; one that fails or is cancelled is
// removed.
func writeThrough(ctx context.Context, dir *outdir.Dir, name string, render func(io.Writer) error) error {
	tmp, err := dir.CreateTemp(".", name)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(tmp, 1<<16)
	err = render(w)
	if err == nil {
		err = ctx.Err()
	}
	if err == nil {
		err = w.Flush()
	}
	if err != nil {
		dir.Discard(tmp)
		return err
	}
	return dir.Commit(tmp, name)
}

// renderedSize is the bytes render writes: the room its file needs.
func renderedSize(render func(io.Writer) error) (int64, error) {
	var n countingWriter
	err := render(&n)
	return int64(n), err
}

// countingWriter counts the bytes written to it.
type countingWriter int64

func (c *countingWriter) Write(p []byte) (int, error) {
	*c += countingWriter(len(p))
	return len(p), nil
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
