package experiments_test

import (
	"compress/gzip"
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"qcnlab/algos"
	"qcnlab/experiments"
	"qcnlab/experiments/results"
	"qcnlab/model"
)

// estimateCases are small accepted experiments of every shape the estimate
// covers: chains, fabrics whose routes matter (many leaves), a host with
// many flows, PFC, short flows, shared buffers, a transport that resends,
// classes, HPCC's telemetry on long links.
var estimateCases = []struct{ name, text string }{
	{"dumbbell", "duration = \"5ms\"\n[sources]\ncount = 8\n"},
	{"parking lot", "duration = \"5ms\"\n[network]\ntopology = \"parking_lot\"\nlinks = 3\n"},
	{"leaf-spine, many leaves", "duration = \"200us\"\n[network]\ntopology = \"leaf_spine\"\nleaves = 128\nspines = 8\nhosts_per_leaf = 2\n"},
	{"all to all", "duration = \"1ms\"\n[network]\ntopology = \"leaf_spine\"\nleaves = 4\nspines = 2\nhosts_per_leaf = 8\n[traffic]\npattern = \"all_to_all\"\n"},
	{"incast with PFC", "duration = \"2ms\"\n[network]\ntopology = \"leaf_spine\"\npfc = true\n[traffic]\npattern = \"incast\"\nincast_senders = 8\nflow_size = \"200KB\"\n"},
	{"short flows", "duration = \"5ms\"\n[network]\ntopology = \"fat_tree\"\nk = 4\n[traffic]\npattern = \"none\"\nload = 0.3\n"},
	// Queues that build far into 32 MB buffers (an incast without
	// congestion control), and a permutation whose queues stay short in them.
	{"incast into large buffers", "duration = \"1ms\"\nalgorithms = [\"none\"]\n[network]\ntopology = \"fat_tree\"\nk = 4\ncapacity = \"100Gbps\"\nbuffer = \"32MB\"\n[traffic]\npattern = \"incast\"\nincast_senders = 12\nflow_size = \"1MB\"\n"},
	// Sources that no scheme slows: each sends at its line rate whatever
	// the bottleneck carries (the drops are events too).
	{"no control, small frames", "duration = \"5ms\"\nalgorithms = [\"none\"]\n[network]\nframe_size = \"64B\"\n[sources]\ncount = 8\n"},
	{"permutation in large buffers", "duration = \"1ms\"\n[network]\ntopology = \"fat_tree\"\nk = 8\ncapacity = \"100Gbps\"\nbuffer = \"32MB\"\n[traffic]\nflow_size = \"1MB\"\n"},
	// A shared buffer lets one queue take most of the switch's: an incast
	// into a 1 GB one (it was estimated at its ports' 150 KB each, and
	// grew past the estimate 80-fold in 2 ms), and HPCC's 32 MB.
	{"shared buffer, incast into one port", "duration = \"2ms\"\nalgorithms = [\"none\"]\n[network]\ntopology = \"star\"\nhosts = 17\ncapacity = \"100Gbps\"\nbuffer_model = \"shared\"\nswitch_buffer = \"1GB\"\n[traffic]\npattern = \"incast\"\nincast_senders = 16\n"},
	{"shared buffer of 32 MB, incast", "duration = \"2ms\"\nalgorithms = [\"none\"]\n[network]\ntopology = \"fat_tree\"\nk = 4\ncapacity = \"100Gbps\"\nbuffer_model = \"shared\"\nswitch_buffer = \"32MB\"\n[traffic]\npattern = \"incast\"\nincast_senders = 12\nflow_size = \"1MB\"\n"},
	// PFC in 32 MB buffers: a port holds no more than its flows send
	// (every port was counted at its whole buffer, 470 times the heap).
	{"PFC, permutation in large buffers", "duration = \"1ms\"\n[network]\ntopology = \"fat_tree\"\nk = 4\ncapacity = \"100Gbps\"\nbuffer = \"32MB\"\npfc = true\n[traffic]\nflow_size = \"1MB\"\n"},
	// A transport that resends, its ACKs as control frames.
	{"a resending transport, incast", "duration = \"2ms\"\nalgorithms = [\"dctcp\"]\n[network]\ntopology = \"fat_tree\"\nk = 4\ncapacity = \"100Gbps\"\n[traffic]\npattern = \"incast\"\nincast_senders = 12\nflow_size = \"1MB\"\n"},
	// Classes in a shared buffer, one of them lossless.
	{"classes, PFC for one, shared buffer", "duration = \"2ms\"\nalgorithms = [\"none\"]\n[network]\ntopology = \"fat_tree\"\nk = 4\ncapacity = \"100Gbps\"\nclasses = 4\nscheduler = \"dwrr\"\nbuffer_model = \"shared\"\nswitch_buffer = \"4MB\"\npfc = true\npfc_classes = [1]\n[traffic]\npattern = \"incast\"\nincast_senders = 12\nflow_size = \"1MB\"\nclass = 1\n"},
	// ACKs as control frames are served before data at the port down to
	// their sender: with open-loop sources at their line rate, that port's
	// data falls behind by the ACKs' share (4%) for the whole run (it was
	// estimated at 0.48 MB and held 4.3).
	{"open loop, ACKs as frames, star", "duration = \"5ms\"\nalgorithms = [\"none\"]\n[network]\ntopology = \"star\"\nhosts = 32\ncapacity = \"100Gbps\"\nbuffer = \"32MB\"\ncontrol_frames = [\"none\"]\n[transport]\nrecovery = \"go_back_n\"\n"},
	// A transport's events: the receiver takes each frame in, and its ACK
	// lands, out of band (1.65 times the events estimated without them) or
	// as a frame across the route back (DCTCP's permutation: 1.14 times).
	{"open loop, ACKs out of band, star", "duration = \"2ms\"\nalgorithms = [\"none\"]\n[network]\ntopology = \"star\"\nhosts = 16\ncapacity = \"100Gbps\"\nbuffer = \"32MB\"\ncontrol_frames = []\n[transport]\nrecovery = \"go_back_n\"\n"},
	{"dctcp permutation, ACKs as frames", "duration = \"2ms\"\nalgorithms = [\"dctcp\"]\n[network]\ntopology = \"fat_tree\"\nk = 4\ncapacity = \"100Gbps\"\n"},
	// Sources no scheme slows, under PFC, in buffers that take all they
	// send: at their line rate, not held to a share (3.4 times the events
	// estimated so).
	// HPCC's telemetry ring holds four times its path's bandwidth-delay
	// product in frames: on long, fast links, ~3 times what was estimated
	// for it (36 MB built against 12 MB).
	{"HPCC on long fast links", "duration = \"50us\"\nalgorithms = [\"hpcc\"]\n[network]\ntopology = \"fat_tree\"\nk = 4\ncapacity = \"100Gbps\"\nhop_delay = \"20us\"\n"},
	{"PFC incast in large buffers", "duration = \"1ms\"\nalgorithms = [\"none\"]\n[network]\ntopology = \"fat_tree\"\nk = 4\ncapacity = \"100Gbps\"\nbuffer = \"32MB\"\npfc = true\n[traffic]\npattern = \"incast\"\nincast_senders = 12\n"},
}

