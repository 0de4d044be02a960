package tomltext

import (
	"strings"
	"testing"

	"github.com/BurntSushi/toml"
)

// A key with a letter that looks like an ASCII one (a Cyrillic "с" for a
// Latin "c") is named by its code point, which the reader cannot see.
func TestNonASCIIKeyNamesTheCodePoint(t *testing.T) {
	var v map[string]any
	_, err := toml.Decode("[network]\n\u0441apacity = \"10Gbps\"\n", &v)
	if err == nil {
		t.Fatal("a bare key with a Cyrillic letter decoded")
	}
	got := DecodeError("c.toml", false, err).Error()
	if !strings.HasPrefix(got, "c.toml:2:") || !strings.Contains(got, "U+0441 is not an ASCII character") {
		t.Errorf("got %q, want the line and the code point", got)
	}
	_, err = toml.Decode("[network]\ncapacity 10\n", &v)
	if got := DecodeError("c.toml", false, err).Error(); strings.Contains(got, "U+") {
		t.Errorf("an ASCII character named by its code point: %q", got)
	}
}
