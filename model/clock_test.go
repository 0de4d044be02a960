package model

import (
	"math"
	"math/rand/v2"
	"testing"

	"qcnlab/algos"
)

// remainder divides by multiplying: it must be x % d for every x and d,
// the quotient's correction included, so that the jitter's draws are the
// numbers the plain division gave.
func TestRemainderIsTheModulo(t *testing.T) {
	ds := []uint64{1, 2, 3, 7, 10, 1000, 1200, 1_200_000, uint64(MaxSwitchJitter), uint64(MaxSwitchJitter) - 1,
		1 << 32, 1<<32 + 1, 1<<63 - 1, 1 << 63, 1<<63 + 1, math.MaxUint64 - 1, math.MaxUint64}
	r := rand.New(rand.NewPCG(1, 2))
	for range 200 {
		ds = append(ds, r.Uint64()>>r.UintN(64)|1, r.Uint64N(uint64(MaxSwitchJitter))+1)
	}
	for _, d := range ds {
		inv := math.MaxUint64 / d
		xs := []uint64{0, 1, d - 1, d, d + 1, math.MaxUint64, math.MaxUint64 - 1, math.MaxUint64 - d}
		for m := uint64(2); m < 1<<20; m *= 3 { // around multiples of d, where a short quotient shows
			if hi, lo := mulOverflows(d, m); !hi {
				xs = append(xs, lo-1, lo, lo+1)
			}
		}
		for range 2000 {
			xs = append(xs, r.Uint64())
		}
		for _, x := range xs {
			if got, want := remainder(x, d, inv), x%d; got != want {
				t.Fatalf("remainder(%d, %d) = %d, want %d", x, d, got, want)
			}
		}
	}
}

func mulOverflows(a, b uint64) (bool, uint64) {
	p := a * b
	return a != 0 && p/a != b, p
}

// The jitter's draws are the PCG stream modulo the jitter, as ever.
func TestJitterDrawsTheStreamModuloItsMax(t *testing.T) {
	for _, max := range []algos.Time{1, 1200, algos.TransmitTime(1500, 10e9), MaxSwitchJitter} {
		j := newJitter(max, 7)
		ref := rand.NewPCG(7, streamJitter)
		for range 10000 {
			if got, want := j.draw(), algos.Time(ref.Uint64()%uint64(max)); got != want {
				t.Fatalf("jitter %d: draw %d, want %d", max, got, want)
			}
		}
	}
}
