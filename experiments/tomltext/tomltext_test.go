package tomltext

import (
	"testing"

	"github.com/BurntSushi/toml"
)

func TestWhereAKeyIs(t *testing.T) {
	text := "name = \"x\"\n[network]\ncapacity = \"10Gbps\"\n[[network.link]]\na = \"h0\"\n[[network.link]]\na = \"h1\"\nb = {c = 1}\n"
	if got := KeyLines(text, []toml.Key{{"name"}, {"network"}, {"network", "capacity"}}); got["network.capacity"][0] != 3 || got["name"][0] != 1 {
		t.Errorf("KeyLines: %v", got)
	}
	if got := ElementLine(text, "network.link", 1, "network.link.a"); got != 7 {
		t.Errorf("ElementLine: %d, want 7", got)
	}
	if !DefinesKey("b = {c = 1}", "c") || DefinesKey("# a = 1", "a") {
		t.Error("DefinesKey")
	}
	if d := EditDistance("network.capacty", "network.capacity"); d != 1 {
		t.Errorf("EditDistance %d", d)
	}
	if got := Describe("1MB"); got != `a size ("1MB")` {
		t.Errorf("Describe: %s", got)
	}
	if !NoKeys("# only\n\n") || NoKeys("a = 1") {
		t.Error("NoKeys")
	}
}
