package experiments

import (
	"strings"
	"testing"
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
