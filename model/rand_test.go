package model

import (
	"math/rand/v2"
	"testing"
	"unsafe"
)

// newRand draws what rand.New(rand.NewPCG(seed, stream)) draws, from a
// generator whose state is right behind the rand.Rand, in one 32-byte
// object: a scheme that draws at random times waits on one line for both.
func TestNewRandIsOnePlace(t *testing.T) {
	for _, stream := range []uint64{streamCP + 7, streamRP + 123, streamNP} {
		got, want := newRand(42, stream), rand.New(rand.NewPCG(42, stream))
		for i := range 1000 {
			if i%2 == 0 {
				if g, w := got.Uint64(), want.Uint64(); g != w {
					t.Fatalf("stream %#x, draw %d: %d, want %d", stream, i, g, w)
				}
			} else if g, w := got.Float64(), want.Float64(); g != w {
				t.Fatalf("stream %#x, draw %d: %v, want %v", stream, i, g, w)
			}
		}
		r := unsafe.Pointer(got)
		if src, behind := ifaceData(r), unsafe.Add(r, unsafe.Sizeof(rand.Rand{})); src != behind {
			t.Errorf("stream %#x: the generator is at %p, not behind its rand.Rand (%p)", stream, src, behind)
		}
		if a := uintptr(r); a/64 != (a+31)/64 {
			t.Errorf("stream %#x: the generator and its rand.Rand, at %#x, straddle a cache line", stream, a)
		}
	}
}
