package experiments

import (
	"strings"
	"testing"
)

// Every value the decoder cannot read is listed, by line, whichever it met
// first: it stops at one, picked in no fixed order, so a file with three
// missing units said one of them, not always the same.
func TestEveryValueErrorIsListedByLine(t *testing.T) {
	file := `name = "bad"
duration = "5"
[network]
capacity = "10"
buffer = "5"
rtt = "x"
[sources]
count = 2.5
[[sources.override]]
ids = [1]
line_rate = "1Gbps"
[[sources.override]]
ids = [2]
line_rate = "7"
`
	want := strings.Join([]string{
		`bad.toml:2: duration: duration "5" needs a unit, for example "500us"`,
		`bad.toml:4: network.capacity: rate "10" needs a unit, for example "10Gbps"`,
		`bad.toml:5: network.buffer: size "5" needs a unit, for example "64KB"`,
		`bad.toml:6: network.rtt: "x" is not a duration (for example "500us")`,
		`bad.toml:8: sources.count: a whole number, not 2.5`,
		`bad.toml:14: sources.override[1].line_rate: rate "7" needs a unit, for example "10Gbps"`,
	}, "\n")
	for range 20 { // the decoder's order varies from one call to the next
		_, err := Parse("bad.toml", []byte(file))
		if err == nil || err.Error() != want {
			t.Fatalf("got\n%v\nwant\n%s", err, want)
		}
	}
	// A syntax error is the parser's alone; a --set names its one value.
	if _, err := Parse("bad.toml", []byte("[network]\ncapacity = \"10\"\n[network\n")); err == nil || strings.Count(err.Error(), "\n") > 0 {
		t.Errorf("a syntax error: %v", err)
	}
	e := Default()
	if err := e.Set("network.capacity=10"); err == nil || err.Error() != `--set: network.capacity: rate "10" needs a unit, for example "10Gbps"` {
		t.Errorf("--set: %v", err)
	}
}
