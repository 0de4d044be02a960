package experiments

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"qcnlab/algos"
	"qcnlab/model"
)

// ECM end to end: what the rate limiters of seed 003 section 3.3 do in a
// whole network, seen through a probe around each reaction point.

// probedRP counts what one ECM rate limiter does.
type probedRP struct {
	*algos.ECMReactionPoint
	gd, alpha, w  float64
	pagesPerFrame float64

	decreases     int // linear decreases (Fb < 0 on an active limiter, no Q bit)
	capped        int // of which Gd*|Fb| > alpha: alpha sets the step
	cappedPackets int // of which Gd*|Fb| > alpha with Fb counted in frames
	switches      int // associations moved from one CP to another
	reclaims      int
	restarts      int
	maxTmax       algos.Time
	minRestart    float64 // the lowest rate a restart after ECM(0,0) set
}

func (p *probedRP) Feedback(now algos.Time, fb algos.Feedback) {
	before := p.ECMReactionPoint.CPID()
	if p.State() == algos.ECMActive && !(fb.Qoff == 0 && fb.Qdelta == 0) && !fb.QSat {
		if fbv := -(fb.Qoff + p.w*fb.Qdelta); fbv < 0 {
			p.decreases++
			if -fbv*p.gd > p.alpha {
				p.capped++
			}
			if -fbv/p.pagesPerFrame*p.gd > p.alpha {
				p.cappedPackets++
			}
		}
	}
	p.ECMReactionPoint.Feedback(now, fb)
	if after := p.ECMReactionPoint.CPID(); before != 0 && after != 0 && after != before {
		p.switches++
	}
}

func (p *probedRP) Transmit(now algos.Time, bytes int, backlogEmpty bool) bool {
	changed := p.ECMReactionPoint.Transmit(now, bytes, backlogEmpty)
	if changed && p.State() == algos.ECMInactive {
		p.reclaims++
	}
	return changed
}

func (p *probedRP) Expire(now algos.Time) {
	timeout := p.State() == algos.ECMTimeout
	p.ECMReactionPoint.Expire(now)
	if timeout && p.State() == algos.ECMActive {
		p.restarts++
		p.minRestart = min(p.minRestart, p.Rate())
	}
	p.maxTmax = max(p.maxTmax, p.Tmax())
}

// ecmProbe is the probes of one run, in source order.
type ecmProbe []*probedRP

// runProbed runs ECM on the experiment with a probe on every rate limiter.
func runProbed(t testing.TB, e *Experiment) (model.Summary, ecmProbe) {
	t.Helper()
	sim, probe, end := newProbed(t, e)
	sim.Advance(end)
	return sim.Summary(), *probe
}

// newProbed builds the ECM simulation of the experiment with a probe on
// every rate limiter; the probe fills in as the model builds them.
func newProbed(t testing.TB, e *Experiment) (model.Sim, *ecmProbe, algos.Time) {
	t.Helper()
	cfg, err := e.Config("ecm")
	if err != nil {
		t.Fatal(err)
	}
	sc := *cfg.Scheme
	var probe ecmProbe
	sc.NewRP = func(env algos.RPEnv, v algos.Values) algos.ReactionPoint {
		p := &probedRP{ECMReactionPoint: algos.NewECMReactionPoint(env, v), gd: v["gd"], alpha: v["alpha"], w: v["w"],
			pagesPerFrame: env.FrameBytes / 64, minRestart: math.Inf(1)}
		probe = append(probe, p)
		return p
	}
	cfg.Scheme = &sc
	sim, err := model.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return sim, &probe, cfg.Duration
}

func (pr ecmProbe) sum(f func(*probedRP) int) int {
	n := 0
	for _, p := range pr {
		n += f(p)
	}
	return n
}

// TestECMReclaimWhenSourcesStop: a greedy source always has a frame queued
// behind its rate limiter, so reclaim (section 3.3) never fires; a source
// that stops while its limiter runs at line rate gives it back. Source 1
// stops at 10 ms while rate limited, source 0 then climbs back to C on the
// positive feedback of the emptied queue and stops at 25 ms. Sources of
// short flows alone give their limiters back between flows.
func TestECMReclaimWhenSourcesStop(t *testing.T) {
	const text = `name = "ecm-reclaim"
duration = "30ms"
warmup = "1ms"
algorithms = ["ecm"]
[network]
capacity = "10Gbps"
buffer = "150KB"
rtt = "100us"
[sources]
count = 2
%s
`
	e := mustParse(t, fmt.Sprintf(text, `[[sources.override]]
ids = [0]
stop = "25ms"
[[sources.override]]
ids = [1]
stop = "10ms"`))
	_, probe := runProbed(t, e)
	if probe[0].reclaims != 1 || probe[0].State() != algos.ECMInactive || probe[0].CPID() != 0 {
		t.Errorf("source 0 (stops at C): %d reclaims, %v at the end, want reclaimed", probe[0].reclaims, probe[0].State())
	}
	if probe[1].reclaims != 0 || probe[1].State() != algos.ECMActive || probe[1].Rate() >= 10e9 {
		t.Errorf("source 1 (stops rate limited): %d reclaims, %v at %g bps, want still active below C",
			probe[1].reclaims, probe[1].State(), probe[1].Rate())
	}
	// Greedy sources: never reclaimed.
	e = mustParse(t, fmt.Sprintf(text, ""))
	_, probe = runProbed(t, e)
	if n := probe.sum(func(p *probedRP) int { return p.reclaims }); n != 0 {
		t.Errorf("greedy sources: %d reclaims", n)
	}
	for i, p := range probe {
		if p.State() != algos.ECMActive {
			t.Errorf("greedy source %d: %v at the end", i, p.State())
		}
	}
	// Short flows only: a source whose flows are all sent has nothing
	// queued, and its limiter goes once it is back at line rate.
	e = mustParse(t, fmt.Sprintf(text, `[traffic]
long_flows = 0
short_flow_rate = 2000
short_flow_sizes = "1MB"`))
	sum, probe := runProbed(t, e)
	if n := probe.sum(func(p *probedRP) int { return p.reclaims }); n == 0 {
		t.Errorf("short flows: no reclaim (%d restarts, %d decreases, flows %+v)", probe.sum(func(p *probedRP) int { return p.restarts }),
			probe.sum(func(p *probedRP) int { return p.decreases }), sum.Flows)
	}
}

