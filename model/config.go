package model

import (
	"errors"
	"fmt"

	"qcnlab/algos"
)

// Config is a fully resolved scenario in base units: bits per second,
// bytes and picoseconds. The experiments package builds it from a file.
type Config struct {
	Model  string // "packet" (the default) or "fluid"
	Scheme *algos.Scheme
	Params algos.Values // resolved: every parameter of Scheme present
	Seed   uint64

	Duration algos.Time
	Warmup   algos.Time // summary metrics cover [Warmup, Duration]

	Capacity   float64 // bottleneck link, bits per second
	Buffer     int     // bottleneck buffer, bytes (drop-tail)
	FrameBytes int     // data frame size

	Sources []SourceConfig

	SampleInterval    algos.Time // time series resolution
	RateWindow        algos.Time // per-source rates are averaged over this window
	FairnessThreshold float64    // min rate / max rate counted as fair

	// OnSample, if set, receives the time series every SampleInterval.
	// The Sample is reused: copy what you keep.
	OnSample func(*Sample)
}

// SourceConfig is one source and its access link.
type SourceConfig struct {
	LineRate      float64    // access link rate, bits per second
	InitialRate   float64    // rate the source starts at
	ForwardDelay  algos.Time // propagation delay to the bottleneck
	BackwardDelay algos.Time // propagation delay of feedback back to the source
	Start         algos.Time // when the source starts sending
	Stop          algos.Time // when it stops; algos.Never for never
}

// Network is what the schemes see of the scenario.
func (c *Config) Network() algos.Network {
	n := algos.Network{
		Capacity:   c.Capacity,
		Sources:    len(c.Sources),
		Buffer:     float64(c.Buffer),
		FrameBytes: float64(c.FrameBytes),
	}
	for _, s := range c.Sources {
		n.LineRate = max(n.LineRate, s.LineRate)
		n.MaxLoopDelay = max(n.MaxLoopDelay, s.ForwardDelay+s.BackwardDelay)
	}
	return n
}

func (c *Config) validate() error {
	var errs []error
	bad := func(format string, args ...any) { errs = append(errs, fmt.Errorf(format, args...)) }
	if c.Scheme == nil {
		bad("no algorithm")
	}
	if c.Duration <= 0 {
		bad("duration must be positive")
	}
	if c.Warmup < 0 || c.Warmup >= c.Duration {
		bad("warmup must be in [0, duration)")
	}
	if c.Capacity <= 0 {
		bad("capacity must be positive")
	}
	if c.FrameBytes <= 0 {
		bad("frame size must be positive")
	}
	if c.Buffer < c.FrameBytes {
		bad("buffer must hold at least one frame")
	}
	if len(c.Sources) == 0 || len(c.Sources) > MaxSources {
		bad("from 1 to %d sources", MaxSources)
	}
	for i, s := range c.Sources {
		if s.LineRate <= 0 || s.InitialRate <= 0 || s.InitialRate > s.LineRate {
			bad("source %d: rates must be positive, initial rate at most the line rate", i)
		}
		if s.ForwardDelay < 0 || s.BackwardDelay < 0 || s.Start < 0 || s.Stop <= s.Start {
			bad("source %d: delays must not be negative, and it must stop after it starts", i)
		}
	}
	if c.SampleInterval <= 0 || c.RateWindow < c.SampleInterval {
		bad("sample interval must be positive and the rate window at least one sample interval")
	}
	return errors.Join(errs...)
}
