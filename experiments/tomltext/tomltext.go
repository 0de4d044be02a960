// Package tomltext reads a TOML text as a person wrote it, for errors that
// name the line and say what was there: the lines that define a key, the
// line of a key in the i-th element of an array of tables, a decoded
// value described in words ("a size (\"1MB\")"), a type's name, the
// distance between a misspelt key and a known one, arrays nested too
// deep, and the toml package's errors in those words (Error: file, line,
// key).
package tomltext

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/BurntSushi/toml"

	"qcnlab/units"
)

// NoKeys reports whether a text is blank or only comments.
func NoKeys(text string) bool {
	for _, line := range strings.Split(text, "\n") {
		if t := strings.TrimSpace(line); t != "" && t[0] != '#' {
			return false
		}
	}
	return true
}

// TypeName names a TOML type for people.
func TypeName(typ string) string {
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

// HoldsTable reports whether a decoded TOML value is or holds a table.
func HoldsTable(v any) bool {
	switch x := v.(type) {
	case map[string]any:
		return true
	case []any:
		return slices.ContainsFunc(x, HoldsTable)
	case []map[string]any:
		return true
	}
	return false
}

// Value writes a decoded TOML value back as TOML text.
func Value(v any) string {
	var b strings.Builder
	toml.NewEncoder(&b).Encode(map[string]any{"v": v})
	_, text, _ := strings.Cut(strings.TrimSpace(b.String()), "= ")
	return text
}

// ElementLine is the line of key name in element i of an array of tables
// written [[array]], 0 if not found.
func ElementLine(text, array string, i int, name string) int {
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
		if n == i && DefinesKey(l, name[strings.LastIndexByte(name, '.')+1:]) {
			return k + 1
		}
	}
	return 0
}

// Describe names a decoded TOML value for an error: "a size ("1KB")",
// "2.5", "the text "fast"".
func Describe(v any) string {
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
				return fmt.Sprintf("%s (%s)", k.name, units.Quote(x))
			}
		}
		return "the text " + units.Quote(x)
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

// Lookup finds a dotted key in decoded TOML; nil if it is not there.
func Lookup(m map[string]any, key string) any {
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

// KeyLines finds the line of every key the file defines. The keys come in
// document order, so a forward scan finds each; a key repeated by an array
// of tables gets one line per element.
func KeyLines(text string, keys []toml.Key) map[string][]int {
	lines := strings.Split(text, "\n")
	out := make(map[string][]int, len(keys))
	from := 0
	for _, k := range keys {
		for i := from; i < len(lines); i++ {
			if DefinesKey(lines[i], k[len(k)-1]) && !headerAbove(lines[i], k) {
				out[k.String()] = append(out[k.String()], i+1)
				from = i
				break
			}
		}
	}
	return out
}

// headerAbove reports whether line is a table header that does not define
// k at k's depth: [sweep] defines sweep, not the key sweep.sweep inside it.
func headerAbove(line string, k toml.Key) bool {
	t := strings.TrimSpace(line)
	if t == "" || t[0] != '[' {
		return false
	}
	header, _, _ := strings.Cut(strings.Trim(t, "[ "), "]")
	parts := splitDotted(header)
	if len(parts) < len(k) {
		return true
	}
	p, name := strings.TrimSpace(parts[len(k)-1]), k[len(k)-1]
	q, err := strconv.Unquote(p) // "\u001b[2J"
	return strings.Trim(p, `"'`) != name && (err != nil || q != name)
}

// FirstDefined is key if lines (KeyLines) has it, else the key under it
// defined first: a dotted "qnc".q_eq = 1 in [params] defines params.qnc.q_eq,
// not params.qnc.
func FirstDefined(lines map[string][]int, key string) string {
	if _, ok := lines[key]; ok {
		return key
	}
	first, line := key, 0
	for k, ls := range lines {
		if strings.HasPrefix(k, key+".") && len(ls) > 0 && (line == 0 || ls[0] < line) {
			first, line = k, ls[0]
		}
	}
	return first
}

// DefinesKey reports whether a line defines name: as a table header part, as
// a (possibly dotted) key before "=", or inside an inline table.
func DefinesKey(line, name string) bool {
	t := strings.TrimSpace(line)
	if t == "" || t[0] == '#' {
		return false
	}
	parts := func(s string) bool {
		if strings.Trim(strings.TrimSpace(s), `"'`) == name { // a quoted key with dots
			return true
		}
		for _, p := range splitDotted(s) {
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

// splitDotted splits a dotted key at its dots outside quotes: a quoted
// "network.rtt" is one part, not a key that ends in rtt.
func splitDotted(s string) []string {
	var parts []string
	start, quote := 0, byte(0)
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case quote == '"' && c == '\\':
			i++
		case quote != 0 && c == quote:
			quote = 0
		case quote == 0 && (c == '"' || c == '\''):
			quote = c
		case quote == 0 && c == '.':
			parts = append(parts, s[start:i])
			start = i + 1
		}
	}
	return append(parts, s[start:])
}

// Near is the edit distance between a and b if it is below limit. Strings
// whose lengths differ by limit or more are not compared: the distance is
// at least that, and a 3.9 MB key would take seconds against each name.
func Near(a, b string, limit int) (int, bool) {
	if abs(len(a)-len(b)) >= limit {
		return 0, false
	}
	d := editDistance(a, b)
	return d, d < limit
}

func abs(x int) int { return max(x, -x) }

// editDistance is EditDistance; a test counts what it compares.
var editDistance = EditDistance

// EditDistance is the Levenshtein distance between two short strings.
func EditDistance(a, b string) int {
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
