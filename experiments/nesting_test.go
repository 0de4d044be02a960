package experiments

import (
	"strings"
	"testing"
)

// A deeply nested file is refused at once, by line and key, before the
// decoder sees it (20,000 levels once took 14 GB); brackets in strings and
// comments do not count.
func TestDeepNestingRefused(t *testing.T) {
	for _, c := range []struct {
		name, text, want string
	}{
		{"inline tables", "name = \"x\"\n\na = " + strings.Repeat("{b=", 20000) + "1" + strings.Repeat("}", 20000), "deep.toml:3: a: arrays and inline tables nest deeper than 16"},
		{"arrays", "[sources]\nids = " + strings.Repeat("[", 17) + strings.Repeat("]", 17), "deep.toml:2: ids:"},
		{"unclosed", "x = " + strings.Repeat("[", 100000), "deep.toml:1: x:"},
	} {
		_, err := Parse("deep.toml", []byte(c.text))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}
	// Sixteen levels are allowed through to the decoder, and brackets in
	// strings and comments are not nesting.
	for _, text := range []string{
		"description = \"" + strings.Repeat("[{", 100) + "\"\nname = \"ok\"",
		"description = '''\n" + strings.Repeat("[", 100) + "\n'''\nname = \"ok\"",
		"# " + strings.Repeat("{", 100) + "\nname = \"ok\"",
		"description = \"a \\\" [[[[[[[[[[[[[[[[[[[[\"\nname = \"ok\"",
	} {
		if err := checkNesting("f.toml", text, false); err != nil {
			t.Errorf("%q: %v", text[:20], err)
		}
	}
	if err := checkNesting("f.toml", "a = "+strings.Repeat("[", 16)+strings.Repeat("]", 16), false); err != nil {
		t.Errorf("16 levels: %v", err)
	}
	// --set goes through the same check.
	e := Default()
	if err := e.Set("a=" + strings.Repeat("{b=", 20000) + "1" + strings.Repeat("}", 20000)); err == nil || !strings.Contains(err.Error(), "--set: a: arrays and inline tables nest deeper") {
		t.Errorf("--set: %v", err)
	}
}
