package model

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"qcnlab/algos"
)

func noneScheme(t testing.TB) *algos.Scheme {
	sc, err := algos.Lookup("none")
	if err != nil {
		t.Fatal(err)
	}
	return sc
}

func TestWorkloadMeansMatchTheirCDFs(t *testing.T) {
	for _, name := range Workloads {
		d, err := Workload(name)
		if err != nil {
			t.Fatal(err)
		}
		r := rand.New(rand.NewPCG(7, 1))
		const n = 200_000
		var sum, sumSq float64
		for range n {
			x := float64(d.Sample(r))
			sum += x
			sumSq += x * x
		}
		mean := sum / n
		se := math.Sqrt((sumSq/n - mean*mean) / n)
		if math.Abs(mean-d.Mean()) > 4*se {
			t.Errorf("%s: sample mean %.0f B, the CDF's %.0f B, more than 4 standard errors (%.0f) apart", name, mean, d.Mean(), se)
		}
		t.Logf("%s: mean %.0f B (CDF %.0f B)", name, mean, d.Mean())
	}
	// The web-search mean by hand, from the points of workloads/websearch.cdf.
	d, _ := Workload("websearch")
	pts := [][2]float64{{0, 0}, {10e3, 15}, {20e3, 20}, {30e3, 30}, {50e3, 40}, {80e3, 53}, {200e3, 60},
		{1e6, 70}, {2e6, 80}, {5e6, 90}, {10e6, 97}, {30e6, 100}}
	want := 0.0
	for i := 1; i < len(pts); i++ {
		want += (pts[i][1] - pts[i-1][1]) / 100 * (pts[i][0] + pts[i-1][0]) / 2
	}
	if math.Abs(d.Mean()-want) > 1e-6*want {
		t.Errorf("websearch mean %g, want %g", d.Mean(), want)
	}
}

func TestParseCDFErrorsNameTheLine(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"0 0\n100 50\n50 100\n", "f.cdf:3: sizes must not decrease"},
		{"0 0\n100 50\n# comment\n200 40\n", "f.cdf:4: percentages must not decrease"},
		{"0 0\n100 50\n200 90\n", "f.cdf:3: the last percentage is 90, want 100"},
		{"0 0\n100 50 3\n", "f.cdf:2: want two columns"},
		{"0 0\nx 50\n", "f.cdf:2: size \"x\""},
		{"0 0\n10 150\n", "f.cdf:2: percentage \"150\""},
		{"# nothing\n", "f.cdf: no points"},
	} {
		_, err := ParseCDF("f.cdf", []byte(c.text))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want %q", c.text, err, c.want)
		}
	}
	d, err := ParseCDF("ok.cdf", []byte("# size pct\n100 0\n100 50\n300 100\n"))
	if err != nil || d.Mean() != 0.5*100+0.5*200 {
		t.Errorf("ok.cdf: %v, mean %v", err, d)
	}
}

// shortOnly is one source at 10 Gbps sending only short flows of size
// bytes, arriving at rate per second.
func shortOnly(t testing.TB, rate float64, size int64) Config {
	cfg := baseConfig(noneScheme(t), 1, 10e9)
	cfg.Params = algos.Values{}
	cfg.Traffic = &Traffic{ShortRate: rate, ShortSizes: FixedSize("fixed", size)}
	return cfg
}

// A flow alone takes its bits at line rate, the propagation and each
// switch's store-and-forward of its last frame: slowdown 1, exactly.
func TestLoneFlowTakesItsAnalyticTime(t *testing.T) {
	for _, c := range []struct {
		name  string
		size  int64
		links int
		want  float64 // seconds, by hand
	}{
		// 1.2 us per frame on every link: the first frame reaches the switch
		// after 1.2 + 50 us, the 6.67 frames leave it 8 us later.
		{"dumbbell, 6.67 frames", 10_000, 1, 51.2e-6 + 8e-6},
		// 1.2 us at the source, 50 us, 1.2 us, 30 us, 2.4 us at 5 Gbps.
		{"parking lot, 1 frame", 1500, 2, 84.8e-6},
		// 0.08 + 50 + 0.08 + 30 + 0.16 us.
		{"parking lot, 100 B", 100, 2, 80.32e-6},
		// 10 frames then 200 B: the 5 Gbps link sets the pace, 2.4 us a
		// frame; the last one leaves 0.32 us after the tenth.
		{"parking lot, 10.13 frames", 15_200, 2, 1.2e-6 + 50e-6 + 1.2e-6 + 30e-6 + 10*2.4e-6 + 0.32e-6},
	} {
		cfg := shortOnly(t, 500, c.size) // flows about 2 ms apart, each done in under 0.2 ms
		cfg.Duration, cfg.Warmup = 50*algos.Millisecond, 0
		if c.links == 2 {
			cfg.Links = []LinkConfig{{Capacity: 10e9, Buffer: 150e3, Delay: 30 * us}, {Capacity: 5e9, Buffer: 150e3}}
			cfg.Sources[0].Path = []int{0, 1}
		}
		_, sum := run(t, cfg)
		f := sum.Flows
		if f == nil || f.Started < 10 || f.Completed < f.Started-1 {
			t.Fatalf("%s: flows %+v", c.name, f)
		}
		if math.Abs(f.FCTMean-c.want) > 1e-12 || math.Abs(f.SlowdownMean-1) > 1e-9 {
			t.Errorf("%s: FCT %.9g s, slowdown %.9g; want %.9g s and 1", c.name, f.FCTMean, f.SlowdownMean, c.want)
		}
		if math.Abs(f.FCTP99/c.want-1) > 0.005 || math.Abs(f.SlowdownP99-1) > 0.005 {
			t.Errorf("%s: p99 FCT %g slowdown %g, want within 0.5%% of %g and 1", c.name, f.FCTP99, f.SlowdownP99, c.want)
		}
	}
}

