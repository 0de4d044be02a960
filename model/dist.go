package model

import (
	"math/rand/v2"

	"qcnlab/algos"
)

// Dist is a duration that is either fixed or drawn at random: seed 004
// section V-B lets "the delays of links be randomly distributed and the
// latency of generating a feedback packet be time-varying". The zero value
// is a fixed zero.
type Dist struct {
	Kind   DistKind
	Lo, Hi algos.Time // Fixed: the value in both; Uniform: the closed range
}

// DistKind says how a Dist is drawn.
type DistKind uint8

const (
	Fixed   DistKind = iota // always Lo
	Uniform                 // uniform on [Lo, Hi], to the picosecond
)

// FixedDist is the distribution that is always t.
func FixedDist(t algos.Time) Dist { return Dist{Kind: Fixed, Lo: t, Hi: t} }

// UniformDist is the uniform distribution on [lo, hi].
func UniformDist(lo, hi algos.Time) Dist { return Dist{Kind: Uniform, Lo: lo, Hi: hi} }

// IsFixed reports whether every draw gives the same value.
func (d Dist) IsFixed() bool { return d.Kind == Fixed || d.Lo == d.Hi }

// Min and Max bound the values Draw returns.
func (d Dist) Min() algos.Time { return d.Lo }
func (d Dist) Max() algos.Time {
	if d.Kind == Fixed {
		return d.Lo
	}
	return d.Hi
}

// Draw returns one value. A fixed distribution takes nothing from r, so
// making a delay random leaves the other draws of a run as they were.
func (d Dist) Draw(r *rand.Rand) algos.Time {
	if d.IsFixed() {
		return d.Lo
	}
	return d.Lo + algos.Time(r.Int64N(int64(d.Hi-d.Lo)+1))
}

// Random streams of the drawn delays, apart from those of the congestion
// and reaction points (engine.go): adding a source or a link leaves the
// draws of the others as they were.
const (
	StreamSourceDelays    = 16 << 32 // + source: its forward and backward delays, drawn once
	StreamHopDelays       = 17 << 32 // + link: its propagation to the next switch, drawn once
	streamFeedbackLatency = 18 << 32 // + source: the latency of each feedback frame to it
)

// DelayRand is the generator of a stream of drawn delays.
func DelayRand(seed, stream uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, stream)) }

// newRand is the generator of a random stream, its state in one 32-byte
// object with the rand.Rand that draws from it, which rand.New and
// rand.NewPCG allocate apart: a congestion point or a reaction point that
// draws now and then, on a fabric larger than the caches, then waits on
// one line, not on two, one after the other. The draws are the same.
func newRand(seed, stream uint64) *rand.Rand {
	g := &struct {
		r   rand.Rand
		pcg rand.PCG
	}{pcg: *rand.NewPCG(seed, stream)}
	g.r = *rand.New(&g.pcg)
	return &g.r
}
