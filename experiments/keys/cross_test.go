package keys

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"qcnlab/algos"
	"qcnlab/units"
)

// crossProblems runs one cross-key rule on a file.
func crossProblems(c Cross, f File) []string {
	var out []string
	c.Check(f, func(key, format string, args ...any) { out = append(out, key+": "+fmt.Sprintf(format, args...)) })
	return out
}

// Each cross-key rule fires on the keys it weighs, under one of them, and
// is silent once the key that makes the problem is changed: a rule that
// read another key than its case sets would miss the case, or stay loud
// after the fix.
func TestCrossRulesReadTheirKeys(t *testing.T) {
	ms := units.Duration(algos.Millisecond)
	cases := map[string][]struct {
		bad  file
		fix  file // bad with these keys changed: the rule is silent
		want string
	}{
		"seed 002's convergence model against the sources": {
			{file{"model": "convergence", "sources.count": 3}, file{"sources.count": 2}, "model: seed 002's convergence model is for 2 sources, not 3"},
			{file{"model": "convergence", "sources.override[0].stop": ms}, file{"model": "packet"}, "model: seed 002's convergence model has both sources sending throughout"},
			{file{"model": "convergence", "sources.start": ms}, file{"sources.start": units.Duration(0)}, "model: seed 002's convergence model has both sources sending throughout"},
			{file{"model": "convergence", "traffic.long_flows": 2}, file{"traffic.long_flows": 1}, "model: seed 002's convergence model has one greedy flow per source"},
			{file{"model": "convergence", "network.pfc": true}, file{"network.pfc": false}, "model: seed 002's convergence model has no PFC"},
		},
		"a fabric's model and traffic": {
			{file{"traffic.long_flows": 2, "model": "packet"}, file{"traffic.long_flows": 1}, "traffic.long_flows: a fabric's flows are [traffic] pattern"},
			{file{"model": "fluid"}, file{"model": "packet"}, `network.topology: the fluid model has one bottleneck; a fabric needs model = "packet"`},
		},
		"a fabric's pattern and [[flows]] against its hosts": {
			{file{"traffic.flow_size": "x"}, file{"traffic.flow_size": "1MB"}, `traffic.flow_size: "x" is not "greedy" or a size`},
			{file{"traffic.pattern": "incast", "traffic.incast_senders": 3, "traffic.incast_to": 16}, file{"traffic.incast_to": 15}, "traffic.incast_to: host 16 is out of range: the topology has hosts 0 to 15"},
			{file{"traffic.pattern": "incast", "traffic.incast_from": []int{1, 2}, "traffic.incast_to": 2}, file{"traffic.incast_to": 3}, "traffic.incast_from: host 2 is the incast's receiver"},
			{file{"traffic.pattern": "incast", "traffic.incast_senders": 2, "traffic.incast_from": []int{1}}, file{"traffic.incast_from": []int(nil)}, "traffic.incast_senders: give incast_senders"},
			{file{"traffic.pattern": "incast"}, file{"traffic.incast_senders": 2}, "traffic.incast_senders: missing: an incast needs"},
			{file{"traffic.pattern": "incast", "traffic.incast_senders": 16}, file{"traffic.incast_senders": 15}, "traffic.incast_senders: 16: from 1 to 15 senders on 16 hosts"},
			{file{"traffic.incast_jitter": ms}, file{"traffic.pattern": "incast", "traffic.incast_senders": 2}, `traffic.incast_jitter: applies to pattern = "incast"`},
			{file{"traffic.load": 11.0}, file{"traffic.load": 0.5}, "traffic.load: must be a share of the host links' capacity"},
			{file{"traffic.load": 0.5, "traffic.short_flow_rate": 10.0}, file{"traffic.short_flow_rate": 0.0}, "traffic.load: give the short flows as load or as short_flow_rate"},
			{file{"flows[0].to": 1}, file{"flows[0].from": 0}, "flows[0].from: missing: the host the flow starts at"},
			{file{"flows[0].from": 1}, file{"flows[0].to": 0}, "flows[0].to: missing: the host the flow goes to"},
			{file{"flows[0].from": 1, "flows[0].to": 1}, file{"flows[0].to": 2}, "flows[0].to: a flow from host 1 to itself"},
			{file{"flows[0].from": 1, "flows[0].to": 20}, file{"flows[0].to": 2}, "flows[0].to: host 20 is out of range"},
			{file{"flows[0].from": 1, "flows[0].to": 2, "flows[0].size": "x"}, file{"flows[0].size": "greedy"}, `flows[0].size: "x" is not "greedy"`},
			{file{"flows[0].from": 1, "flows[0].to": 2, "flows[0].start": 2 * ms, "flows[0].stop": ms}, file{"flows[0].stop": 3 * ms}, "flows[0].stop: 1ms is not after its start 2ms"},
			{file{"traffic.pattern": "all_to_all", "hosts": 1001}, file{"hosts": 1000}, "traffic.pattern: 1001000 flows, each with its own rate limiter"},
			{file{"traffic.pattern": "none"}, file{"traffic.load": 0.5}, "traffic.pattern: the fabric has no flows"},
		},
		"capacity changes against the model, the run and the links": {
			{file{"model": "fluid", "network.changes[0].at": ms, "network.changes[0].capacity": units.Rate(1e9)}, file{"model": "packet"}, `network.changes: the fluid model has a fixed capacity`},
			{file{"network.changes[0].capacity": units.Rate(1e9)}, file{"network.changes[0].at": ms}, "network.changes[0].at: missing: when the capacity changes"},
			{file{"network.changes[0].at": 2 * units.Duration(algos.Second), "network.changes[0].capacity": units.Rate(1e9)}, file{"network.changes[0].at": ms}, "network.changes[0].at: 2s is not before the end of the run (1s)"},
			{file{"network.changes[0].at": ms}, file{"network.changes[0].capacity": units.Rate(1e9)}, "network.changes[0].capacity: missing: the rate served"},
			{file{"network.changes[0].at": ms, "network.changes[0].capacity": units.Rate(0)}, file{"network.changes[0].capacity": units.Rate(1e9)}, "network.changes[0].capacity: must be positive"},
			{file{"network.changes[0].at": ms, "network.changes[0].capacity": units.Rate(1e9), "network.changes[0].link": 4}, file{"ports": 5}, "network.changes[0].link: link 4 does not exist (links are 0 to 3)"},
		},
		"[transport] against the schemes": {
			{file{"transport.recovery": "none", "transport.rto_min": ms}, file{"algorithms": []string{"dctcp"}}, "transport: applies to the ACK-clocked schemes"},
			{file{"transport.recovery": "bogus"}, file{"transport.recovery": "none"}, "transport: applies to the ACK-clocked schemes"},
			{file{"transport.ack_every": units.Bytes(3000)}, file{"transport.recovery": "go_back_n"}, "transport: applies to the ACK-clocked schemes"},
			{file{"transport.rto_min": ms, "algorithms": []string{"dctcp"}, "model": "fluid"}, file{"model": "packet"}, "transport: the transport is the packet model's"},
		},
		"classes of flows and of PFC": {
			{file{"network.classes": 2, "flows[0].class": 2}, file{"network.classes": 3}, "flows[0].class: class 2 is not one of the 2 classes"},
			{file{"network.classes": 2, "network.pfc": true}, file{"network.pfc_accounting": "ingress"}, "network.pfc_accounting: PFC per class is decided per link into a switch"},
			{file{"network.pfc_classes": []int{0}}, file{"network.pfc": true}, "network.pfc_classes: set network.pfc = true for them to apply"},
			{file{"network.pfc": true, "network.pfc_classes": []int{1}}, file{"network.pfc_classes": []int{0}}, "network.pfc_classes: class 1 is not one of the 1 classes"},
		},
		"the buffer model's keys": {
			{file{"network.buffer_model": "x"}, file{"network.buffer_model": "shared"}, `network.buffer_model: "x": must be "per_port" or "shared"`},
			{file{"network.buffer_model": "shared", "model": "fluid"}, file{"model": "packet"}, "network.buffer_model: the shared buffer is the packet model's"},
			{file{"network.switch_buffer": units.Bytes(1e6)}, file{"network.buffer_model": "shared"}, `network.switch_buffer: set network.buffer_model = "shared" for it to apply`},
			{file{"network.buffer_model": "shared", "network.switch_buffer": units.Bytes(2000)}, file{"network.switch_buffer": units.Bytes(3000)}, "network.switch_buffer: must be a whole number of bytes, at least 3KB"},
			{file{"network.buffer_model": "shared", "network.queue_reserve": units.Bytes(149e3)}, file{"network.queue_reserve": units.Bytes(147e3)}, "network.queue_reserve: switch 0's queues reserve 149000 B of its 150000 B shared buffer"},
			{file{"network.buffer_model": "shared", "network.dt_alpha": 65.0}, file{"network.dt_alpha": 64.0}, "network.dt_alpha: must be in (0, 64]"},
			{file{"network.buffer_model": "shared", "network.pfc": true}, file{"network.pfc_accounting": "ingress"}, "network.pfc_accounting: a shared buffer's PFC is decided per link"},
			{file{"network.buffer_model": "shared", "network.pfc": true, "network.pfc_accounting": "ingress", "network.pfc_threshold": "static"}, file{"network.pfc_threshold": "dynamic"}, "network.pfc_threshold: a shared buffer's PFC thresholds follow its free space"},
			{file{"network.buffer_model": "shared", "network.pfc": true, "network.pfc_accounting": "ingress", "network.pfc_xon": units.Bytes(1e3)}, file{"network.pfc": false}, "network.pfc_xoff: a shared buffer's PFC thresholds are dynamic"},
		},
		"RED per class against the classes and the schemes": {
			{file{"network.class_p_max": []float64{0.1}}, file{"network.class_p_max": []float64(nil)}, "network.class_p_max: applies with network.classes of 2 or more"},
			{file{"network.classes": 2, "network.class_k_max": []units.Bytes{1e3}, "algorithms": []string{"dcqcn"}}, file{"network.class_k_max": []units.Bytes{1e3, 2e3}}, "network.class_k_max: 1 values for 2 classes"},
			{file{"network.classes": 2, "network.class_k_min": []units.Bytes{1e3, 2e3}}, file{"algorithms": []string{"dcqcn"}}, "network.class_k_min: none of the algorithms marks by RED's"},
		},
		"control frames against the routing, PFC and the schemes": {
			{file{"network.control_frames": []string{"qcn"}}, file{"network.topology": "fat_tree"}, "network.control_frames: a chain's reverse ports are not simulated"},
			{file{"network.topology": "fat_tree", "network.routing": "spray", "network.control_frames": []string{"qcn"}}, file{"network.routing": "ecmp"}, "network.control_frames: control frames take the reverse of their flow's route"},
			{file{"network.topology": "fat_tree", "network.pfc": true, "network.control_frames": []string{"qcn"}}, file{"network.pfc_accounting": "ingress"}, "network.control_frames: control frames need PFC decided per link"},
			{file{"network.topology": "fat_tree", "network.control_frames": []string{"dcqcn"}}, file{"algorithms": []string{"dcqcn"}}, `network.control_frames: "dcqcn" is not one of the experiment's algorithms`},
		},
		"PFC's keys against each other and the model": {
			{file{"network.pfc_xoff": units.Bytes(1e3)}, file{"network.pfc": true}, "network.pfc_xoff: set network.pfc = true for the thresholds to apply"},
			{file{"network.pfc": true, "network.pfc_xon": units.Bytes(0.5)}, file{"network.pfc_xon": units.Bytes(1)}, "network.pfc_xon: must be a whole number of bytes, not negative"},
			{file{"network.pfc": true, "network.pfc_deadlock_after": -ms}, file{"network.pfc_deadlock_after": ms, "network.pfc_accounting": "ingress"}, "network.pfc_deadlock_after: must not be negative"},
			{file{"network.pfc_deadlock_after": ms, "network.pfc_accounting": "ingress"}, file{"network.pfc": true}, "network.pfc_deadlock_after: set network.pfc = true for the check to apply"},
			{file{"network.pfc": true, "network.pfc_deadlock_after": ms}, file{"network.pfc_accounting": "ingress"}, "network.pfc_deadlock_after: the deadlock check follows ingress accounting"},
			{file{"network.pfc": true, "network.pfc_threshold": "x"}, file{"network.pfc_threshold": "static"}, `network.pfc_threshold: "x": must be "static" or "dynamic"`},
			{file{"network.pfc_threshold": "static"}, file{"network.pfc": true}, "network.pfc_threshold: set network.pfc = true for the threshold to apply"},
			{file{"network.pfc": true, "network.pfc_threshold": "dynamic"}, file{"network.pfc_accounting": "ingress"}, "network.pfc_threshold: dynamic thresholds need ingress accounting"},
			{file{"network.pfc": true, "network.pfc_accounting": "ingress", "network.pfc_threshold": "dynamic", "network.pfc_xoff": units.Bytes(1e3)}, file{"network.pfc_threshold": "static"}, "network.pfc_threshold: dynamic thresholds are derived"},
			{file{"network.pfc_alpha": 0.5}, file{"network.buffer_model": "shared"}, `network.pfc_alpha: set network.pfc_threshold = "dynamic" for it to apply`},
			{file{"network.pfc_threshold": "dynamic", "network.pfc": true, "network.pfc_accounting": "ingress", "network.pfc_alpha": 17.0}, file{"network.pfc_alpha": 16.0}, "network.pfc_alpha: must be in (0, 16]"},
			{file{"network.pfc": true, "network.pfc_accounting": "x"}, file{"network.pfc_accounting": "egress"}, `network.pfc_accounting: "x": must be "ingress" or "egress"`},
			{file{"network.pfc_accounting": "egress"}, file{"network.pfc": true}, "network.pfc_accounting: set network.pfc = true for the accounting to apply"},
			{file{"network.pfc": true, "model": "fluid"}, file{"model": "packet"}, `network.pfc: the fluid model has no PFC; use model = "packet"`},
		},
	}
	for _, c := range CrossRules {
		for _, k := range c.Keys {
			if _, ok := Lookup(k); !ok {
				t.Errorf("%s: %s is not a key of the registry", c.Name, k)
			}
		}
		if len(cases[c.Name]) == 0 {
			t.Errorf("%s: no case shows what it refuses", c.Name)
		}
		for _, x := range cases[c.Name] {
			got := crossProblems(c, x.bad)
			if !slices.ContainsFunc(got, func(p string) bool { return strings.HasPrefix(p, x.want) }) {
				t.Errorf("%s: %v: %q, want %q", c.Name, x.bad, got, x.want)
			}
			for _, p := range got {
				key, _, _ := strings.Cut(p, ":")
				if !slices.Contains(c.Keys, Plain(key)) {
					t.Errorf("%s: %q blames a key it does not list", c.Name, p)
				}
			}
			fixed := file{}
			for k, v := range x.bad {
				fixed[k] = v
			}
			for k, v := range x.fix {
				fixed[k] = v
			}
			if got := crossProblems(c, fixed); slices.ContainsFunc(got, func(p string) bool { return strings.HasPrefix(p, x.want) }) {
				t.Errorf("%s: %v: still %q", c.Name, fixed, got)
			}
		}
	}
}