// The benchmarks below are measurements, not speed tests: run one with
//
//	go test ./experiments -run '^$' -bench BenchmarkECM -benchtime 1x
//
// and read the reported metrics. The numbers quoted in the built-ins'
// descriptions and the ECM parameter docs come from them.

// BenchmarkECMFamilyDumbbellDecreases measures how many of ECM's linear
// decreases the alpha cap sets in family-dumbbell, with Fb in 64-byte pages
// (section 3.2) and as it would be with Fb in frames, N-AIMD's unit.
func BenchmarkECMFamilyDumbbellDecreases(b *testing.B) {
	e, err := Builtin("family-dumbbell")
	if err != nil {
		b.Fatal(err)
	}
	for range b.N {
		_, probe := runProbed(b, e)
		dec := float64(probe.sum(func(p *probedRP) int { return p.decreases }))
		b.ReportMetric(dec, "decreases")
		b.ReportMetric(float64(probe.sum(func(p *probedRP) int { return p.capped }))/dec, "capped_pages")
		b.ReportMetric(float64(probe.sum(func(p *probedRP) int { return p.cappedPackets }))/dec, "capped_frames")
	}
}

// BenchmarkECMBackOff measures the back-off of 100 line-rate sources on a
// 10 Gbps link with a 60 KB buffer, 100 us: the largest Tmax and the lowest
// restart rate any limiter reached, with section 3.3.2's bounds (the
// default) and without them (the pseudo-code).
func BenchmarkECMBackOff(b *testing.B) {
	for _, c := range []struct{ name, sets string }{
		{"bounded", ""},
		{"unbounded", "params.ecm.tmax_ceiling=1000s params.ecm.rmin_floor=0bps"},
		{"old-thresholds-unbounded", "params.ecm.tmax_ceiling=1000s params.ecm.rmin_floor=0bps params.ecm.q_eq=24KB params.ecm.q_mc=47KB params.ecm.q_sc=48KB"},
	} {
		b.Run(c.name, func(b *testing.B) {
			e := mustParse(b, `name = "ecm-back-off"
duration = "2s"
warmup = "200ms"
algorithms = ["ecm"]
[network]
capacity = "10Gbps"
buffer = "60KB"
rtt = "100us"
[sources]
count = 100
`)
			for _, s := range strings.Fields(c.sets) {
				if err := e.Set(s); err != nil {
					b.Fatal(err)
				}
			}
			for range b.N {
				sum, probe := runProbed(b, e)
				var tmax algos.Time
				low := math.Inf(1)
				for _, p := range probe {
					tmax, low = max(tmax, p.maxTmax), min(low, p.minRestart)
				}
				q := sum.Bottlenecks[0]
				b.ReportMetric(tmax.Seconds()*1e3, "max_tmax_ms")
				b.ReportMetric(low/1e3, "min_restart_kbps")
				b.ReportMetric(float64(probe.sum(func(p *probedRP) int { return p.restarts })), "restarts")
				b.ReportMetric(q.Utilization, "utilization")
				b.ReportMetric(q.QueueMean/1e3, "queue_KB")
				b.ReportMetric(q.QueueStd/1e3, "queue_std_KB")
				b.ReportMetric(float64(q.Drops), "drops")
			}
		})
	}
}

// BenchmarkECMParkingLotSwitches measures how often the long flows of
// ecm-parking-lot (sources 0 and 1), congested at both links, move their
// association from one CP to the other (section 3.3: "the filter will
// settle its association with the prevailing one"): the fewest and most
// switches per second in any half second of the run, seeds 1-3, and the
// switches of the one-link flows (none possible).
func BenchmarkECMParkingLotSwitches(b *testing.B) {
	e, err := Builtin("ecm-parking-lot")
	if err != nil {
		b.Fatal(err)
	}
	for range b.N {
		fewest, most, short := math.Inf(1), 0.0, 0
		for seed := uint64(1); seed <= 3; seed++ {
			e.Seed = seed
			sim, probe, end := newProbed(b, e)
			const step = 500 * algos.Millisecond
			last := make([]int, 2)
			for t := step; t <= end; t += step {
				sim.Advance(t)
				for i, p := range (*probe)[:2] {
					rate := float64(p.switches-last[i]) / step.Seconds()
					fewest, most, last[i] = min(fewest, rate), max(most, rate), p.switches
				}
			}
			short += (*probe)[2].switches + (*probe)[3].switches
		}
		b.ReportMetric(fewest, "long_fewest_switches/s")
		b.ReportMetric(most, "long_most_switches/s")
		b.ReportMetric(float64(short), "short_switches")
	}
}
