package experiments

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strings"

	"github.com/BurntSushi/toml"

	"qcnlab/algos"
	"qcnlab/experiments/keys"
	"qcnlab/experiments/sweep"
	"qcnlab/experiments/tomltext"
	"qcnlab/experiments/topology"
	"qcnlab/experiments/userfile"
	"qcnlab/units"
)

// Error is a problem with an experiment, located by file and line and by
// key (tomltext.Error).
type Error = tomltext.Error

// document is what a file decodes into: the experiment with its [params]
// still undecoded, because their types depend on each scheme's parameters.
type document struct {
	Experiment
	// TOML integers are signed: read the seed as one, so that -1 is an
	// error and not 2^64-1.
	Seed   *int64                               `toml:"seed"`
	Params map[string]map[string]toml.Primitive `toml:"params"`
	Sweep  map[string]any                       `toml:"sweep"`
}

// Load reads and validates an experiment file.
func Load(path string) (*Experiment, error) {
	data, err := ReadFile(path)
	if err != nil {
		return nil, err
	}
	return Parse(path, data)
}

// ReadFile reads an experiment file of at most MaxFileBytes. It reads from
// pipes and devices too (qcnlab run <(...)), never more than the limit, so
// /dev/zero is refused and not read forever.
func ReadFile(path string) ([]byte, error) {
	return userfile.Read(context.Background(), path, userfile.Limit{Max: MaxFileBytes, What: "an experiment file", Streams: true})
}

// Parse reads and validates an experiment from data; where names it in
// errors (a file path, or "builtin:NAME").
func Parse(where string, data []byte) (*Experiment, error) {
	e, err := decodeFile(where, data)
	if err != nil {
		return nil, err
	}
	if err := e.Validate(); err != nil {
		return nil, err
	}
	return e, nil
}

// decodeFile reads an experiment from data without weighing its keys
// against each other, so that command-line overrides can still change
// them before it is validated (OpenWith).
func decodeFile(where string, data []byte) (*Experiment, error) {
	e := Default()
	base := filepath.Base(where)
	if _, name, ok := strings.Cut(where, "builtin:"); ok {
		base = name
	}
	e.Name = keys.SafeName(strings.TrimSuffix(base, ".toml"))
	if len(data) > MaxFileBytes {
		return nil, &Error{Where: where, Msg: fmt.Sprintf("is larger than %s, the most an experiment file may be", units.FormatBytes(MaxFileBytes))}
	}
	if tomltext.NoKeys(string(data)) {
		return nil, &Error{Where: where, Msg: "is empty: an experiment file sets at least one key (qcnlab show " + DefaultName + " prints an example)"}
	}
	if err := e.decode(where, string(data), false); err != nil {
		return nil, err
	}
	return e, nil
}

// Set applies a command-line override such as "network.rtt=300us": a dotted
// key and a TOML value, where a bare word is read as a string.
func (e *Experiment) Set(assignment string) error {
	key, value, ok := strings.Cut(assignment, "=")
	key, value = strings.TrimSpace(key), strings.TrimSpace(value)
	if !ok || key == "" {
		return &Error{Where: "--set", Msg: fmt.Sprintf("%q is not KEY=VALUE", assignment)}
	}
	return e.assign("--set", key, value)
}

// assign sets key to a TOML value (or a bare string); where names the
// assignment in errors.
func (e *Experiment) assign(where, key, value string) error {
	doc := key + " = " + value
	if err := checkNesting(where, doc, true); err != nil {
		return err // before the decoder below sees it
	}
	if _, err := toml.Decode(doc, new(map[string]any)); err != nil && !tomltext.OutOfRange(err) {
		doc = key + " = " + quote(value) // "300us" may be written bare
	}
	return e.decode(where, doc, true)
}

// quote writes s as a TOML basic string.
func quote(s string) string { return tomltext.Value(s) }

