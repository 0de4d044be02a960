package experiments

import (
	"strings"
	"testing"
)

// An error quotes a bounded part of what it blames: a path of 100,000
// links, a key or a value of 500,000 characters, an override naming a
// missing source 100,000 times each printed as much again. What was cut
// is counted, and a value keeps its ends (its unit).
func TestErrorsAreBounded(t *testing.T) {
	for _, c := range []struct{ name, text, want string }{
		{"path", "duration = \"1ms\"\n[sources]\npath = [" + strings.Repeat("0, ", 100000) + "0]\n",
			"p.toml:3: sources.path: [0 0 0 0 0 0 0 0 0 0 ... (99991 more)] is not a run of consecutive links"},
		{"key", "duration = \"1ms\"\n" + strings.Repeat("a", 500000) + " = 1\n",
			"p.toml:2: " + strings.Repeat("a", 200) + "... (499800 more bytes): unknown key"},
		{"value", "duration = \"1ms\"\n[network]\ncapacity = \"" + strings.Repeat("9", 500000) + "Gbps\"\n",
			`p.toml:3: network.capacity: "99999999999999999999…9999999999999999Gbps" (500004 characters) is not a rate`},
		{"text", "duration = \"1ms\"\n[network]\ncapacity = \"" + strings.Repeat("x", 500000) + "\"\n",
			`(500000 characters) is not a rate`},
		{"ids", "duration = \"1ms\"\n[sources]\ncount = 2\n[[sources.override]]\nids = [" + strings.Repeat("5, ", 100000) + "0]\nrtt = \"1ms\"\n",
			"p.toml:5: sources.override[0].ids: source 5 does not exist (sources are 0 to 1)"},
	} {
		_, err := Parse("p.toml", []byte(c.text))
		if err == nil || len(err.Error()) > 2000 || !strings.Contains(err.Error(), c.want) {
			n := 0
			if err != nil {
				n = len(err.Error())
			}
			t.Errorf("%s: an error of %d bytes: %.300v..., want %.300q", c.name, n, err, c.want)
		}
	}
}

// A value below a parameter's unit is written with an exponent in an
// error, not as a decimal of 300 digits that the workbench cuts before the
// reason.
func TestTinyValueErrorReadable(t *testing.T) {
	_, err := Parse("m.toml", []byte("duration = \"1ms\"\n[params.dsm]\nmin_rate = \"1e-300bps\"\n"))
	if want := "m.toml:3: params.dsm.min_rate: 1e-300bps is below the minimum 1bps"; err == nil || err.Error() != want {
		t.Errorf("%.200v, want %s", err, want)
	}
}
