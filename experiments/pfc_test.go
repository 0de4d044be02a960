package experiments

import (
	"strings"
	"testing"
)

func TestPFCErrorsNameFileLineAndKey(t *testing.T) {
	for _, c := range []struct{ name, text, want string }{
		{"xon above xoff", "[network]\nbuffer = \"1MB\"\npfc = true\npfc_xoff = \"300KB\"\npfc_xon = \"300KB\"\n",
			"bad.toml:5: network.pfc_xon: XON 300000 B must be below XOFF 300000 B"},
		{"xoff in the headroom", "[network]\nbuffer = \"1MB\"\npfc = true\npfc_xoff = \"900KB\"\n",
			"bad.toml:4: network.pfc_xoff: XOFF 900000 B is above port 0's buffer (1000000 B) less its headroom"},
		{"buffer too small", "[network]\npfc = true\n",
			"bad.toml:2: network.pfc: port 0's buffer (150000 B) cannot hold its PFC headroom"},
		{"thresholds without pfc", "[network]\npfc_xoff = \"100KB\"\n",
			"bad.toml:2: network.pfc_xoff: set network.pfc = true"},
		{"fluid", "model = \"fluid\"\n[network]\nbuffer = \"1MB\"\npfc = true\n",
			"bad.toml:4: network.pfc: the fluid model has no PFC"},
	} {
		_, err := Parse("bad.toml", []byte(c.text))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", c.name, err, c.want)
		}
	}
}
