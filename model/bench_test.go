package model

import (
	"testing"

	"qcnlab/algos"
)

// benchConfig is the speed scenario: 10 greedy QCN sources on a
// 10 Gbps dumbbell, 1500 B frames, 100 us RTT.
func benchConfig(b testing.TB, d algos.Time) Config {
	sc, err := algos.Lookup("qcn")
	if err != nil {
		b.Fatal(err)
	}
	cfg := Config{Scheme: sc, Seed: 1, Duration: d, Warmup: d / 5,
		Capacity: 10e9, Buffer: 150e3, FrameBytes: 1500,
		SampleInterval: 10 * algos.Microsecond, RateWindow: algos.Millisecond, FairnessThreshold: 0.9}
	for i := 0; i < 10; i++ {
		cfg.Sources = append(cfg.Sources, SourceConfig{LineRate: 10e9, InitialRate: 10e9,
			ForwardDelay: 50 * algos.Microsecond, BackwardDelay: 50 * algos.Microsecond, Stop: algos.Never})
	}
	cfg.Params, err = sc.Resolve(cfg.Network(), algos.Values{"q_eq": 33e3})
	if err != nil {
		b.Fatal(err)
	}
	return cfg
}

func BenchmarkDumbbellQCN(b *testing.B) {
	var frames uint64
	for b.Loop() {
		sim, err := NewPacket(benchConfig(b, algos.Second))
		if err != nil {
			b.Fatal(err)
		}
		sim.Run()
		frames += sim.Frames()
	}
	b.ReportMetric(float64(frames)/b.Elapsed().Seconds(), "frames/s")
}

// BenchmarkDumbbellQCNShortFlows is the speed scenario with seed 004's mixed
// flows: 5 greedy flows per source and 200 web-search short flows a second
// (about a quarter of the link), all behind the sources' rate limiters.
func BenchmarkDumbbellQCNShortFlows(b *testing.B) {
	sizes, err := Workload("websearch")
	if err != nil {
		b.Fatal(err)
	}
	var frames uint64
	for b.Loop() {
		cfg := benchConfig(b, algos.Second)
		cfg.Traffic = &Traffic{LongFlows: 5, ShortRate: 200, ShortSizes: sizes}
		sim, err := NewPacket(cfg)
		if err != nil {
			b.Fatal(err)
		}
		sim.Run()
		frames += sim.Frames()
	}
	b.ReportMetric(float64(frames)/b.Elapsed().Seconds(), "frames/s")
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(frames), "ns/frame")
}
