package model

import (
	"math"
	"testing"

	"qcnlab/algos"
)

// records runs cfg and returns every flow record it made.
func records(t *testing.T, cfg Config) (*Packet, Summary, []FlowRecord) {
	t.Helper()
	var out []FlowRecord
	cfg.OnFlow = func(r *FlowRecord) { out = append(out, *r) }
	sim, err := NewPacket(cfg)
	if err != nil {
		t.Fatal(err)
	}
	sim.Run()
	return sim, sim.Summary(), out
}

// Every flow of a fabric gets one record, whatever became of it, and the
// records agree with the summary's counts.
func TestFlowRecordsOnePerFlow(t *testing.T) {
	cfg := fabric(noneScheme(t), fatTree4(t, 30e3), nil)
	cfg.Params = algos.Values{}
	cfg.Duration, cfg.Warmup = 5*ms, 1*ms
	sizes := FixedSize("300KB", 300e3)
	cfg.Fabric.Short = &ShortFlows{Rate: ShortFlowRate(0.6, 16, 10e9, sizes), Sizes: sizes}
	sim, sum, recs := records(t, cfg)
	ids := map[int64]bool{}
	count := map[FlowOutcome]int64{}
	var inWindow int64
	for _, r := range recs {
		if ids[r.ID] {
			t.Fatalf("flow %d recorded twice", r.ID)
		}
		ids[r.ID] = true
		if r.From == "" || r.To == "" || r.From == r.To || r.Size != 300e3 {
			t.Errorf("record %+v", r)
		}
		if r.InWindow {
			inWindow++
			count[r.Outcome]++
		}
		switch r.Outcome {
		case FlowCompleted:
			if r.Finish <= r.Start || r.Finish > cfg.Duration || r.Slowdown() < 1-1e-9 || r.PathCount != 1 {
				t.Errorf("completed %+v: slowdown %g", r, r.Slowdown())
			}
		default:
			if r.Finish != algos.Never || !math.IsNaN(r.FCT()) {
				t.Errorf("%v %+v", r.Outcome, r)
			}
		}
	}
	if int64(len(recs)) != sim.short.arrivals {
		t.Errorf("%d records of %d flows", len(recs), sim.short.arrivals)
	}
	fs := sum.Flows
	if inWindow != fs.Started || count[FlowCompleted] != fs.Completed || count[FlowLost] != fs.Lost ||
		count[FlowUnfinished] != fs.Unfinished || fs.Unfinished == 0 || fs.Lost == 0 {
		t.Errorf("records %v of %d; summary %+v", count, inWindow, fs)
	}
}

// The HPCC code's standalone FCT: a 15,000 B flow across a fat-tree's
// 6 links of 1 us at 10 Gbps is 2 x 6 us + 6 x 1.2 us + 12 us.
func TestHPCCIdealFCT(t *testing.T) {
	cfg := fabric(noneScheme(t), fatTree4(t, 150e3), []Flow{{From: 0, To: 15, Size: 15000}})
	cfg.Params = algos.Values{}
	_, _, recs := records(t, cfg)
	if len(recs) != 1 {
		t.Fatalf("%d records", len(recs))
	}
	r := recs[0]
	want := 2*6e-6 + 6*1.2e-6 + 12e-6
	if math.Abs(r.IdealHPCC-want) > 1e-12 || r.Outcome != FlowCompleted || r.ID != 0 || r.From != "h0" {
		t.Errorf("record %+v, want HPCC ideal %g", r, want)
	}
	// Alone, it takes its exact ideal: slowdown 1.
	if math.Abs(r.Slowdown()-1) > 1e-9 {
		t.Errorf("slowdown %g", r.Slowdown())
	}
}

