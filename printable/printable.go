// Package printable makes user-given text (the names of experiments, nodes,
// tiers, ports and flows) safe to print on a terminal: a control character
// or an escape sequence in a name must show as what it is, never act (one
// blanked the screen, one set the terminal's title).
package printable

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Text is s with every byte and character that a terminal would act on
// instead of showing written as a Go escape: control characters (C0, DEL,
// C1: ESC is \x1b), invisible format characters (bidirectional overrides,
// zero-width spaces: \u202e) and bytes that are not UTF-8 (\xff). Other
// text, whatever its script, is kept as it is.
func Text(s string) string {
	if clean(s) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r < 0x80 && unsafe(r):
			fmt.Fprintf(&b, `\x%02x`, r)
		case unsafe(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// clean reports whether s needs no escaping: the usual name, at no cost.
func clean(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f {
			return cleanUTF8(s[i:])
		}
	}
	return true
}

func cleanUTF8(s string) bool {
	if !utf8.ValidString(s) {
		return false
	}
	for _, r := range s {
		if unsafe(r) {
			return false
		}
	}
	return true
}

// unsafe reports whether a terminal would act on r, or not show it.
func unsafe(r rune) bool {
	return unicode.IsControl(r) || unicode.Is(unicode.Cf, r)
}