// decode overlays the TOML text on e, keeping what the text leaves out. A
// snippet (one assignment) is located by where alone, without line numbers.
func (e *Experiment) decode(where, text string, snippet bool) error {
	if err := checkNesting(where, text, snippet); err != nil {
		return err
	}
	doc := document{Experiment: *e.Clone()}
	md, err := toml.Decode(text, &doc)
	if err != nil { // every value it cannot read, not the first the decoder met (tomltext.ValueErrors)
		decode := func(text string) error { _, err := toml.Decode(text, &document{Experiment: *e.Clone()}); return err }
		describe := func(located error, value func(string) any) error {
			return elementError(tomltext.TypeError(located, value), text)
		}
		return joinErrors(tomltext.ValueErrors(where, text, snippet, err, decode, describe, maxErrors))
	}
	lines := tomltext.KeyLines(text, md.Keys())
	loc := func(key string, i int) string {
		if ls := lines[key]; i < len(ls) && !snippet {
			return fmt.Sprintf("%s:%d", where, ls[i])
		}
		return where
	}
	var errs []error
	// Tables that decode into maps: the toml package skips a value of
	// another type silently.
	for _, k := range md.Keys() {
		key := k.String()
		table := key == "params" || key == "sweep" || len(k) == 2 && k[0] == "params"
		if typ := md.Type(k...); table && typ != "Hash" {
			what := "a table"
			switch {
			case key == "params":
				what = "a table of tables, one per algorithm: [params.qcn]"
			case key == "sweep":
				what = "a table of arrays: [sweep] with network.rtt = [\"100us\", \"300us\"]"
			case k[0] == "params":
				what = fmt.Sprintf("a table of %s's parameters: [params.%s]", k[1], tomltext.BareKey(k[1]))
			}
			errs = append(errs, &Error{Where: loc(key, 0), Key: key, Msg: fmt.Sprintf("must be %s, not %s", what, tomltext.TypeName(typ))})
		}
	}
	if doc.Seed != nil {
		if *doc.Seed < 0 {
			errs = append(errs, &Error{Where: loc("seed", 0), Key: "seed", Msg: fmt.Sprintf("%d is out of range: %s", *doc.Seed, tomltext.SeedRange)})
		}
		doc.Experiment.Seed = uint64(*doc.Seed)
	}
	// The topologies' own keys: each topology's struct of them.
	unknownOwn, ownErrs := topology.DecodeOwn(text, &doc.Experiment.Network)
	if len(ownErrs) > 0 {
		var values map[string]any
		toml.Decode(text, &values)
		for _, err := range ownErrs {
			errs = append(errs, elementError(tomltext.TypeError(tomltext.DecodeError(where, snippet, err), func(key string) any { return tomltext.Lookup(values, key) }), text))
		}
	}
	for _, k := range md.Undecoded() {
		if k[0] == "params" || k[0] == "sweep" {
			continue // decoded below
		}
		if topology.IsOwn(k) && !slices.ContainsFunc(unknownOwn, func(u toml.Key) bool { return u.String() == k.String() }) {
			continue
		}
		errs = append(errs, elementError(&Error{Where: loc(k.String(), 0), Key: k.String(), Msg: "unknown key" + tomltext.Suggest(keys.Paths(), k)}, text))
	}
	next := doc.Experiment
	for _, name := range slices.Sorted(maps.Keys(doc.Params)) {
		sc, err := algos.Lookup(name)
		if scheme := (toml.Key{"params", name}).String(); err != nil { // params."qcn x", as lines spells it
			errs = append(errs, &Error{Where: loc(tomltext.FirstDefined(lines, scheme), 0), Key: scheme, Msg: err.Error()})
			continue
		}
		for _, key := range slices.Sorted(maps.Keys(doc.Params[name])) {
			full := toml.Key{"params", name, key}.String()
			p, ok := sc.Param(key)
			if !ok {
				errs = append(errs, &Error{Where: loc(full, 0), Key: full,
					Msg: fmt.Sprintf("%s has no parameter %q (it has %s)", name, key, strings.Join(sc.Keys(), ", "))})
				continue
			}
			v, err := tomltext.DecodeParam(md, doc.Params[name][key], p)
			var choiceErr *tomltext.ChoiceError
			if errors.As(err, &choiceErr) {
				errs = append(errs, &Error{Where: loc(full, 0), Key: full, Msg: choiceErr.Error()})
				continue
			}
			if err != nil {
				errs = append(errs, tomltext.TypeError(tomltext.DecodeError(where, snippet, err), func(string) any {
					var v any
					md.PrimitiveDecode(doc.Params[name][key], &v)
					return v
				}))
				continue
			}
			if next.Params[name] == nil {
				next.Params[name] = algos.Values{}
			}
			next.Params[name][key] = v
		}
	}
	axes, sweepErrs := sweep.Decode(md, doc.Sweep, loc)
	errs = append(errs, sweepErrs...)
	if len(errs) > 0 {
		return joinErrors(errs)
	}
	if md.IsDefined("sweep") {
		next.Sweep = sweep.Merge(next.Sweep, axes, sweep.Whole(md))
	}
	for key := range lines {
		// An array this text sets replaces the old one whole: the old
		// elements' places go with it.
		for k := range next.origin {
			if strings.HasPrefix(k, key+"[") {
				delete(next.origin, k)
			}
		}
	}
	for key, ls := range lines {
		next.origin[key] = loc(key, 0)
		for i := range ls { // elements of an array of tables: "sources.override[1]"
			next.origin[fmt.Sprintf("%s[%d]", key, i)] = loc(key, i)
		}
		// A key of an array of tables is located in its element: the
		// last of the array's headers above its line, "flows[1].to".
		if parent := key[:max(0, strings.LastIndexByte(key, '.'))]; parent != "" && len(lines[parent]) > 0 && !snippet {
			for i, l := range ls {
				if el := sort.SearchInts(lines[parent], l+1) - 1; el >= 0 {
					next.origin[fmt.Sprintf("%s[%d]%s", parent, el, key[len(parent):])] = loc(key, i)
				}
			}
		}
	}
	*e = next
	return nil
}

// elementError names the element of an array of tables that an error's
// key is in (tomltext.ElementError).
func elementError(err error, text string) error {
	return tomltext.ElementError(err, text, keys.Repeated(), tomlField)
}

// tomlField is the Go type of the experiment's field at a dotted TOML key.
func tomlField(key string) (reflect.Type, bool) {
	t := reflect.TypeOf(Experiment{})
	for _, part := range strings.Split(key, ".") {
		f, ok := fieldByTOML(t, part)
		if !ok {
			return nil, false
		}
		t = f.Type
	}
	return t, t.Kind() == reflect.Slice
}
