package experiments

import (
	"reflect"
	"strings"
	"testing"

	"qcnlab/algos"
	"qcnlab/model"
)

// parkingLotText is seed 004's figure 4: sources 0 and 1 cross both links,
// source 2 only the first, source 3 only the second.
const parkingLotText = `
name = "pl"
duration = "200ms"
warmup = "100ms"
algorithms = ["qcn"]
[network]
topology = "parking_lot"
hop_delay = "50us"
[sources]
count = 4
[[sources.override]]
ids = [2]
path = [0]
[[sources.override]]
ids = [3]
path = [1]
[params.qcn]
q_eq = "33KB"
`

func TestParkingLotExperiment(t *testing.T) {
	e := mustParse(t, parkingLotText)
	cfg, err := e.Config("qcn")
	if err != nil {
		t.Fatal(err)
	}
	if len(cfg.Links) != 2 || cfg.Links[0].Delay != 50*algos.Microsecond || cfg.Links[1].Delay != 0 ||
		cfg.Links[1].Capacity != 10e9 || cfg.Links[1].Buffer != 150e3 {
		t.Errorf("links %+v", cfg.Links)
	}
	paths := [][]int{{0, 1}, {0, 1}, {0}, {1}}
	for i, s := range cfg.Sources {
		if !reflect.DeepEqual(s.Path, paths[i]) {
			t.Errorf("source %d path %v, want %v", i, s.Path, paths[i])
		}
	}
	assertRoundTrip(t, e) // its batch: TestParkingLotBatch
}

func TestTopologyErrors(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"[network]\nlinks = 2\n", "bad.toml:2: network.links: a dumbbell has one congestible link"},
		{"[network]\ntopology = \"ring\"\n", "bad.toml:2: network.topology: \"ring\" is not available"},
		{"model = \"fluid\"\n[network]\ntopology = \"parking_lot\"\n", "network.links: the fluid model has one bottleneck"},
		{"[network]\ntopology = \"parking_lot\"\n[sources]\npath = [1, 0]\n", "bad.toml:4: sources.path: [1 0] is not a run of consecutive links from 0 to 1"},
		{"[network]\ntopology = \"parking_lot\"\nlinks = 3\n[[sources.override]]\nids = [0]\npath = [2, 3]\n", "bad.toml:6: sources.override[0].path: [2 3] is not a run"},
	} {
		_, err := Parse("bad.toml", []byte(c.text))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want %q", c.text, err, c.want)
		}
	}
}

// cpidRecorder notes the congestion point a reaction point is associated
// with after each feedback, and checks the association rule of seeds 003
// and 004: an increase is honoured only from the associated congestion point.
type cpidRecorder struct {
	algos.ReactionPoint
	t        *testing.T
	increase func(algos.Feedback) bool // the feedback asks for a higher rate
	at       []algos.Time
	cpid     []int
	foreign  int // increases that came from a congestion point not associated
}

func (r *cpidRecorder) Feedback(now algos.Time, fb algos.Feedback) {
	before, rate := r.ReactionPoint.CPID(), r.ReactionPoint.Rate()
	r.ReactionPoint.Feedback(now, fb)
	if r.increase(fb) && before != 0 && fb.CPID != before {
		r.foreign++
		if after := r.ReactionPoint.Rate(); after > rate {
			r.t.Errorf("rate rose from %g to %g on an increase from CP %d while associated with CP %d", rate, after, fb.CPID, before)
		}
	}
	r.at = append(r.at, now)
	r.cpid = append(r.cpid, r.ReactionPoint.CPID())
}

// share is the fraction of the feedback in [from, to) after which the
// reaction point was associated with cpid.
func (r *cpidRecorder) share(cpid int, from, to algos.Time) float64 {
	n, hit := 0, 0
	for i, t := range r.at {
		if t >= from && t < to {
			n++
			if r.cpid[i] == cpid {
				hit++
			}
		}
	}
	if n == 0 {
		return 0
	}
	return float64(hit) / float64(n)
}

