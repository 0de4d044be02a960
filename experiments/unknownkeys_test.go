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
