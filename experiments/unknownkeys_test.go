package experiments

import (
	"strings"
	"testing"
)

// A key written in the wrong table is named where it belongs, as a key
// misspelt by a letter gets "did you mean": the key of the same name in
// another table is the likely intent.
func TestKeyInTheWrongTableIsNamed(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"[sources]\nbuffer = \"10KB\"\n", `wrong.toml:2: sources.buffer: unknown key ("buffer" is a key of other tables: "network.buffer", "network.link.buffer")`},
		{"capacity = \"10Gbps\"\n", `wrong.toml:1: capacity: unknown key ("capacity" is a key of other tables: "network.capacity", `},
		{"[network]\nsample_interval = \"1us\"\n", `wrong.toml:2: network.sample_interval: unknown key ("sample_interval" is a key of another table: "output.sample_interval")`},
		{"[network]\ncapacty = \"1Gbps\"\n", `wrong.toml:2: network.capacty: unknown key (did you mean "network.capacity"?)`},
	} {
		_, err := Parse("wrong.toml", []byte(c.text))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v, want %s", c.text, err, c.want)
		}
	}
}

// An unknown scheme in [params] keeps its line, as every other key error
// does, when its name needs quotes or is written as a dotted key; the key
// is shown as the file would write it.
func TestUnknownSchemeKeepsItsLine(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"duration = \"1ms\"\n[params.\"qcn x\"]\nq_eq = \"1KB\"\n", `p.toml:2: params."qcn x": unknown algorithm "qcn x"`},
		{"duration = \"1ms\"\n[params]\n\"qnc\".q_eq = \"1KB\"\nqnc.w = 2\n", `p.toml:3: params.qnc: unknown algorithm "qnc"`},
		{"duration = \"1ms\"\n[params.qnc]\nq_eq = \"1KB\"\n", `p.toml:2: params.qnc: unknown algorithm "qnc"`},
		{"duration = \"1ms\"\n[params.qcn]\n\"q eq\" = \"1KB\"\n", `p.toml:3: params.qcn."q eq": qcn has no parameter "q eq"`},
	} {
		_, err := Parse("p.toml", []byte(c.text))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v, want %s", c.text, err, c.want)
		}
	}
}

// The table's own name as a key inside it gets no hint that it is a key of
// another table: network is a table, not a key to move the value to.
func TestTableNameInsideItGetsNoOtherTableHint(t *testing.T) {
	_, err := Parse("wrong.toml", []byte("[network]\nnetwork = 1\n"))
	if err == nil || err.Error() != "wrong.toml:2: network.network: unknown key" {
		t.Errorf("got %v", err)
	}
}