// Arrivals are a Poisson process over the network and each flow goes to a
// source uniformly at random.
func TestShortFlowsArePoisson(t *testing.T) {
	cfg := shortOnly(t, 40_000, 100)
	cfg.Sources = append(cfg.Sources, cfg.Sources[0], cfg.Sources[0], cfg.Sources[0])
	cfg.Duration, cfg.Warmup = 100*algos.Millisecond, 0
	_, sum := run(t, cfg)
	want := 40_000 * cfg.Duration.Seconds()
	if got := float64(sum.Flows.Started); math.Abs(got-want) > 4*math.Sqrt(want) {
		t.Errorf("%g flows started, want %g +- %g", got, want, 4*math.Sqrt(want))
	}
	if sum.Flows.Completed < sum.Flows.Started-4 || sum.Flows.SizeMean != 100 {
		t.Errorf("flows %+v", sum.Flows)
	}
	// Each source's bytes: binomial(n, 1/4) flows of 100 B.
	n := float64(sum.Flows.Started)
	for _, s := range sum.Sources {
		got := float64(s.DeliveredBytes) / 100
		if math.Abs(got-n/4) > 4*math.Sqrt(n*3/16)+2 {
			t.Errorf("source %d: %g flows, want %g +- %g", s.ID, got, n/4, 4*math.Sqrt(n*3/16))
		}
	}
}

// Behind one rate limiter, flows share it round robin: a short flow beside
// a greedy one gets half the source's rate.
func TestFlowsShareTheRateLimiterRoundRobin(t *testing.T) {
	cfg := shortOnly(t, 200, 150_000)
	cfg.Traffic.LongFlows = 1
	cfg.Duration, cfg.Warmup = 50*algos.Millisecond, 0
	_, sum := run(t, cfg)
	f := sum.Flows
	// 100 frames, one every other 1.2 us slot: the last leaves the source
	// 198 slots after the first, then 1.2 + 50 + 1.2 us to the receiver;
	// the first leaves within two slots of the flow's arrival.
	want := 198*1.2e-6 + 52.4e-6 + 1.2e-6
	if f.Completed < 5 || math.Abs(f.FCTMean-want) > 1.2e-6 {
		t.Errorf("%d flows, FCT %g, want %g +- 1.2 us (half the limiter's rate)", f.Completed, f.FCTMean, want)
	}
	if b := sum.Bottlenecks[0]; b.Utilization < 0.99 {
		t.Errorf("utilization %g: the greedy flow must fill the link", b.Utilization)
	}
}

// The flow table holds the flows alive, not every flow ever started.
func TestFlowMemoryIsBoundedByFlowsAlive(t *testing.T) {
	cfg := shortOnly(t, 200_000, 1500) // a flow every 5 us, each done in about 52 us
	cfg.Duration, cfg.Warmup = 50*algos.Millisecond, 0
	sim, sum := run(t, cfg)
	if sum.Flows.Started < 9000 {
		t.Fatalf("only %d flows", sum.Flows.Started)
	}
	if n := len(sim.short.table.items); n > 100 {
		t.Errorf("%d flow slots for %d flows started; want about as many as are alive at once", n, sum.Flows.Started)
	}
	if alive := sim.short.table.alive(); alive > 40 {
		t.Errorf("%d flows alive at the end", alive)
	}
}

// A short flow whose last frame is dropped is lost, not completed.
func TestLostFlowsAreCountedNotCompleted(t *testing.T) {
	cfg := shortOnly(t, 20_000, 3000)
	cfg.Sources = append(cfg.Sources, cfg.Sources[0], cfg.Sources[0])
	cfg.Traffic.LongFlows = 1 // three greedy sources at line rate overflow the buffer
	cfg.Duration, cfg.Warmup = 20*algos.Millisecond, 0
	sim, sum := run(t, cfg)
	f := sum.Flows
	if sum.Bottlenecks[0].Drops == 0 || f.Lost == 0 || f.Completed+f.Lost > f.Started {
		t.Errorf("drops %d, flows %+v", sum.Bottlenecks[0].Drops, f)
	}
	if alive := int64(sim.short.table.alive()); f.Started-f.Completed-f.Lost != alive {
		t.Errorf("%d started, %d completed, %d lost, but %d alive", f.Started, f.Completed, f.Lost, alive)
	}
}

func TestLogHistQuantileError(t *testing.T) {
	h := newLogHist(1e-9, 1e4)
	r := rand.New(rand.NewPCG(1, 2))
	xs := make([]float64, 10001)
	for i := range xs {
		xs[i] = math.Exp(r.NormFloat64()*3 - 8)
		h.add(xs[i])
	}
	sortFloats(xs)
	for _, q := range []float64{0.01, 0.5, 0.99} {
		exact := xs[int(math.Ceil(q*float64(len(xs))))-1]
		if got := h.quantile(q); math.Abs(got/exact-1) > 0.005 {
			t.Errorf("q%g: %g, exact %g", q, got, exact)
		}
	}
}

func sortFloats(xs []float64) {
	for i := 1; i < len(xs); i++ {
		for j := i; j > 0 && xs[j] < xs[j-1]; j-- {
			xs[j], xs[j-1] = xs[j-1], xs[j]
		}
	}
}
