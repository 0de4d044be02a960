package experiments

import (
	"context"
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

// The built-in's claim: the victim, which never crosses the primary
// bottleneck, loses most of its rate to pauses without congestion control
// and keeps it with QCN, and PFC drops nothing either way.
func TestPFCCongestionSpreadingBuiltin(t *testing.T) {
	e, err := Builtin("pfc-congestion-spreading")
	if err != nil {
		t.Fatal(err)
	}
	res, err := Execute(context.Background(), e, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range res.Runs {
		victim := r.Sources[1]
		for _, b := range r.Bottlenecks {
			if b.DropsTotal != 0 {
				t.Errorf("%s: %s dropped %d frames under PFC", r.Algorithm, b.Name, b.DropsTotal)
			}
		}
		switch r.Algorithm {
		case "none":
			if victim.ThroughputBps > 3e9 || victim.PausedFraction < 0.3 || r.Bottlenecks[1].PauseFrames == 0 {
				t.Errorf("none: victim %.2f Gbps, paused %.2f: no congestion spreading", victim.ThroughputBps/1e9, victim.PausedFraction)
			}
		case "qcn":
			if victim.ThroughputBps < 4.9e9 || victim.PausedFraction != 0 {
				t.Errorf("qcn: victim %.2f Gbps, paused %.2f", victim.ThroughputBps/1e9, victim.PausedFraction)
			}
		}
	}
}
