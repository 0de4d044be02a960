package experiments

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/BurntSushi/toml"

	"qcnlab/algos"
	"qcnlab/printable"
	"qcnlab/units"
)

// Error is a problem with an experiment, located by file and line (or by the
// command-line flag that set the value) and by key.
type Error struct {
	Where string // "exp.toml:12", "exp.toml", "--set"
	Key   string // dotted key, e.g. "network.capacity"
	Msg   string
}

// Error escapes what a terminal would act on in the place, the key and the
// message: a key or a value of the file may hold an escape sequence.
func (e *Error) Error() string {
	lines := strings.Split(e.Msg, "\n")
	for i, l := range lines {
		lines[i] = printable.Text(l)
	}
	msg := strings.Join(lines, "\n")
	if e.Key == "" {
		return printable.Text(e.Where) + ": " + msg
	}
	return printable.Text(e.Where) + ": " + printable.Text(e.Key) + ": " + msg
}

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
func ReadFile(path string) ([]byte, error) { return readLimited(path, "an experiment file") }

// readLimited reads at most MaxFileBytes of what the file at path is.
func readLimited(path, what string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if info, err := f.Stat(); err != nil {
		return nil, err
	} else if info.IsDir() {
		return nil, &Error{Where: path, Msg: "is a directory, not " + what}
	}
	data, err := io.ReadAll(io.LimitReader(f, MaxFileBytes+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if len(data) > MaxFileBytes {
		return nil, &Error{Where: path, Msg: fmt.Sprintf("is larger than %s, the most %s may be", units.FormatBytes(MaxFileBytes), what)}
	}
	return data, nil
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
	if noKeys(string(data)) {
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

// noKeys reports whether a text is blank or only comments.
func noKeys(text string) bool {
	for _, line := range strings.Split(text, "\n") {
		if t := strings.TrimSpace(line); t != "" && t[0] != '#' {
			return false
		}
	}
	return true
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
func quote(s string) string { return tomlValue(s) }

var tomlErrPrefix = regexp.MustCompile(`^toml: (?:line (\d+) )?(?:\(last key "([^"]*)"\): )?`)

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
		return elementError(typeError(tomlError(where, snippet, err), func(key string) any { return lookup(values, key) }), text)
	}
	lines := keyLines(text, md.Keys())
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
			errs = append(errs, &Error{Where: loc(key, 0), Key: key, Msg: fmt.Sprintf("must be %s, not %s", what, tomlTypeName(typ))})
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
		errs = append(errs, elementError(&Error{Where: loc(k.String(), 0), Key: k.String(), Msg: "unknown key" + suggest(k)}, text))
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
				errs = append(errs, typeError(tomlError(where, snippet, err), func(string) any {
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

// tomlTypeName names a TOML type for people.
func tomlTypeName(typ string) string {
	switch typ {
	case "Hash":
		return "a table"
	case "ArrayHash":
		return "an array of tables"
	case "Integer", "Float", "String", "Array":
		return "a" + map[bool]string{true: "n", false: ""}[typ == "Integer" || typ == "Array"] + " " + strings.ToLower(typ)
	case "Bool":
		return "a boolean"
	}
	return "a " + strings.ToLower(typ)
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
		if slices.ContainsFunc(values, holdsTable) {
			errs = append(errs, &Error{Where: loc(k.String(), 0), Key: k.String(),
				Msg: "a sweep takes values, not tables ([[network.changes]] and [[sources.override]] cannot be swept)"})
			continue
		}
		a := Axis{Key: key}
		for _, x := range values {
			a.Values = append(a.Values, tomlValue(x))
		}
		axes = append(axes, a)
	}
	return axes, errs
}

// holdsTable reports whether a decoded TOML value is or holds a table.
func holdsTable(v any) bool {
	switch x := v.(type) {
	case map[string]any:
		return true
	case []any:
		return slices.ContainsFunc(x, holdsTable)
	case []map[string]any:
		return true
	}
	return false
}

// tomlValue writes a decoded TOML value back as TOML text.
func tomlValue(v any) string {
	var b strings.Builder
	toml.NewEncoder(&b).Encode(map[string]any{"v": v})
	_, text, _ := strings.Cut(strings.TrimSpace(b.String()), "= ")
	return text
}

// arraysOfTables are the keys whose tables repeat ([[flows]]): a key in one
// is named with its element, "network.link[1].capacity", as Validate names
// it, whatever found the problem.
var arraysOfTables = []string{"sources.override", "network.changes", "network.node", "network.link", "flows"}

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
	for _, array := range arraysOfTables {
		if !strings.HasPrefix(e.Key, array+".") {
			continue
		}
		var values map[string]any
		if _, err := toml.Decode(text, &values); err != nil {
			return err
		}
		elems, _ := lookup(values, array).([]map[string]any)
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
			if line := elementLine(text, array, i, name); line > 0 {
				e.Where = fmt.Sprintf("%s:%d", file, line)
			}
			break
		}
		break
	}
	return err
}

// elementLine is the line of key name in element i of an array of tables
// written [[array]], 0 if not found.
func elementLine(text, array string, i int, name string) int {
	n := -1
	for k, l := range strings.Split(text, "\n") {
		t := strings.TrimSpace(l)
		if strings.HasPrefix(t, "[") {
			header, _, _ := strings.Cut(strings.TrimPrefix(t, "[["), "]]")
			if strings.HasPrefix(t, "[[") && strings.ReplaceAll(header, " ", "") == array {
				n++
			} else if n == i {
				return 0
			}
			continue
		}
		if n == i && definesKey(l, name[strings.LastIndexByte(name, '.')+1:]) {
			return k + 1
		}
	}
	return 0
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

// tomlError turns the toml package's errors into an Error with file, line
// and key.
func tomlError(where string, snippet bool, err error) error {
	var pe toml.ParseError
	if errors.As(err, &pe) {
		at := where
		if pe.Position.Line > 0 && !snippet {
			at = fmt.Sprintf("%s:%d", where, pe.Position.Line)
		}
		msg := pe.Message
		if pe.Usage != "" {
			msg += " (" + strings.TrimSpace(pe.Usage) + ")"
		}
		return &Error{Where: at, Key: pe.LastKey, Msg: msg}
	}
	msg := err.Error()
	m := tomlErrPrefix.FindStringSubmatch(msg)
	at := where
	if m[1] != "" && !snippet {
		at = where + ":" + m[1]
	}
	return &Error{Where: at, Key: m[2], Msg: strings.TrimPrefix(msg, m[0])}
}

// mismatch is the toml package's word for a value where a table (or an
// array of tables) goes: "type mismatch for experiments.Output: expected
// table but found int64".
var mismatch = regexp.MustCompile(`^type mismatch for \S+: expected table but found \S+$`)

var incompatible = regexp.MustCompile(`^incompatible types: TOML value has type \S+; destination has type (\S+)$`)

// typeError says a value of the wrong type in the project's words: what
// the key takes and what it was given, "params.qcn.w: a plain number, not
// a size ("1KB")", where the toml package says "incompatible types".
func typeError(err error, value func(key string) any) error {
	var e *Error
	if !errors.As(err, &e) {
		return err
	}
	if mismatch.MatchString(e.Msg) {
		v := value(e.Key)
		if list, ok := v.([]any); ok {
			for _, x := range list {
				if _, table := x.(map[string]any); !table {
					return &Error{Where: e.Where, Key: e.Key, Msg: "an array of tables, not " + describe(x)}
				}
			}
		}
		return &Error{Where: e.Where, Key: e.Key, Msg: "a table, not " + describe(v)}
	}
	m := incompatible.FindStringSubmatch(e.Msg)
	if m == nil {
		return err
	}
	want := map[string]string{"integer": "a whole number", "float": "a plain number", "boolean": "true or false",
		"bool": "true or false", "string": "a string", "slice": "an array"}[m[1]]
	if want == "" {
		return err
	}
	return &Error{Where: e.Where, Key: e.Key, Msg: want + ", not " + describe(value(e.Key))}
}

// describe names a decoded TOML value for an error: "a size ("1KB")",
// "2.5", "the text "fast"".
func describe(v any) string {
	switch x := v.(type) {
	case string:
		for _, k := range []struct {
			name  string
			parse func(string) error
		}{
			{"a size", func(s string) error { _, err := units.ParseBytes(s); return err }},
			{"a rate", func(s string) error { _, err := units.ParseRate(s); return err }},
			{"a duration", func(s string) error { _, err := units.ParseDuration(s); return err }},
		} {
			if k.parse(x) == nil {
				return fmt.Sprintf("%s (%q)", k.name, x)
			}
		}
		return fmt.Sprintf("the text %q", x)
	case float64:
		// 1.0, not 1: a whole number refused as a float must not read as one
		f := strconv.FormatFloat(x, 'g', -1, 64)
		if !strings.ContainsAny(f, ".eEnI") {
			f += ".0"
		}
		return f
	case int64:
		return strconv.FormatInt(x, 10)
	case bool:
		return strconv.FormatBool(x)
	case []any, []map[string]any:
		return "an array"
	case map[string]any:
		return "a table"
	}
	return "a value of another type"
}

// lookup finds a dotted key in decoded TOML; nil if it is not there.
func lookup(m map[string]any, key string) any {
	var v any = m
	for _, part := range strings.Split(key, ".") {
		t, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		if x, ok := t[part]; ok {
			v = x
			continue
		}
		return lookupQuoted(t, part)
	}
	return v
}

// lookupQuoted finds a part of a key written quoted with dots in it (a
// scheme's name has none, so this is rare): nil if absent.
func lookupQuoted(t map[string]any, part string) any {
	for k, x := range t {
		if strings.Trim(k, `"`) == part {
			return x
		}
	}
	return nil
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

// keyLines finds the line of every key the file defines. The keys come in
// document order, so a forward scan finds each; a key repeated by an array
// of tables gets one line per element.
func keyLines(text string, keys []toml.Key) map[string][]int {
	lines := strings.Split(text, "\n")
	out := make(map[string][]int, len(keys))
	from := 0
	for _, k := range keys {
		for i := from; i < len(lines); i++ {
			if definesKey(lines[i], k[len(k)-1]) {
				out[k.String()] = append(out[k.String()], i+1)
				from = i
				break
			}
		}
	}
	return out
}

// definesKey reports whether a line defines name: as a table header part, as
// a (possibly dotted) key before "=", or inside an inline table.
func definesKey(line, name string) bool {
	t := strings.TrimSpace(line)
	if t == "" || t[0] == '#' {
		return false
	}
	parts := func(s string) bool {
		if strings.Trim(strings.TrimSpace(s), `"'`) == name { // a quoted key with dots
			return true
		}
		for _, p := range strings.Split(s, ".") {
			if strings.Trim(strings.TrimSpace(p), `"'`) == name {
				return true
			}
			if q, err := strconv.Unquote(strings.TrimSpace(p)); err == nil && q == name { // "\u001b[2J"
				return true
			}
		}
		return false
	}
	if t[0] == '[' {
		header, _, _ := strings.Cut(strings.Trim(t, "[ "), "]")
		return parts(header)
	}
	lhs, rhs, ok := strings.Cut(t, "=")
	if !ok {
		return false
	}
	if parts(lhs) {
		return true
	}
	return strings.Contains(rhs, "{") && regexp.MustCompile(`[{,]\s*`+regexp.QuoteMeta(name)+`\s*=`).MatchString(rhs)
}

// knownKeys are the keys of the schema, for suggestions.
var knownKeys = []string{
	"name", "description", "seed", "duration", "warmup", "model", "algorithms",
	"network.topology", "network.capacity", "network.buffer", "network.frame_size", "network.rtt",
	"sources.count", "sources.line_rate", "sources.initial_rate", "sources.forward_delay",
	"sources.backward_delay", "sources.start", "sources.stop", "sources.override",
	"sources.override.ids", "sources.override.line_rate", "sources.override.initial_rate",
	"sources.override.rtt", "sources.override.forward_delay", "sources.override.backward_delay",
	"sources.override.start", "sources.override.stop",
	"output.sample_interval", "output.rate_window", "output.fairness_threshold",
	"network.pfc", "network.pfc_xoff", "network.pfc_xon", "network.clock_ppm", "network.switch_jitter",
	"network.pfc_accounting", "network.pfc_deadlock_after", "network.pfc_threshold", "network.pfc_alpha",
	"traffic.long_flows", "traffic.short_flow_rate", "traffic.short_flow_sizes",
	"network.links", "network.hop_delay", "network.feedback_latency", "network.changes",
	"network.changes.at", "network.changes.capacity", "network.changes.link", "output.phases",
}

// suggest names the known key closest to an unknown one, if any is close.
func suggest(k toml.Key) string {
	key := k.String()
	best, bestD := "", 4
	for _, known := range knownKeys {
		if d := editDistance(key, known); d < bestD {
			best, bestD = known, d
		}
	}
	if best == "" {
		return ""
	}
	return fmt.Sprintf(" (did you mean %q?)", best)
}

// editDistance is the Levenshtein distance between two short strings.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur := make([]int, len(b)+1)
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev = cur
	}
	return prev[len(b)]
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
