package tomltext

import (
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/BurntSushi/toml"
)

// ElementError names the element of an array of tables that an error's key
// is in, and the line of the key in it (the toml package places an error
// inside an array of tables at the array's last line): the first element
// that does not decode alone is the one. arrays are the arrays of tables,
// elem the Go type of a slice of their elements.
func ElementError(err error, text string, arrays []string, elem func(array string) (reflect.Type, bool)) error {
	var e *Error
	if !errors.As(err, &e) {
		return err
	}
	file, _, located := strings.Cut(e.Where, ":")
	if !located {
		return err
	}
	for _, array := range arrays {
		if !strings.HasPrefix(e.Key, array+".") {
			continue
		}
		var values map[string]any
		if _, err := toml.Decode(text, &values); err != nil {
			return err
		}
		elems, _ := Lookup(values, array).([]map[string]any)
		field, ok := elem(array)
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
			if line := ElementLine(text, array, i, name); line > 0 {
				e.Where = fmt.Sprintf("%s:%d", file, line)
			}
			break
		}
		break
	}
	return err
}
