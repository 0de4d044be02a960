package experiments

import (
	"strings"
	"testing"

	"qcnlab/algos"
)

// A fabric gets real clocks by default, a chain exact ones (the seeds'),
// and either takes the keys.
func TestClockDefaultsAndKeys(t *testing.T) {
	for _, c := range []struct {
		text   string
		ppm    float64
		jitter algos.Time
	}{
		{"seed = 1", 0, 0},
		{"[network]\nclock_ppm = 50\nswitch_jitter = \"100ns\"", 50, 100 * algos.Nanosecond},
		{"[network]\ntopology = \"fat_tree\"\ncapacity = \"10Gbps\"\nframe_size = \"1500B\"", 100, 1200 * algos.Nanosecond},
		{"[network]\ntopology = \"fat_tree\"\ncapacity = \"40Gbps\"\nframe_size = \"1000B\"\nclock_ppm = 0", 0, 200 * algos.Nanosecond},
	} {
		e, err := Parse("exp.toml", []byte(c.text))
		if err != nil {
			t.Fatalf("%q: %v", c.text, err)
		}
		cfg, err := e.Config(e.Algorithms[0])
		if err != nil {
			t.Fatal(err)
		}
		if cfg.ClockPPM != c.ppm || cfg.SwitchJitter != c.jitter {
			t.Errorf("%q: clock_ppm %g, switch_jitter %d ps; want %g, %d", c.text, cfg.ClockPPM, cfg.SwitchJitter, c.ppm, c.jitter)
		}
	}
	for _, c := range []struct{ text, want string }{
		{"[network]\nclock_ppm = -1", "exp.toml:2: network.clock_ppm: must be within 0 and 10000 ppm"},
		{"[network]\nswitch_jitter = \"1ms\"", "exp.toml:2: network.switch_jitter: must be within 0 and 10 us"},
	} {
		_, err := Parse("exp.toml", []byte(c.text))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: got %v, want %q", c.text, err, c.want)
		}
	}
}

// PFC is decided per ingress link on a fabric, per egress port on a chain,
// unless network.pfc_accounting says.
func TestPFCAccountingDefaultsAndKey(t *testing.T) {
	for _, c := range []struct {
		text    string
		ingress bool
	}{
		{"[network]\nbuffer = \"1MB\"\npfc = true", false},
		{"[network]\nbuffer = \"1MB\"\npfc = true\npfc_accounting = \"ingress\"", true},
		{"[network]\ntopology = \"fat_tree\"\npfc = true", true},
		{"[network]\ntopology = \"fat_tree\"\npfc = true\npfc_accounting = \"egress\"", false},
	} {
		e, err := Parse("exp.toml", []byte(c.text))
		if err != nil {
			t.Fatalf("%q: %v", c.text, err)
		}
		cfg, err := e.Config(e.Algorithms[0])
		if err != nil {
			t.Fatal(err)
		}
		if cfg.PFC == nil || cfg.PFC.Ingress != c.ingress {
			t.Errorf("%q: PFC %+v, want ingress %v", c.text, cfg.PFC, c.ingress)
		}
	}
	for _, c := range []struct{ text, want string }{
		{"[network]\npfc = true\npfc_accounting = \"both\"", `exp.toml:3: network.pfc_accounting: "both": must be "ingress" or "egress"`},
		{"[network]\npfc_accounting = \"ingress\"", "exp.toml:2: network.pfc_accounting: set network.pfc = true"},
	} {
		_, err := Parse("exp.toml", []byte(c.text))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: got %v, want %q", c.text, err, c.want)
		}
	}
}

// network.pfc_deadlock_after: 1 ms by default with ingress accounting,
// refused without PFC, with egress accounting, or negative.
func TestPFCDeadlockAfterKey(t *testing.T) {
	e, err := Parse("exp.toml", []byte("[network]\ntopology = \"fat_tree\"\npfc = true"))
	if err != nil {
		t.Fatal(err)
	}
	if cfg, err := e.Config(e.Algorithms[0]); err != nil || cfg.PFC.DeadlockAfter != algos.Millisecond {
		t.Errorf("default deadlock check after %v (%v), want 1 ms", cfg.PFC, err)
	}
	for _, c := range []struct{ text, want string }{
		{"[network]\npfc_deadlock_after = \"1ms\"", "exp.toml:2: network.pfc_deadlock_after: set network.pfc = true"},
		{"[network]\ntopology = \"fat_tree\"\npfc = true\npfc_deadlock_after = \"-1ms\"", `exp.toml:4: network.pfc_deadlock_after: duration "-1ms" must not be negative`},
		{"[network]\nbuffer = \"1MB\"\npfc = true\npfc_deadlock_after = \"1ms\"", "exp.toml:4: network.pfc_deadlock_after: the deadlock check follows ingress accounting"},
	} {
		_, err := Parse("exp.toml", []byte(c.text))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: got %v, want %q", c.text, err, c.want)
		}
	}
}

// network.pfc_threshold and network.pfc_alpha.
func TestPFCThresholdKeys(t *testing.T) {
	e, err := Parse("exp.toml", []byte("[network]\ntopology = \"fat_tree\"\npfc = true\npfc_threshold = \"dynamic\""))
	if err != nil {
		t.Fatal(err)
	}
	if cfg, err := e.Config(e.Algorithms[0]); err != nil || !cfg.PFC.Dynamic || cfg.PFC.Alpha != 0.125 {
		t.Errorf("dynamic: %+v (%v), want Alpha 1/8", cfg.PFC, err)
	}
	for _, c := range []struct{ text, want string }{
		{"[network]\ntopology = \"fat_tree\"\npfc = true\npfc_threshold = \"adaptive\"", `exp.toml:4: network.pfc_threshold: "adaptive": must be "static" or "dynamic"`},
		{"[network]\nbuffer = \"1MB\"\npfc = true\npfc_threshold = \"dynamic\"", "exp.toml:4: network.pfc_threshold: dynamic thresholds need ingress accounting"},
		{"[network]\ntopology = \"fat_tree\"\npfc = true\npfc_threshold = \"dynamic\"\npfc_xoff = \"50KB\"", "network.pfc_threshold: dynamic thresholds are derived"},
		{"[network]\ntopology = \"fat_tree\"\npfc = true\npfc_alpha = 0.5", "exp.toml:4: network.pfc_alpha: set network.pfc_threshold = \"dynamic\""},
		{"[network]\ntopology = \"fat_tree\"\npfc = true\npfc_threshold = \"dynamic\"\npfc_alpha = 0", "exp.toml:5: network.pfc_alpha: must be in (0, 16]"},
	} {
		_, err := Parse("exp.toml", []byte(c.text))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: got %v, want %q", c.text, err, c.want)
		}
	}
}
