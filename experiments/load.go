package experiments

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strings"

	"github.com/BurntSushi/toml"

	"qcnlab/algos"
	"qcnlab/experiments/keys"
	"qcnlab/experiments/tomltext"
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
	e := Default()
	base := filepath.Base(where)
	if _, name, ok := strings.Cut(where, "builtin:"); ok {
		base = name
	}
	e.Name = safeName(strings.TrimSuffix(base, ".toml"))
	if len(data) > MaxFileBytes {
		return nil, &Error{Where: where, Msg: fmt.Sprintf("is larger than %s, the most an experiment file may be", units.FormatBytes(MaxFileBytes))}
	}
	if tomltext.NoKeys(string(data)) {
		return nil, &Error{Where: where, Msg: "is empty: an experiment file sets at least one key (qcnlab show " + DefaultName + " prints an example)"}
	}
	if err := e.decode(where, string(data), false); err != nil {
		return nil, err
	}
	if err := e.Validate(); err != nil {
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
	if _, err := toml.Decode(doc, new(map[string]any)); err != nil {
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
	if err != nil {
		var values map[string]any // to name a value of the wrong type
		toml.Decode(text, &values)
		return elementError(tomltext.TypeError(tomltext.DecodeError(where, snippet, err), func(key string) any { return tomltext.Lookup(values, key) }), text)
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
				what = fmt.Sprintf("a table of %s's parameters: [params.%s]", k[1], bareKey(k[1]))
			}
			errs = append(errs, &Error{Where: loc(key, 0), Key: key, Msg: fmt.Sprintf("must be %s, not %s", what, tomltext.TypeName(typ))})
		}
	}
	if doc.Seed != nil {
		if *doc.Seed < 0 {
			errs = append(errs, &Error{Where: loc("seed", 0), Key: "seed", Msg: fmt.Sprintf("must not be negative (got %d)", *doc.Seed)})
		}
		doc.Experiment.Seed = uint64(*doc.Seed)
	}
	for _, k := range md.Undecoded() {
		if k[0] == "params" || k[0] == "sweep" {
			continue // decoded below
		}
		errs = append(errs, elementError(&Error{Where: loc(k.String(), 0), Key: k.String(), Msg: "unknown key" + tomltext.Suggest(keys.Paths(), k)}, text))
	}
	next := doc.Experiment
	for _, name := range sortedKeys(doc.Params) {
		sc, err := algos.Lookup(name)
		if err != nil {
			errs = append(errs, &Error{Where: loc("params."+name, 0), Key: "params." + name, Msg: err.Error()})
			continue
		}
		for _, key := range sortedKeys(doc.Params[name]) {
			full := "params." + name + "." + key
			p, ok := sc.Param(key)
			if !ok {
				errs = append(errs, &Error{Where: loc(full, 0), Key: full,
					Msg: fmt.Sprintf("%s has no parameter %q (it has %s)", name, key, strings.Join(sc.Keys(), ", "))})
				continue
			}
			v, err := decodeParam(md, doc.Params[name][key], p)
			var choiceErr *choiceError
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
	sweep, sweepErrs := decodeSweep(md, doc.Sweep, loc)
	errs = append(errs, sweepErrs...)
	if len(errs) > 0 {
		return joinErrors(errs)
	}
	if md.IsDefined("sweep") {
		next.Sweep = mergeAxes(next.Sweep, sweep, wholeSweep(md))
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
		if parent := key[:max(0, lastDot(key))]; parent != "" && len(lines[parent]) > 0 && !snippet {
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

// wholeSweep reports whether the text sets [sweep] as a whole (a file's
// table, or --set sweep={...}) rather than some of its keys (--set
// sweep.network.rtt=[...]).
func wholeSweep(md toml.MetaData) bool {
	for _, k := range md.Keys() {
		if len(k) == 1 && k[0] == "sweep" {
			return true
		}
	}
	return false
}

// mergeAxes sets the given axes: all of them if whole, else each one in the
// place of the axis of the same key, or after the others.
func mergeAxes(old, set []Axis, whole bool) []Axis {
	if whole {
		return set
	}
	out := append([]Axis(nil), old...)
	for _, a := range set {
		i := slices.IndexFunc(out, func(b Axis) bool { return b.Key == a.Key })
		if i < 0 {
			out = append(out, a)
		} else {
			out[i] = a
		}
	}
	return out
}

// decodeSweep reads [sweep] in document order: each key, dotted or nested,
// names an experiment key and holds the array of values it takes.
func decodeSweep(md toml.MetaData, table map[string]any, loc func(string, int) string) ([]Axis, []error) {
	var axes []Axis
	var errs []error
	for _, k := range md.Keys() {
		if len(k) < 2 || k[0] != "sweep" {
			continue
		}
		var v any = table
		inValue := false
		for _, part := range k[1:] {
			t, ok := v.(map[string]any)
			if !ok { // a key of an inline table inside an axis's array
				inValue = true
				break
			}
			v = t[part]
		}
		if _, isTable := v.(map[string]any); isTable || inValue {
			continue // a table on the way to a key, or part of a value
		}
		key := strings.Join(k[1:], ".")
		values, ok := v.([]any)
		if !ok || len(values) == 0 {
			errs = append(errs, &Error{Where: loc(k.String(), 0), Key: k.String(), Msg: "a sweep key takes a non-empty array of values"})
			continue
		}
		if slices.ContainsFunc(values, tomltext.HoldsTable) {
			errs = append(errs, &Error{Where: loc(k.String(), 0), Key: k.String(),
				Msg: "a sweep takes values, not tables ([[network.changes]] and [[sources.override]] cannot be swept)"})
			continue
		}
		a := Axis{Key: key}
		for _, x := range values {
			a.Values = append(a.Values, tomltext.Value(x))
		}
		axes = append(axes, a)
	}
	return axes, errs
}

// elementError names the element of an array of tables that an error's key
// is in, and the line of the key in it (the toml package places an error
// inside an array of tables at the array's last line): the first element
// that does not decode alone is the one.
func elementError(err error, text string) error {
	var e *Error
	if !errors.As(err, &e) {
		return err
	}
	file, _, located := strings.Cut(e.Where, ":")
	if !located {
		return err
	}
	for _, array := range keys.Repeated() {
		if !strings.HasPrefix(e.Key, array+".") {
			continue
		}
		var values map[string]any
		if _, err := toml.Decode(text, &values); err != nil {
			return err
		}
		elems, _ := tomltext.Lookup(values, array).([]map[string]any)
		field, ok := tomlField(array)
		if !ok {
			break
		}
		name := e.Key[len(array)+1:]
		for i, el := range elems {
			var b strings.Builder
			if toml.NewEncoder(&b).Encode(el) != nil {
				break
			}
			md, err := toml.Decode(b.String(), reflect.New(field.Elem()).Interface())
			unknown := slices.ContainsFunc(md.Undecoded(), func(k toml.Key) bool { return k.String() == name })
			if err == nil && !unknown {
				continue
			}
			e.Key = fmt.Sprintf("%s[%d].%s", array, i, name)
			if line := tomltext.ElementLine(text, array, i, name); line > 0 {
				e.Where = fmt.Sprintf("%s:%d", file, line)
			}
			break
		}
		break
	}
	return err
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

// choiceError is a word that is not one of a choice parameter's.
type choiceError struct{ error }

// decodeParam reads one [params.NAME] value of p's kind into base units.
func decodeParam(md toml.MetaData, prim toml.Primitive, p algos.Param) (float64, error) {
	switch p.Kind {
	case algos.Choice:
		var word string
		if err := md.PrimitiveDecode(prim, &word); err != nil {
			return 0, err
		}
		x, err := p.ChoiceValue(word)
		if err != nil {
			return 0, &choiceError{err}
		}
		return x, nil
	case algos.Bytes:
		var b units.Bytes
		err := md.PrimitiveDecode(prim, &b)
		return float64(b), err
	case algos.Rate:
		var r units.Rate
		err := md.PrimitiveDecode(prim, &r)
		return float64(r), err
	case algos.Duration:
		var d units.Duration
		err := md.PrimitiveDecode(prim, &d)
		return algos.Time(d).Seconds(), err
	case algos.Count:
		var n int64
		err := md.PrimitiveDecode(prim, &n)
		return float64(n), err
	case algos.Switch:
		var b bool
		err := md.PrimitiveDecode(prim, &b)
		if b {
			return 1, err
		}
		return 0, err
	}
	var x float64
	err := md.PrimitiveDecode(prim, &x)
	return x, err
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
