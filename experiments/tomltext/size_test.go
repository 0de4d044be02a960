package tomltext

import (
	"strings"
	"testing"
)

// The key that takes the most of a saved text: an array of tables counts
// whole, with its elements; a multi-line string counts for its key.
func TestLargestKey(t *testing.T) {
	flows := strings.Repeat("[[flows]]\nfrom = 1\nto = 2\n\n", 3)
	text := "name = \"x\"\ndescription = \"\"\"\nab = cd\n[not] a header\"\"\"\n\n[network]\ncapacity = \"10Gbps\"\n" + flows +
		"[sweep]\n\"network.rtt\" = [\"100us\", \"200us\"]\n"
	for _, c := range []struct {
		text string
		want Share
	}{
		{text, Share{Key: "flows", Bytes: len(flows), Elements: 3}},
		{text + "[params.qcn]\nw = 2.0  # " + strings.Repeat("y", 200) + "\n", Share{Key: "params.qcn.w", Bytes: 212}},
		{strings.Replace(text, "ab = cd", strings.Repeat("z", 100), 1), Share{Key: "description", Bytes: 17 + 101 + 20}},
		{strings.Replace(text, `"200us"`, strings.Repeat(`"1us", `, 20), 1), Share{Key: "sweep.network.rtt", Bytes: 34 + 7*20 - 6}},
	} {
		if got := Largest(c.text); got != c.want {
			t.Errorf("Largest(%q) = %+v, want %+v", c.text, got, c.want)
		}
	}
	key, msg := Oversize(text, 10)
	if key != "flows" || !strings.HasPrefix(msg, "takes 81 bytes (3 of them) of the 210 bytes") {
		t.Errorf("Oversize: %s: %s", key, msg)
	}
}
