package experiments

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"qcnlab/algos"
	"qcnlab/experiments/outdir"
	"qcnlab/experiments/units"
)

// WriteResultsFile writes results.csv into dir: one row per run, its swept
// values in base units, algorithm, seed, then every summary metric, those
// of each bottleneck, source and phase flattened into their own columns
// (sw0_utilization, src1_throughput_bps, sw0_queue_quantiles_bytes_p50).
// A cell is empty where a run has no such metric (fewer sources, no
// time to fairness).
func WriteResultsFile(dir *outdir.Dir, e *Experiment, res *Result) error {
	var swept []string
	for _, a := range e.Sweep {
		if a.Key != "seed" {
			swept = append(swept, a.Key)
		}
	}
	var columns []string
	rows := make([]map[string]string, len(res.Runs))
	for i := range res.Runs {
		r := &res.Runs[i]
		var cells []cell
		flatten("", reflect.ValueOf(r.Summary), &cells)
		rows[i] = map[string]string{"algorithm": r.Algorithm, "seed": strconv.FormatUint(r.Seed, 10)}
		names := make([]string, len(cells))
		for k, c := range cells {
			names[k], rows[i][c.name] = c.name, c.value
		}
		columns = mergeColumns(columns, names)
	}
	header := []string{}
	for _, key := range swept {
		header = append(header, sweptColumn(key))
	}
	header = append(header, "algorithm", "seed")
	header = append(header, columns...)
	var b bytes.Buffer
	b.Write(csvRow(header, false))
	for i, r := range res.Runs {
		line := make([]string, 0, len(header))
		for _, key := range swept {
			line = append(line, sweptValue(key, r.Point[key]))
		}
		for _, name := range header[len(swept):] {
			line = append(line, rows[i][name])
		}
		b.Write(csvRow(line, false))
	}
	return dir.WriteFile("results.csv", b.Bytes())
}

// sweptColumn names a swept key's column with its base unit.
func sweptColumn(key string) string {
	kind, err := KeyKind(key)
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

// sweptValue is a swept value (TOML text) in base units, or the text
// itself for a key that is not a number.
func sweptValue(key, text string) string {
	bare := strings.Trim(text, `"`)
	kind, err := KeyKind(key)
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

// groupNames prefix the elements of the summary's lists.
var groupNames = map[string]string{"bottlenecks": "sw", "sources": "src", "phases": "phase"}

// flatten writes v's fields as cells named by their JSON names: a list of
// structs as one group per element, a nested struct with its name as a
// prefix. The run's identity (algorithm, seed, point) and the elements'
// own names and ids, which the prefixes carry, are left out.
func flatten(prefix string, v reflect.Value, out *[]cell) {
	t := v.Type()
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if f.Anonymous {
			flatten(prefix, v.Field(i), out)
			continue
		}
		if !f.IsExported() || name == "" || name == "-" {
			continue
		}
		if prefix == "" && (name == "algorithm" || name == "seed" || name == "point") {
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
					flatten(prefix+name+"_", reflect.New(e).Elem(), &zero)
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
			flatten(prefix+name+"_", x, out)
		case reflect.Slice:
			group := groupNames[name]
			if group == "" {
				group = name
			}
			for k := 0; k < x.Len(); k++ {
				el := x.Index(k)
				if el.Kind() == reflect.Struct {
					flatten(fmt.Sprintf("%s%s%d_", prefix, group, k), el, out)
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

// mergeColumns adds the names not yet in columns, each after the name that
// precedes it in names, so a run with a third source puts src2_ after
// src1_ rather than at the end.
func mergeColumns(columns, names []string) []string {
	at := -1
	for _, n := range names {
		if k := slices.Index(columns, n); k >= 0 {
			at = k
			continue
		}
		at++
		columns = slices.Insert(columns, at, n)
	}
	return columns
}

// ShardFile is the manifest a sharded run writes next to its outputs.
const ShardFile = "shard.json"

// ShardManifest says which slice of which batch a directory holds, so that
// merging can check that the slices belong together and cover the batch.
type ShardManifest struct {
	Experiment string `json:"experiment"`
	// ExperimentSHA256 is the hash of experiment.toml: the resolved
	// experiment, every default explicit.
	ExperimentSHA256 string     `json:"experiment_sha256"`
	Shard            int        `json:"shard"`
	Shards           int        `json:"shards"`
	RunsTotal        int        `json:"runs_total"` // of the whole batch
	Runs             []ShardRun `json:"runs"`       // the slice's finished runs, in run order
}

// ShardRun is one finished run of a slice: its index in the whole batch,
// its label, and its rows in the slice's timeseries.csv.
type ShardRun struct {
	Index int    `json:"index"`
	Label string `json:"label"`
	Rows  int    `json:"rows"`
}

func (o *outputs) writeManifest(summaries []*RunSummary) error {
	m := ShardManifest{Experiment: o.exp.Name, ExperimentSHA256: o.hash, Shard: o.shard.Index, Shards: o.shard.Count,
		RunsTotal: len(summaries), Runs: []ShardRun{}}
	for i, s := range summaries {
		if s != nil {
			m.Runs = append(m.Runs, ShardRun{Index: i, Label: o.labels[i], Rows: o.rows[i]})
		}
	}
	data, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	return o.dir.WriteFile(ShardFile, append(data, '\n'))
}

// ExperimentHash identifies a batch by its experiment.toml: the resolved
// experiment, every default explicit.
func ExperimentHash(toml []byte) string {
	h := sha256.Sum256(toml)
	return hex.EncodeToString(h[:])
}
