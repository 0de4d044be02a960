package experiments_test

// The ACK-clocked schemes' built-ins quote what they measure; these tests
// run each one and check every number its description quotes.

import (
	"math"
	"strings"
	"testing"

	"qcnlab/experiments/batch"
	"qcnlab/model"
)

// groupMbps is the mean throughput, in Mb/s, of the sources [from, to) of
// the run, and their Jain index.
func groupMbps(r *batch.RunSummary, from, to int) (mean, jain float64) {
	var sum, sq float64
	for _, s := range r.Sources[from:to] {
		x := s.ThroughputBps / 1e6
		sum, sq = sum+x, sq+x*x
	}
	n := float64(to - from)
	return sum / n, sum * sum / (n * sq)
}

func TestDCTCPTwoBottlenecksBuiltin(t *testing.T) {
	e, runs := runBuiltin(t, "dctcp-two-bottlenecks")
	r := find(t, runs, "dctcp")
	mean := func(from, to int) func([]batch.RunSummary) float64 {
		return func([]batch.RunSummary) float64 { m, _ := groupMbps(r, from, to); return m }
	}
	jain := func([]batch.RunSummary) float64 {
		least := 1.0
		for _, g := range [][2]int{{0, 10}, {10, 30}, {30, 40}} {
			_, j := groupMbps(r, g[0], g[1])
			least = min(least, j)
		}
		return least
	}
	util := func(name string) func([]batch.RunSummary) float64 {
		return func([]batch.RunSummary) float64 { return 100 * port(t, r, name).Utilization }
	}
	checkQuoted(t, e, runs, []quoted{
		{"S1 48.3 Mbps each", 48.3, mean(0, 10), 0.001},
		{"S2 475.4 Mbps", 475.4, mean(10, 30), 0.0002},
		{"S3 51.7 Mbps", 51.7, mean(30, 40), 0.001},
		{"at least 0.999", 0.9995, jain, 0.0005},
		{"T2->R1 busy 100%", 100, util("t2->h40"), 0.0005},
		{"T1->T2 99.9%", 99.9, util("t1->t2"), 0.0005},
	})
}

// incastPort is the receiver's port of an incast run over [1 ms, 5 ms].
func incastPort(t *testing.T, r *batch.RunSummary) model.BottleneckSummary {
	t.Helper()
	for _, ph := range r.Phases {
		if ph.Start == 0.001 {
			for _, b := range ph.Bottlenecks {
				if b.Name == "leaf0->h0" {
					return b
				}
			}
		}
	}
	t.Fatal("no phase from 1 ms with leaf0->h0")
	return model.BottleneckSummary{}
}

func TestHPCCVsDCQCNIncastBuiltin(t *testing.T) {
	e, runs := runBuiltin(t, "hpcc-vs-dcqcn-incast")
	util := func(alg string) func([]batch.RunSummary) float64 {
		return func(rs []batch.RunSummary) float64 { return 100 * incastPort(t, find(t, rs, alg)).Utilization }
	}
	queue := func(alg string) func([]batch.RunSummary) float64 {
		return func(rs []batch.RunSummary) float64 { return incastPort(t, find(t, rs, alg)).QueueMean / 1e3 }
	}
	p := func(alg string) func([]batch.RunSummary) float64 {
		return func(rs []batch.RunSummary) float64 { return pauses(find(t, rs, alg)) }
	}
	completion := func(alg string) func([]batch.RunSummary) float64 {
		return func(rs []batch.RunSummary) float64 {
			c := find(t, rs, alg).Flows.IncastCompletion
			if c == nil {
				return math.NaN()
			}
			return *c * 1e3
		}
	}
	checkQuoted(t, e, runs, []quoted{
		{"runs at 91.3% with 2.39 KB queued on average under HPCC", 91.3, util("hpcc"), 0.0006},
		{"runs at 91.3% with 2.39 KB queued on average under HPCC", 2.39, queue("hpcc"), 0.003},
		{"at 54.6% with 7.10 KB under DCQCN", 54.6, util("dcqcn"), 0.001},
		{"at 54.6% with 7.10 KB under DCQCN", 7.10, queue("dcqcn"), 0.01},
		{"HPCC 9, DCQCN 128", 9, p("hpcc"), 0},
		{"HPCC 9, DCQCN 128", 128, p("dcqcn"), 0},
		{"5.63 ms with HPCC", 5.63, completion("hpcc"), 0.001},
		{"7.54 ms with DCQCN", 7.54, completion("dcqcn"), 0.001},
	})
}

