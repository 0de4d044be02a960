package experiments

import (
	"strings"
	"testing"

	"qcnlab/algos"
	"qcnlab/model"
)

func TestTransportErrorsNameFileLineAndKey(t *testing.T) {
	for _, c := range []struct{ name, text, want string }{
		{"recovery", "algorithms = [\"hpcc\"]\n[transport]\nrecovery = \"gbn\"\n",
			`bad.toml:3: transport.recovery: "gbn": must be one of ["go_back_n" "selective" "none"]`},
		{"ack_every", "algorithms = [\"dctcp\"]\n[transport]\nack_every = \"0B\"\n",
			"bad.toml:3: transport.ack_every: must be a whole number of bytes, at least 1"},
		{"rto_min", "algorithms = [\"swift\"]\n[transport]\nrto_min = \"0s\"\n",
			"bad.toml:3: transport.rto_min: must be a positive, finite duration"},
		{"no ACK-clocked scheme", "algorithms = [\"qcn\", \"dcqcn\"]\n[transport]\nack_every = \"3KB\"\n",
			"bad.toml:2: transport: applies to the ACK-clocked schemes"},
		{"rate-based, none, a timer no scheme reads", "algorithms = [\"qcn\"]\n[transport]\nrecovery = \"none\"\nrto_min = \"2ms\"\n",
			`the rate-based schemes run open loop unless transport.recovery is "go_back_n" or "selective"`},
		{"fluid", "model = \"fluid\"\nalgorithms = [\"qcn\"]\n[transport]\nrecovery = \"go_back_n\"\n",
			"transport: the transport is the packet model's"},
	} {
		_, err := Parse("bad.toml", []byte(c.text))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", c.name, err, c.want)
		}
	}
	// An explicit open loop is what the rate-based schemes do anyway.
	if _, err := Parse("open.toml", []byte("algorithms = [\"qcn\"]\n[transport]\nrecovery = \"none\"\n")); err != nil {
		t.Errorf("qcn with recovery = \"none\": %v", err)
	}
}

// [transport] reaches the model, and an experiment without it gives the
// defaults: go-back-N, every frame acknowledged, the default RTO.
func TestTransportConfig(t *testing.T) {
	e, err := Parse("t.toml", []byte("algorithms = [\"dctcp\", \"qcn\"]\n[transport]\nack_every = \"3KB\"\nrecovery = \"selective\"\nrto_min = \"200us\"\n"))
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := e.Config("dctcp")
	if err != nil {
		t.Fatal(err)
	}
	if want := (model.Transport{AckEvery: 3000, Recovery: model.RecoverySelective, RTOMin: 200 * algos.Microsecond, RateSchemes: true}); cfg.Transport != want {
		t.Errorf("transport %+v, want %+v", cfg.Transport, want)
	}
	d, err := Parse("d.toml", []byte("algorithms = [\"hpcc\"]\n"))
	if err != nil {
		t.Fatal(err)
	}
	if cfg, _ := d.Config("hpcc"); cfg.Transport != (model.Transport{}) || cfg.Transport.Recovery != model.RecoveryGoBackN {
		t.Errorf("default transport %+v", cfg.Transport)
	}
}

// The rate-based schemes run open loop unless a recovery is asked for:
// then QCN's flows run over the transport (RateSchemes), and an
// experiment of QCN alone with it is valid.
func TestTransportRateSchemesRecoverOnlyWhenAsked(t *testing.T) {
	for _, c := range []struct {
		text string
		want bool
	}{
		{"algorithms = [\"qcn\", \"dctcp\"]\n", false},
		{"algorithms = [\"qcn\", \"dctcp\"]\n[transport]\nrecovery = \"none\"\n", false},
		{"algorithms = [\"qcn\"]\n[transport]\nrecovery = \"go_back_n\"\n", true},
		{"algorithms = [\"qcn\"]\n[transport]\nrecovery = \"selective\"\nrto_min = \"2ms\"\n", true},
	} {
		e, err := Parse("t.toml", []byte(c.text))
		if err != nil {
			t.Fatalf("%q: %v", c.text, err)
		}
		cfg, err := e.Config("qcn")
		if err != nil {
			t.Fatal(err)
		}
		if cfg.Transport.RateSchemes != c.want {
			t.Errorf("%q: rate schemes over the transport %v, want %v", c.text, cfg.Transport.RateSchemes, c.want)
		}
	}
}

// A key refused by its own rule is not weighed against the others too: the
// cross-key rule would only echo the problem in other words.
func TestRefusedKeyIsNotWeighedAgain(t *testing.T) {
	e := Default()
	if err := e.Set(`transport.recovery="bogus"`); err != nil {
		t.Fatal(err)
	}
	err := e.Validate()
	if err == nil || !strings.Contains(err.Error(), `transport.recovery: "bogus": must be one of`) {
		t.Fatalf("bogus recovery: %v", err)
	}
	if strings.Contains(err.Error(), "applies to the ACK-clocked schemes") {
		t.Errorf("the cross-key rule echoed the refused key: %v", err)
	}
}
