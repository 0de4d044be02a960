package printable

import "testing"

func TestText(t *testing.T) {
	for in, want := range map[string]string{
		"edge0.0->h0":          "edge0.0->h0",
		"tor 1 / rack ä":       "tor 1 / rack ä",
		"h0\x1b[2J":            `h0\x1b[2J`,
		"\x1b]0;pwned\x07tier": `\x1b]0;pwned\x07tier`,
		"a\tb\nc\rd\x7f":       `a\x09b\x0ac\x0dd\x7f`,
		"\u009b31m":            `\u009b31m`, // C1 CSI
		"abc\u202edcba":        `abc\u202edcba`,
		"zero\u200bwidth":      `zero\u200bwidth`,
		"bad\xffbyte":          `bad\xffbyte`,
		"":                     "",
		"日本語":                  "日本語",
		"\ufffd is kept":       "\ufffd is kept", // a real U+FFFD, not a broken byte
	} {
		if got := Text(in); got != want {
			t.Errorf("Text(%q) = %q, want %q", in, got, want)
		}
	}
}
