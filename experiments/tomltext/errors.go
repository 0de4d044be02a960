package tomltext

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/BurntSushi/toml"

	"qcnlab/printable"
)

// Error is a problem with an experiment, located by file and line (or by
// the command-line flag that set the value) and by key.
type Error struct {
	Where string // "exp.toml:12", "exp.toml", "--set"
	Key   string // dotted key, e.g. "network.capacity"
	Msg   string
}

// Error escapes what a terminal would act on in the place, the key and the
// message: a key or a value of the file may hold an escape sequence.
// A key or a line of the message that is far longer than any the program
// writes is cut (Clip): it quotes the input whole.
func (e *Error) Error() string {
	lines := strings.Split(e.Msg, "\n")
	for i, l := range lines {
		lines[i] = printable.Text(Clip(l, maxLine))
	}
	msg := strings.Join(lines, "\n")
	if e.Key == "" {
		return printable.Text(e.Where) + ": " + msg
	}
	return printable.Text(e.Where) + ": " + printable.Text(Clip(e.Key, maxKey)) + ": " + msg
}

// The longest key and message line an Error prints: the known keys are
// under 50 characters and the messages' lines under 400.
const maxKey, maxLine = 200, 600

// Clip is s cut to at most n bytes, at a character, with what was cut
// counted: "aaaa... (499,800 more bytes)".
func Clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return fmt.Sprintf("%s... (%d more bytes)", s[:cut], len(s)-cut)
}

// tomlErrPrefix is how the toml package starts an error that is not a
// ParseError: its line and the last key it read.
var tomlErrPrefix = regexp.MustCompile(`^toml: (?:line (\d+) )?(?:\(last key "([^"]*)"\): )?`)

// DecodeError turns the toml package's errors into an Error with file,
// line and key; snippet is a text of its own (a --set), whose lines are
// not the file's.
func DecodeError(where string, snippet bool, err error) error {
	var pe toml.ParseError
	if errors.As(err, &pe) {
		at := where
		if pe.Position.Line > 0 && !snippet {
			at = fmt.Sprintf("%s:%d", where, pe.Position.Line)
		}
		msg := nonASCII(pe.Message)
		if pe.Usage != "" {
			msg += " (" + strings.TrimSpace(pe.Usage) + ")"
		}
		return &Error{Where: at, Key: pe.LastKey, Msg: rangeMessage(pe.LastKey, msg)}
	}
	msg := err.Error()
	m := tomlErrPrefix.FindStringSubmatch(msg)
	at := where
	if m[1] != "" && !snippet {
		at = where + ":" + m[1]
	}
	return &Error{Where: at, Key: m[2], Msg: rangeMessage(m[2], strings.TrimPrefix(msg, m[0]))}
}

// gotChar is the toml package's message for a character it did not expect.
var gotChar = regexp.MustCompile(`but got '(.)' instead$`)

// nonASCII names the code point of an unexpected character that is not
// ASCII (a Cyrillic "с" looks like a Latin "c"): a bare key is ASCII
// letters, digits, "-" and "_".
func nonASCII(msg string) string {
	m := gotChar.FindStringSubmatch(msg)
	if m == nil {
		return msg
	}
	r, _ := utf8.DecodeRuneInString(m[1])
	if r < utf8.RuneSelf {
		return msg
	}
	return fmt.Sprintf("%s: %U is not an ASCII character, and a bare key is ASCII letters, digits, - and _ (quote the key to use it)", msg, r)
}

// rangeMessage says an integer beyond int64 in the project's words, a
// seed's as every message about a seed does.
func rangeMessage(key, msg string) string {
	n := outOfRange.FindStringSubmatch(msg)
	switch {
	case n == nil:
		return msg
	case key == "seed" || key == "sweep.seed":
		return n[1] + " is out of range: " + SeedRange
	}
	return n[1] + " is out of range: a whole number from -9223372036854775808 to 9223372036854775807 (a TOML integer)"
}

// SeedRange is what a seed may be, in every message about one.
const SeedRange = "a seed is a whole number from 0 to 9223372036854775807 (2^63-1)"

// outOfRange is the toml package's error for an integer beyond int64.
var outOfRange = regexp.MustCompile(`^(-?[0-9_]+) is out of range for int64$`)

// OutOfRange reports whether err is the toml package's for an integer
// beyond int64: a value that is a number, not a bare word.
func OutOfRange(err error) bool {
	var pe toml.ParseError
	if errors.As(err, &pe) {
		return outOfRange.MatchString(pe.Message)
	}
	return outOfRange.MatchString(strings.TrimPrefix(err.Error(), tomlErrPrefix.FindString(err.Error())))
}

// mismatch is the toml package's word for a value where a table (or an
// array of tables) goes: "type mismatch for experiments.Output: expected
// table but found int64".
var mismatch = regexp.MustCompile(`^type mismatch for \S+: expected table but found \S+$`)

var incompatible = regexp.MustCompile(`^incompatible types: TOML value has type \S+; destination has type (\S+)$`)

// TypeError says a value of the wrong type in the project's words: what
// the key takes and what it was given, "params.qcn.w: a plain number, not
// a size ("1KB")", where the toml package says "incompatible types".
func TypeError(err error, value func(key string) any) error {
	var e *Error
	if !errors.As(err, &e) {
		return err
	}
	if mismatch.MatchString(e.Msg) {
		v := value(e.Key)
		if list, ok := v.([]any); ok {
			for _, x := range list {
				if _, table := x.(map[string]any); !table {
					return &Error{Where: e.Where, Key: e.Key, Msg: "an array of tables, not " + Describe(x)}
				}
			}
		}
		return &Error{Where: e.Where, Key: e.Key, Msg: "a table, not " + Describe(v)}
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
	return &Error{Where: e.Where, Key: e.Key, Msg: want + ", not " + Describe(value(e.Key))}
}

// Suggest names the known key closest to an unknown one, if any is close:
// " (did you mean \"network.capacity\"?)".
func Suggest(known []string, k toml.Key) string {
	key := k.String()
	if last := k[len(k)-1]; strings.Contains(last, ".") {
		// A quoted "network.rtt" is one key whose name has a dot in it.
		dotted := strings.Join(append(append([]string(nil), k[:len(k)-1]...), last), ".")
		if slices.Contains(known, dotted) {
			return fmt.Sprintf(": in quotes, %q is one name with a dot in it, not a key of a table; write it without the quotes: %s = ...", last, dotted)
		}
	}
	best, bestD := "", 4
	var elsewhere []string // the key's name in other tables: [sources] buffer for network.buffer
	for _, name := range known {
		if d, ok := Near(key, name, bestD); ok {
			best, bestD = name, d
		}
		if name != key && name[strings.LastIndexByte(name, '.')+1:] == k[len(k)-1] && !isTable(known, name) {
			elsewhere = append(elsewhere, strconv.Quote(name))
		}
	}
	switch {
	case len(elsewhere) > 0 && bestD > 1: // a slip of one letter is the likelier
		tables := map[bool]string{true: "another table", false: "other tables"}[len(elsewhere) == 1]
		return fmt.Sprintf(" (%s is a key of %s: %s)", strconv.Quote(k[len(k)-1]), tables, strings.Join(elsewhere, ", "))
	case best != "":
		return fmt.Sprintf(" (did you mean %q?)", best)
	}
	return ""
}

// isTable reports whether name is a table among the known keys (network,
// of network.capacity): a table is not a key to move a value to.
func isTable(known []string, name string) bool {
	return slices.ContainsFunc(known, func(o string) bool { return strings.HasPrefix(o, name+".") })
}
