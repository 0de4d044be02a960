package tomltext

import (
	"fmt"
	"regexp"
	"strings"

	"qcnlab/units"
)

// Share is the part of a TOML text that one key takes: its bytes, and
// for an array of tables ([[flows]]) how many elements it has.
type Share struct {
	Key      string
	Bytes    int
	Elements int
}

var (
	headerLine = regexp.MustCompile(`^\s*(\[\[?)\s*([^\]]+?)\s*\]\]?`)
	assignLine = regexp.MustCompile(`^\s*("(?:[^"\\]|\\.)*"|[A-Za-z0-9_.-]+)\s*=`)
)

// Largest finds the key that takes the most of a text as the TOML encoder
// writes it (one key or table header a line, multi-line strings between
// triple quotes): an array of tables counts whole under its name, every
// other key by itself, a line of a multi-line string as the key it
// continues.
func Largest(text string) Share {
	bytes := map[string]int{}
	elements := map[string]int{}
	table, key := "", ""
	inString := false
	for _, line := range strings.SplitAfter(text, "\n") {
		opens := strings.Count(line, `"""`)%2 == 1
		switch m := headerLine.FindStringSubmatch(line); {
		case inString:
		case m != nil && m[1] == "[[":
			table, key = unquote(m[2]), unquote(m[2])
			elements[key]++
		case m != nil:
			table, key = unquote(m[2]), unquote(m[2])
		default:
			if a := assignLine.FindStringSubmatch(line); a != nil && elements[table] == 0 {
				key = join(table, unquote(a[1]))
			}
		}
		if opens {
			inString = !inString
		}
		bytes[key] += len(line)
	}
	var top Share
	for k, n := range bytes {
		if k != "" && (n > top.Bytes || n == top.Bytes && k < top.Key) {
			top = Share{Key: k, Bytes: n, Elements: elements[k]}
		}
	}
	return top
}

// unquote is a key as written, quoted or not, as its dotted path.
func unquote(k string) string {
	if len(k) >= 2 && k[0] == '"' && k[len(k)-1] == '"' {
		return k[1 : len(k)-1]
	}
	return strings.ReplaceAll(k, " ", "")
}

func join(table, key string) string {
	if table == "" {
		return key
	}
	return table + "." + key
}

// Oversize blames a text of more than most bytes on its Largest key.
func Oversize(text string, most int) (key, msg string) {
	top, what := Largest(text), ""
	if top.Elements > 0 {
		what = fmt.Sprintf(" bytes (%d of them)", top.Elements)
	}
	return top.Key, fmt.Sprintf("takes %d%s of the %d bytes the experiment saves as, over the %d (%s) an experiment file may be: a file that large could not be loaded back; give fewer",
		top.Bytes, what, len(text), most, units.FormatBytes(float64(most)))
}