// Accepted inputs stay within the estimate that let them in: the heap a
// run needs at its peak, from loading the file to its summary (collected
// before each look: between collections the runtime lets garbage grow the
// heap by up to GOGC's share), is at most the estimate (and a megabyte the
// heap grows by in spans and arenas), and the events it counts at most the
// estimate's; the estimate errs high by at most estimateFactor. Counted,
// never timed.
//
// The heap is measured in a process of its own: in the test binary's, what
// another test left running (a build abandoned at cancellation finishes in
// the background) frees or takes memory between two looks.
func TestAcceptedRunsStayWithinTheEstimate(t *testing.T) {
	if os.Getenv("QCNLAB_ESTIMATE_CHILD") != "1" {
		cmd := exec.Command(os.Args[0], "-test.run=^TestAcceptedRunsStayWithinTheEstimate$", "-test.v")
		cmd.Env = append(os.Environ(), "QCNLAB_ESTIMATE_CHILD=1")
		out, err := cmd.CombinedOutput()
		t.Logf("measured in a process of its own:\n%s", out)
		if err != nil {
			t.Fatalf("the measuring process failed: %v", err)
		}
		return
	}
	const estimateFactor = 16
	for _, c := range estimateCases {
		name, text := c.name, c.text
		experiments.ForgetFabrics() // the heap of the runs before is not this one's
		var m runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&m)
		base, top := m.HeapInuse, m.HeapInuse
		look := func() {
			runtime.GC()
			runtime.ReadMemStats(&m)
			top = max(top, m.HeapInuse)
		}
		e, err := experiments.Parse("exp.toml", []byte(text))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		look()
		cost := e.Cost()
		cfg, err := e.Config(e.Algorithms[0])
		if err != nil {
			t.Fatal(err)
		}
		est := model.Estimate(cfg)
		sim, err := model.NewPacket(cfg)
		if err != nil {
			t.Fatal(err)
		}
		look()
		for !sim.Done() {
			sim.Advance(sim.Now() + max(cfg.Duration/50, algos.Microsecond))
			look()
		}
		runtime.KeepAlive(sim.Summary())
		look()
		peak, events := float64(top-base), float64(sim.Events())
		t.Logf("%s: memory %.2f MB estimated, %.2f MB at the peak; events %.3g estimated (%.3g by their cost), %.0f counted",
			name, est.Memory/1e6, peak/1e6, est.Events, cost.Events, events)
		if peak > est.Memory+1e6 || est.Memory > estimateFactor*peak+1e6 {
			t.Errorf("%s: peak heap %.0f B against an estimate of %.0f B: not within [1, %d] times", name, peak, est.Memory, estimateFactor)
		}
		if events > est.Events || est.Events > estimateFactor*events {
			t.Errorf("%s: %.0f events against an estimate of %.0f: not within [1, %d] times", name, events, est.Events, estimateFactor)
		}
		if peak > cost.Memory+1e6 || events > cost.Events {
			t.Errorf("%s: the bounds' estimate %.0f B, %.0f events, is below the run's %.0f B, %.0f events", name, cost.Memory, cost.Events, peak, events)
		}
		if e.IsFabric() && (cost.Events < est.Events || (est.MostFlowsPerHost > 1) != (cost.Events > est.Events)) {
			t.Errorf("%s: the events' cost %.3g against %.3g events with %d flows per host", name, cost.Events, est.Events, est.MostFlowsPerHost)
		}
	}
}

