package tomltext

import "strings"

// TooDeep finds where arrays and inline tables in text first nest deeper
// than most: the line (from 1) and the key it is under. It follows TOML's
// strings (basic, literal, multi-line) and comments, so a bracket inside
// them does not count; it reads the text once, however deep it goes, so
// that it can run before a decoder whose memory grows with the depth.
func TooDeep(text string, most int) (line int, key string, deep bool) {
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
			if depth > most {
				key, _, _ := strings.Cut(text[lineStart:i], "=")
				return line, strings.Trim(strings.TrimSpace(key), "[]{ \t"), true
			}
		case c == ']' || c == '}':
			depth = max(0, depth-1)
		}
	}
	return 0, "", false
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