// With a drain, the arrivals stop and the run ends when the last flow is
// over, long before its duration; without, it runs to the end.
func TestDrainEndsTheRun(t *testing.T) {
	for _, chain := range []bool{false, true} {
		var cfg Config
		if chain {
			cfg = shortOnly(t, 20e3, 100e3)
			cfg.Duration, cfg.Warmup = 50*ms, 0
			cfg.Traffic.Drain = Drain{MaxFlows: 50}
		} else {
			cfg = fabric(noneScheme(t), fatTree4(t, 150e3), nil)
			cfg.Params = algos.Values{}
			cfg.Duration = 50 * ms
			sizes := FixedSize("100KB", 100e3)
			cfg.Fabric.Short = &ShortFlows{Rate: ShortFlowRate(0.3, 16, 10e9, sizes), Sizes: sizes,
				Drain: Drain{Stop: 2 * ms}}
		}
		sim, sum, recs := records(t, cfg)
		fs := sum.Flows
		if !sim.Done() || sim.Now() >= 10*ms || sum.SimSeconds != sim.Now().Seconds() {
			t.Errorf("chain %v: ended at %v", chain, sim.Now())
		}
		if fs.Unfinished != 0 || fs.Completed+fs.Lost != fs.Started || int64(len(recs)) != fs.Started {
			t.Errorf("chain %v: %+v, %d records", chain, fs, len(recs))
		}
		if chain && fs.Started != 50 {
			t.Errorf("chain: %d flows, want 50", fs.Started)
		}
		for _, r := range recs {
			if !chain && r.Start >= 2*ms {
				t.Errorf("a flow arrived after the stop: %+v", r)
			}
			if chain && (r.From != "src0" || r.To != "sink") {
				t.Errorf("chain record %+v", r)
			}
		}
	}
}

// Configured buckets split the flows by size; pooling two runs sums their
// flows and takes the quantiles over both.
func TestFlowBucketsAndPooling(t *testing.T) {
	cfg := shortOnly(t, 2000, 0)
	cfg.Duration, cfg.Warmup = 20*ms, 0
	ws, err := Workload("websearch")
	if err != nil {
		t.Fatal(err)
	}
	cfg.Traffic.ShortSizes = ws
	cfg.FlowBuckets = []float64{10e3, 100e3, 1e6}
	_, a, recs := records(t, cfg)
	cfg.Seed = 2
	_, b, _ := records(t, cfg)
	fa := a.Flows
	if len(fa.BySize) != 4 || fa.BySize[0].MaxBytes != 10e3 || fa.BySize[3].MaxBytes != 0 || fa.BySize[3].MinBytes != 1e6 {
		t.Fatalf("buckets %+v", fa.BySize)
	}
	var small int64
	for _, r := range recs {
		if r.InWindow && r.Size <= 10e3 {
			small++
		}
	}
	if fa.BySize[0].Started != small || small == 0 {
		t.Errorf("bucket 0 started %d, records %d", fa.BySize[0].Started, small)
	}
	if !(fa.SlowdownP50 <= fa.SlowdownP95 && fa.SlowdownP95 <= fa.SlowdownP99 && fa.FCTP50 <= fa.FCTP95) {
		t.Errorf("quantiles out of order: %+v", fa)
	}
	same, ok := PoolFlows([]*FlowSummary{fa, fa})
	if !ok || same.Started != 2*fa.Started || same.FCTP99 != fa.FCTP99 || same.SlowdownP50 != fa.SlowdownP50 ||
		math.Abs(same.FCTMean-fa.FCTMean) > 1e-15 {
		t.Errorf("a run pooled with itself: %+v, want the quantiles of %+v", same, fa)
	}
	both, ok := PoolFlows([]*FlowSummary{fa, b.Flows})
	if !ok || both.Started != fa.Started+b.Flows.Started || both.BySize[2].Completed != fa.BySize[2].Completed+b.Flows.BySize[2].Completed {
		t.Errorf("pooled %+v", both)
	}
	lo, hi := min(fa.SlowdownP99, b.Flows.SlowdownP99), max(fa.SlowdownP99, b.Flows.SlowdownP99)
	if both.SlowdownP99 < lo/1.02 || both.SlowdownP99 > hi*1.02 {
		t.Errorf("pooled p99 %g outside [%g, %g]", both.SlowdownP99, lo, hi)
	}
	if _, ok := PoolFlows([]*FlowSummary{fa, {}}); ok {
		t.Error("a summary without histograms pooled")
	}
}