// The time series a batch writes is at most what SeriesBytes says it is,
// before compression, and not far below it.
func TestSeriesBytesBoundWhatIsWritten(t *testing.T) {
	for _, c := range estimateCases[:4:4] {
		name := c.name
		e, err := experiments.Parse("exp.toml", []byte(c.text))
		if err != nil {
			t.Fatal(err)
		}
		dir := t.TempDir()
		if _, err := results.Execute(context.Background(), e, results.Options{Workers: 1, OutDir: dir}); err != nil {
			t.Fatal(err)
		}
		f, err := os.Open(filepath.Join(dir, "timeseries.csv.gz"))
		if err != nil {
			t.Fatal(err)
		}
		z, err := gzip.NewReader(f)
		if err != nil {
			t.Fatal(err)
		}
		n, err := io.Copy(io.Discard, z)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		want := e.SeriesBytes()
		t.Logf("%s: %d bytes written, %.0f estimated", name, n, want)
		if float64(n) > want || 3*float64(n) < want {
			t.Errorf("%s: %d bytes of time series against an estimate of %.0f", name, n, want)
		}
	}
}

// A fabric's time series with every port watched at a fine sampling
// interval is refused at load: a k = 8 fat-tree every 10 ns.
func TestSeriesBounded(t *testing.T) {
	text := "duration = \"10ms\"\n[network]\ntopology = \"fat_tree\"\nk = 8\n[output]\nsample_interval = \"10ns\"\nrate_window = \"1ms\"\nwatch_ports = 1000\n"
	_, err := experiments.Parse("exp.toml", []byte(text))
	want := "exp.toml:8: output.watch_ports: the time series would be ~16GB (a row every 10ns, 640 queues and 16 rates); the most is 10GB"
	if err == nil || err.Error()[:min(len(err.Error()), len(want))] != want {
		t.Errorf("got %v\nwant %s", err, want)
	}
}

