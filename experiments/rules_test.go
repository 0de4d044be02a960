package experiments

import (
	"strings"
	"testing"

	"qcnlab/experiments/keys"
)

// Every key's rule (keys.Rule) reads the value the schema holds: a bad
// value set on a default experiment is refused under its key. A rule that
// read the wrong type would see no value and pass anything.
func TestEveryRuleReadsItsKey(t *testing.T) {
	for _, c := range []struct {
		topology string
		sets     []string
		want     string
	}{
		{"dumbbell", []string{`name=""`}, "name: must not be empty"},
		{"dumbbell", []string{"algorithms=[]"}, "algorithms: name at least one algorithm"},
		{"dumbbell", []string{`algorithms=["qcn","qcn"]`}, `algorithms: "qcn" is listed twice`},
		{"dumbbell", []string{`model="fluid"`, `algorithms=["dcqcn"]`}, "algorithms: dcqcn has no fluid model"},
		{"dumbbell", []string{"description=\"a\x1b[2J\""}, "description: holds a control character"},
		{"dumbbell", []string{"duration=0s"}, "duration: must be a positive, finite duration"},
		{"dumbbell", []string{"warmup=5s"}, "warmup: must be shorter than the duration"},
		{"dumbbell", []string{"network.capacity=0.5bps"}, "network.capacity: must be at least"},
		{"dumbbell", []string{"network.frame_size=10B"}, "network.frame_size: must be a whole number of bytes from 64B"},
		{"dumbbell", []string{"network.buffer=100B"}, "network.buffer: must be a whole number of bytes holding at least one frame"},
		{"dumbbell", []string{"network.rtt=never"}, "network.rtt: must be finite"},
		{"dumbbell", []string{"sources.count=0"}, "sources.count: must be at least 1"},
		{"dumbbell", []string{"sources.line_rate=0.5bps"}, "sources.line_rate: must be at least"},
		{"dumbbell", []string{"sources.initial_rate=0.5bps"}, "sources.initial_rate: must be at least"},
		{"dumbbell", []string{"output.sample_interval=0s"}, "output.sample_interval: must be a positive, finite duration"},
		{"dumbbell", []string{"output.rate_window=1ps"}, "output.rate_window: must be at least the sample interval"},
		{"dumbbell", []string{"output.fairness_threshold=2"}, "output.fairness_threshold: must be in (0, 1]"},
		{"dumbbell", []string{`output.phases=["5s"]`}, "output.phases: boundary 5s is not inside the run"},
		{"dumbbell", []string{"traffic.long_flows=2000"}, "traffic.long_flows: must be from 0 to 1000"},
		{"dumbbell", []string{"traffic.short_flow_rate=2e9"}, "traffic.short_flow_rate: must be from 0 to 1e9"},
		{"dumbbell", []string{"traffic.stop=5s", "traffic.short_flow_rate=10"}, "traffic.stop: must be in (0, duration]"},
		{"dumbbell", []string{"traffic.max_flows=0"}, "traffic.max_flows: must be from 1 to"},
		{"dumbbell", []string{"network.clock_ppm=-1"}, "network.clock_ppm: must be within 0 and"},
		{"dumbbell", []string{"network.switch_jitter=1s"}, "network.switch_jitter: must be within 0 and"},
		{"dumbbell", []string{"network.classes=9"}, "network.classes: 9: from 1 to"},
		{"dumbbell", []string{"network.classes=2", `network.scheduler="dwrr"`, "network.class_weights=[1]"}, "network.class_weights: 1 weights for 2 classes"},
		{"dumbbell", []string{"network.classes=2", "network.strict_classes=1"}, "network.strict_classes: set network.scheduler"},
		{"dumbbell", []string{"network.classes=2", "network.dwrr_quantum=0B"}, "network.dwrr_quantum: must be a whole number of bytes"},
		{"dumbbell", []string{"network.classes=2", "traffic.class=2"}, "traffic.class: class 2 is not one of the 2 classes"},
		{"dumbbell", []string{`algorithms=["dctcp"]`, "transport.ack_every=0B"}, "transport.ack_every: must be a whole number of bytes, at least 1"},
		{"dumbbell", []string{`algorithms=["dctcp"]`, "transport.rto_min=0s"}, "transport.rto_min: must be a positive, finite duration"},
		{"fat_tree", []string{`network.spray="random"`}, `network.spray: applies with network.routing = "spray"`},
		{"fat_tree", []string{"output.watch_ports=0"}, "output.watch_ports: 0: the time series follows at least 1 of the ports"},
	} {
		e := Default()
		e.Network.Topology = c.topology
		var err error
		for _, s := range c.sets {
			if err = e.Set(s); err != nil {
				break
			}
		}
		if err == nil {
			err = e.Validate()
		}
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s %q: %v, want %q", c.topology, c.sets, err, c.want)
		}
	}
}