// TestAssociationOnAParkingLot exercises ECM's and DSM's CPID association
// end to end (seed 003 section 3.3, seed 004 section IV-D): two long flows
// cross both links of a parking lot; a third flow makes the first link the
// bottleneck for the first second, a fourth the second link after it.
// Neither scheme may raise a source's rate on an increase from a congestion
// point it is not associated with. ECM filters at the switch too (positive
// messages only for frames tagged with the CP's own CPID), so such messages
// reach a source only when it was re-associated while the reply was on its
// way, and its long flows follow the bottleneck. DSM's congestion points
// send to every sampled frame, so the source's rule does the filtering; and
// since every decrease re-associates, its long flows do not settle.
func TestAssociationOnAParkingLot(t *testing.T) {
	e := mustParse(t, `
name = "association"
duration = "2s"
warmup = "200ms"
algorithms = ["ecm", "dsm"]
[network]
topology = "parking_lot"
hop_delay = "50us"
[sources]
count = 4
[[sources.override]]
ids = [2]
path = [0]
stop = "1s"
[[sources.override]]
ids = [3]
path = [1]
start = "1s"
[output]
sample_interval = "100us"
`)
	increase := map[string]func(algos.Feedback) bool{
		"ecm": func(fb algos.Feedback) bool {
			return !(fb.Qoff == 0 && fb.Qdelta == 0) && -(fb.Qoff+2*fb.Qdelta) > 0 // w = 2
		},
		"dsm": func(fb algos.Feedback) bool { return fb.Fb > 0 },
	}
	for _, name := range []string{"ecm", "dsm"} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			cfg, err := e.Config(name)
			if err != nil {
				t.Fatal(err)
			}
			if name == "ecm" && cfg.Params["w"] != 2 {
				t.Fatalf("the test reads ECM's feedback with w = 2, not %g", cfg.Params["w"])
			}
			var rps []*cpidRecorder
			sc := *cfg.Scheme
			inner := sc.NewRP
			sc.NewRP = func(env algos.RPEnv, v algos.Values) algos.ReactionPoint {
				r := &cpidRecorder{ReactionPoint: inner(env, v), t: t, increase: increase[name]}
				rps = append(rps, r)
				return r
			}
			cfg.Scheme = &sc
			sim, err := model.NewPacket(cfg)
			if err != nil {
				t.Fatal(err)
			}
			sim.Run()
			ms := algos.Millisecond
			foreign, total := 0, 0
			for i, long := range rps[:2] {
				first, second := long.share(1, 300*ms, 1000*ms), long.share(2, 1300*ms, 2000*ms)
				t.Logf("source %d: associated with CP 1 %.2f of the time in 0.3-1 s, with CP 2 %.2f in 1.3-2 s; %d foreign increases",
					i, first, second, long.foreign)
				if name == "ecm" && (first < 0.8 || second < 0.8) {
					t.Errorf("association did not follow the bottleneck: CP 1 %.2f, then CP 2 %.2f", first, second)
				}
				foreign += long.foreign
				total += len(long.at)
			}
			switch {
			case name == "ecm" && foreign*1000 > total:
				t.Errorf("%d of %d ECM messages were increases from CPs the source is not associated with", foreign, total)
			case name == "dsm" && foreign == 0:
				t.Error("no increase from a foreign CP reached a source: the rule was not exercised")
			}
			// The short flows only ever meet their own link.
			if s := rps[2].share(1, 0, 1000*ms); s != 1 {
				t.Errorf("source 2 associated with CP 1 only %.2f of the time", s)
			}
		})
	}
}

// One bottleneck is the topology's word: a dumbbell's sources share one
// link, a parking lot's and a fabric's do not.
func TestOneBottleneck(t *testing.T) {
	for topology, want := range map[string]bool{"dumbbell": true, "parking_lot": false, "leaf_spine": false, "fat_tree": false, "custom": false} {
		e := Default()
		e.Network.Topology = topology
		if got := e.OneBottleneck(); got != want {
			t.Errorf("%s: one bottleneck %v, want %v", topology, got, want)
		}
	}
}