// The time series of a batch is bounded together: 100 runs of 100 s of a
// dumbbell sampled every 10 us are 96 GB of text, 10 runs under 10 GB.
func TestBatchSeriesBounded(t *testing.T) {
	e, err := experiments.Builtin("ap-n-aimd-2-sources")
	if err != nil {
		t.Fatal(err)
	}
	if err := e.Set("duration=100s"); err != nil {
		t.Fatal(err)
	}
	runs, err := e.Runs()
	if err != nil {
		t.Fatal(err)
	}
	err = experiments.SeriesError(runs)
	if err == nil || !strings.Contains(err.Error(), "the 100 runs' time series would be ~96GB together (the most is 10GB)") {
		t.Errorf("got %v", err)
	}
	if err := experiments.SeriesError(runs[:10]); err != nil {
		t.Errorf("10 runs: %v", err)
	}
}

// An 8,192-host fabric loads: a k = 32 fat-tree at 100 Gbps, a permutation
// of 1 MB flows, with 64 KB, 1 MB and 32 MB buffers per port (the last was
// refused at ~120 GB: every port's histogram and rings counted at a full
// buffer, and routes per node), and a leaf-spine of 128 leaves of 64 hosts
// and 64 spines with 32 MB buffers (refused at ~69 GB).
func TestEightThousandHostsLoad(t *testing.T) {
	const fatTree = "[network]\ntopology = \"fat_tree\"\nk = 32\n"
	const leafSpine = "[network]\ntopology = \"leaf_spine\"\nleaves = 128\nspines = 64\nhosts_per_leaf = 64\n"
	for _, c := range []struct{ network, buffer string }{
		{fatTree, "64KB"}, {fatTree, "1MB"}, {fatTree, "32MB"}, {leafSpine, "32MB"},
	} {
		text := "duration = \"5ms\"\nalgorithms = [\"qcn\"]\n" + c.network + "capacity = \"100Gbps\"\nbuffer = \"" + c.buffer +
			"\"\n[traffic]\npattern = \"permutation\"\nflow_size = \"1MB\"\n"
		e, err := experiments.Parse("8k.toml", []byte(text))
		if err != nil {
			t.Errorf("%s buffers: %v", c.buffer, err)
			continue
		}
		t.Logf("%s buffers: ~%.2g bytes, %.2g events", c.buffer, e.Cost().Memory, e.Cost().Events)
	}
}

// A shared buffer is counted as what its queues may take of it: an incast
// of 64 B frames into a star whose 500 GB switch buffer lets the one
// congested queue hold 64/65 of it is refused at load (its ports' 150 KB
// let it in at 0.75 MB, and it grew some 240 MB a simulated millisecond
// until the memory ran out), while a 32 MB shared buffer per switch on a
// k = 32 fat-tree (519 MB at its peak) stays in.
func TestSharedBufferCountedAtLoad(t *testing.T) {
	incast := "duration = \"100ms\"\nalgorithms = [\"none\"]\n[network]\ntopology = \"star\"\nhosts = 17\ncapacity = \"100Gbps\"\n" +
		"frame_size = \"64B\"\nbuffer_model = \"shared\"\nswitch_buffer = \"500GB\"\ndt_alpha = 64\n[traffic]\npattern = \"incast\"\nincast_senders = 16\n"
	_, err := experiments.Parse("exp.toml", []byte(incast))
	if err == nil || !strings.HasPrefix(err.Error(), "exp.toml:9: network.switch_buffer: a run would need ~") || !strings.Contains(err.Error(), "B of memory (the most is 4GB); make the buffers smaller") {
		t.Errorf("a 500 GB shared buffer's incast: got %v, want it refused for its memory, on the switch's buffer's line", err)
	}
	fatTree := "duration = \"20ms\"\nalgorithms = [\"qcn\"]\n[network]\ntopology = \"fat_tree\"\nk = 32\ncapacity = \"100Gbps\"\nbuffer = \"1MB\"\n" +
		"buffer_model = \"shared\"\nswitch_buffer = \"32MB\"\n[traffic]\nflow_size = \"1MB\"\n[output]\nsample_interval = \"100us\"\n"
	e, err := experiments.Parse("exp.toml", []byte(fatTree))
	if err != nil {
		t.Fatalf("a 32 MB shared buffer on a k = 32 fat-tree: %v", err)
	}
	t.Logf("a 32 MB shared buffer on a k = 32 fat-tree: ~%.2g bytes", e.Cost().Memory)
}
