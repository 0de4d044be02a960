package experiments

import (
	"fmt"
	"strings"
)

// MaxNesting bounds how deep arrays and inline tables may nest in an
// experiment file. The deepest a valid file goes is about 3 ([[sources.
// override]] with ids = [...]); the TOML decoder's memory grows steeply with
// depth (a 40 KB file nested 20,000 deep once took 14 GB), so the text is
// scanned before it is decoded.
const MaxNesting = 16

// checkNesting refuses text whose arrays or inline tables nest deeper than
// MaxNesting, naming the line and the key it is under. It follows TOML's
// strings (basic, literal, multi-line) and comments, so a bracket inside
// them does not count.
func checkNesting(where, text string, snippet bool) error {
	depth, line, lineStart := 0, 1, 0
	for i := 0; i < len(text); i++ {
		c := text[i]
		switch {
		case c == '\n':
			line++
			lineStart = i + 1
		case c == '#':
			for i+1 < len(text) && text[i+1] != '\n' {
				i++
			}
		case c == '"' || c == '\'':
			i = skipString(text, i)
		case c == '[' || c == '{':
			depth++
			if depth > MaxNesting {
				at := where
				if !snippet {
					at = fmt.Sprintf("%s:%d", where, line)
				}
				key, _, _ := strings.Cut(text[lineStart:i], "=")
				return &Error{Where: at, Key: strings.Trim(strings.TrimSpace(key), "[]{ \t"),
					Msg: fmt.Sprintf("arrays and inline tables nest deeper than %d levels; an experiment needs a few", MaxNesting)}
			}
		case c == ']' || c == '}':
			depth = max(0, depth-1)
		}
	}
	return nil
}

// skipString returns the index of the last byte of the string that opens at
// text[i] (a quote), or the end of text if it does not close.
func skipString(text string, i int) int {
	q := text[i]
	if strings.HasPrefix(text[i:], strings.Repeat(string(q), 3)) {
		end := strings.Index(text[i+3:], strings.Repeat(string(q), 3))
		if end < 0 {
			return len(text) - 1
		}
		j := i + 3 + end + 2
		for j+1 < len(text) && text[j+1] == q { // up to two more quotes belong to the string
			j++
		}
		return j
	}
	for j := i + 1; j < len(text); j++ {
		switch text[j] {
		case '\\':
			if q == '"' {
				j++
			}
		case q, '\n':
			return j
		}
	}
	return len(text) - 1
}
