package tomltext

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/BurntSushi/toml"
)

// ValueErrors lists the values of text the decoder cannot read, such as a
// size without its unit or a string where a number goes. The toml package
// stops at the first it meets, one of several picked in no fixed order
// (first): each is taken out of the text in turn and the rest decoded
// again with decode, until all are found or most, and they are listed by
// line. describe words a located error, given the text's values by key
// (TypeError, ElementError). A syntax error is the parser's alone, as is a
// snippet's (a --set) one value; an array of tables with a bad value is
// taken out whole, so a second bad value in it waits for the first.
func ValueErrors(where, text string, snippet bool, first error, decode func(text string) error,
	describe func(located error, value func(key string) any) error, most int) []error {
	var values map[string]any
	md, syntax := toml.Decode(text, &values)
	lookup := func(key string) any { return Lookup(values, key) }
	located := DecodeError(where, snippet, first)
	key := keyOf(located) // before describe names an element in place
	errs := []error{describe(located, lookup)}
	if syntax != nil || snippet {
		return errs
	}
	lines := KeyLines(text, md.Keys())
	for len(errs) < most && removeKey(values, key) {
		var b strings.Builder
		if toml.NewEncoder(&b).Encode(values) != nil {
			break
		}
		err := decode(b.String())
		if err == nil {
			break
		}
		located = DecodeError(where, true, err) // the lines are the re-encoded text's: the key's in text
		var e *Error
		if errors.As(located, &e) {
			if ls := lines[e.Key]; len(ls) > 0 {
				e.Where = fmt.Sprintf("%s:%d", where, ls[0])
			}
		}
		key = keyOf(located)
		errs = append(errs, describe(located, lookup))
	}
	slices.SortStableFunc(errs, func(a, b error) int { return cmp.Compare(lineOf(a), lineOf(b)) })
	return errs
}

// keyOf is the dotted key an error is about; "" if none.
func keyOf(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return e.Key
	}
	return ""
}

// lineOf is the line an error is located at; errors without one go last.
func lineOf(err error) int {
	var e *Error
	if errors.As(err, &e) {
		if _, n, ok := strings.Cut(e.Where, ":"); ok {
			if x, err := strconv.Atoi(n); err == nil {
				return x
			}
		}
	}
	return math.MaxInt
}

// removeKey deletes a dotted key from decoded TOML; a key inside an array
// of tables takes the whole array with it. False if it is not there.
func removeKey(values map[string]any, key string) bool {
	t := values
	for _, part := range strings.Split(key, ".") {
		v, ok := t[part]
		if !ok || part == "" {
			return false
		}
		next, table := v.(map[string]any)
		if !table {
			delete(t, part)
			return true
		}
		t = next
	}
	return false // a table itself is not a value the decoder fails on
}