// Every cross-key rule (keys.CrossRules) reads the keys the schema holds,
// elements of arrays of tables by their index: each case breaks one rule
// on a default experiment through --set, as a file would, and is refused
// under the key the rule blames. A rule that read a path the schema does
// not have would see no value and pass the case.
func TestEveryCrossRuleReadsItsKeys(t *testing.T) {
	cases := map[string]struct {
		topology string
		sets     []string
		want     string
	}{
		"seed 002's convergence model against the sources":          {"dumbbell", []string{`model="convergence"`, "sources.count=2", `sources.override=[{ids=[1], start="1ms"}]`}, "model: seed 002's convergence model has both sources sending throughout"},
		"a fabric's model and traffic":                              {"fat_tree", []string{"traffic.long_flows=2"}, "traffic.long_flows: a fabric's flows are [traffic] pattern"},
		"a fabric's pattern and [[flows]] against its hosts":        {"fat_tree", []string{`flows=[{from=1, to=1, start="2ms", stop="1ms"}]`}, "flows[0].to: a flow from host 1 to itself"},
		"capacity changes against the model, the run and the links": {"dumbbell", []string{`network.changes=[{at="1ms", capacity="1Gbps", link=1}]`}, "network.changes[0].link: link 1 does not exist (links are 0 to 0)"},
		"[transport] against the schemes":                           {"dumbbell", []string{`transport.rto_min="2ms"`}, "transport: applies to the ACK-clocked schemes"},
		"classes of flows and of PFC":                               {"fat_tree", []string{"network.classes=2", `flows=[{from=1, to=2, class=2}]`}, "flows[0].class: class 2 is not one of the 2 classes"},
		"the buffer model's keys":                                   {"dumbbell", []string{`network.buffer_model="shared"`, "network.queue_reserve=149KB"}, "network.queue_reserve: switch 0's queues reserve 149000 B"},
		"RED per class against the classes and the schemes":         {"dumbbell", []string{"network.classes=2", `network.class_k_min=["1KB", "2KB"]`}, "network.class_k_min: none of the algorithms marks by RED's"},
		"control frames against the routing, PFC and the schemes":   {"fat_tree", []string{`network.control_frames=["dcqcn"]`}, `network.control_frames: "dcqcn" is not one of the experiment's algorithms`},
		"PFC's keys against each other and the model":               {"fat_tree", []string{"network.pfc=true", `network.pfc_accounting="egress"`, `network.pfc_deadlock_after="1ms"`}, "network.pfc_deadlock_after: the deadlock check follows ingress accounting"},
	}
	for _, rule := range keys.CrossRules {
		c, ok := cases[rule.Name]
		if !ok {
			t.Errorf("%s: no case", rule.Name)
			continue
		}
		e := Default()
		e.Network.Topology = c.topology
		var err error
		for _, s := range c.sets {
			if err = e.Set(s); err != nil {
				break
			}
		}
		if err == nil {
			err = e.Validate()
		}
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %s %q: %v, want %q", rule.Name, c.topology, c.sets, err, c.want)
		}
	}
}