func TestACKClockedFabricBuiltin(t *testing.T) {
	e, runs := runBuiltin(t, "ack-clocked-fabric")
	small := func(alg string, p99 bool) func([]batch.RunSummary) float64 {
		return func(rs []batch.RunSummary) float64 {
			b := find(t, rs, alg).Flows.BySize[0]
			if p99 {
				return b.SlowdownP99
			}
			return b.SlowdownP50
		}
	}
	large := func(alg string) func([]batch.RunSummary) float64 {
		return func(rs []batch.RunSummary) float64 { return find(t, rs, alg).Flows.BySize[2].SlowdownMean }
	}
	peak := func(alg string) func([]batch.RunSummary) float64 {
		return func(rs []batch.RunSummary) float64 { return port(t, find(t, rs, alg), "edge1.0->h4").QueueMax / 1e3 }
	}
	checkQuoted(t, e, runs, []quoted{
		{"DCQCN 1.31 / 3.70", 1.31, small("dcqcn", false), 0.004}, {"DCQCN 1.31 / 3.70", 3.70, small("dcqcn", true), 0.002},
		{"DCTCP 1.69 / 35.4", 1.69, small("dctcp", false), 0.003}, {"DCTCP 1.69 / 35.4", 35.4, small("dctcp", true), 0.002},
		{"TIMELY 1.35 / 3.85", 1.35, small("timely", false), 0.004}, {"TIMELY 1.35 / 3.85", 3.85, small("timely", true), 0.002},
		{"HPCC 1.38 / 3.93", 1.38, small("hpcc", false), 0.003}, {"HPCC 1.38 / 3.93", 3.93, small("hpcc", true), 0.002},
		{"Swift 1.54 / 4.84", 1.54, small("swift", false), 0.003}, {"Swift 1.54 / 4.84", 4.84, small("swift", true), 0.002},
		{"DCQCN 3.69", 3.69, large("dcqcn"), 0.002}, {"DCTCP 2.38", 2.38, large("dctcp"), 0.002},
		{"TIMELY 2.80", 2.80, large("timely"), 0.002}, {"HPCC 2.75", 2.75, large("hpcc"), 0.002},
		{"Swift 2.40", 2.40, large("swift"), 0.002},
		{"its queue peaks at 251 KB", 251, peak("dctcp"), 0.002}, {"HPCC's peaks at 22.1 KB", 22.1, peak("hpcc"), 0.003},
	})
	// The short flows alone, drained: no greedy source runs beneath them,
	// and every flow of every size completes, as the description says.
	for _, alg := range e.Algorithms {
		r := find(t, runs, alg)
		if len(r.Sources) != 0 {
			t.Errorf("%s: %d greedy sources beneath the short flows; the description says no other traffic", alg, len(r.Sources))
		}
		f := r.Flows
		if f.Started != 70 || f.Completed != 70 || !strings.Contains(e.Description, "All 70 flows complete") {
			t.Errorf("%s: %d flows started, %d completed; the description says all 70 complete", alg, f.Started, f.Completed)
		}
		for i, want := range map[int]int64{0: 41, 2: 17} {
			if b := f.BySize[i]; b.Started != want || b.Completed != want {
				t.Errorf("%s: size bucket %d: %d started, %d completed, want %d", alg, i, b.Started, b.Completed, want)
			}
		}
	}
	if !strings.Contains(strings.Join(strings.Fields(e.Description), " "), "41 flows up to 100 KB, 17 of 1 to 10 MB") {
		t.Error("the description does not count the flows by size")
	}
}
