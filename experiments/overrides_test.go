package experiments

import (
	"strings"
	"testing"
)

// Two [[sources.override]] entries that set one key of one source would
// leave the last to win without a word, as a key given twice in a table
// would; a source named twice in one entry is the same slip. Each is an
// error naming the file, the line and the key; overrides that set other
// keys of one source, or one key of other sources, are not.
func TestConflictingOverridesAreAnError(t *testing.T) {
	const head = "duration = \"1ms\"\n[sources]\ncount = 4\n"
	for _, c := range []struct{ text, want string }{
		{"[[sources.override]]\nids = [0]\nrtt = \"1ms\"\n[[sources.override]]\nids = [0]\nrtt = \"2ms\"\n",
			"o.toml:9: sources.override[1].rtt: source 0: sources.override[0].rtt sets it too"},
		{"[[sources.override]]\nids = [0, 1, 2]\nstart = \"1us\"\n[[sources.override]]\nids = [3, 2, 0]\nstart = \"2us\"\n",
			"o.toml:9: sources.override[1].start: sources 0, 2: sources.override[0].start sets it too"},
		{"[[sources.override]]\nids = [1]\nforward_delay = \"3us\"\n[[sources.override]]\nids = [1]\nrtt = \"20us\"\n",
			"o.toml:9: sources.override[1].rtt: source 1: sources.override[0].forward_delay sets it too"},
		{"[[sources.override]]\nids = [0, 0]\nstop = \"1ms\"\n",
			"o.toml:5: sources.override[0].ids: names source 0 twice"},
	} {
		_, err := Parse("o.toml", []byte(head+c.text))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v, want %q", c.text, err, c.want)
		}
	}
	ok := "[[sources.override]]\nids = [0, 1]\nline_rate = \"5Gbps\"\nrtt = \"20us\"\nforward_delay = \"5us\"\n" +
		"[[sources.override]]\nids = [1]\npath = [0]\n[[sources.override]]\nids = [2, 3]\nline_rate = \"2Gbps\"\n"
	if _, err := Parse("o.toml", []byte(head+ok)); err != nil {
		t.Errorf("overrides that set other keys or other sources: %v", err)
	}
}
