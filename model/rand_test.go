package model

import (
	"math/rand/v2"
	"reflect"
	"testing"
	"unsafe"

	"qcnlab/algos"
)

// newRand draws what rand.New(rand.NewPCG(seed, stream)) draws, from a
// generator whose state is right behind the rand.Rand, in one 32-byte
// object: a scheme that draws at random times waits on one line for both.
func TestNewRandIsOnePlace(t *testing.T) {
	skipUnless64Bit(t) // a 32-bit rand.Rand and its generator are 24 bytes, which may straddle a line
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

// The engine gives its schemes' points newRand's streams: a QCN fabric's
// congestion points sample, and its reaction points count bytes, with a
// generator that is one object with its rand.Rand. (The generator is an
// unexported field of each; reflection reads its address.)
func TestPointsDrawFromNewRand(t *testing.T) {
	skipUnless64Bit(t)
	sc, err := algos.Lookup("qcn")
	if err != nil {
		t.Fatal(err)
	}
	sim, err := NewPacket(fabric(sc, fatTree4(t, 150e3), []Flow{{From: 1, To: 0}}))
	if err != nil {
		t.Fatal(err)
	}
	onePlace := func(what string, v reflect.Value) {
		r := v.FieldByName("rand")
		if !r.IsValid() || r.IsNil() {
			t.Fatalf("%s has no generator", what)
		}
		p := unsafe.Pointer(r.Pointer())
		if ifaceData(p) != unsafe.Add(p, unsafe.Sizeof(rand.Rand{})) {
			t.Errorf("%s draws from a generator apart from its rand.Rand", what)
		}
	}
	onePlace("port 0's congestion point", reflect.ValueOf(sim.portStore[0].cp).Elem().FieldByName("qcnSampler").Elem())
	onePlace("flow 0's reaction point", reflect.ValueOf(sim.lims[0].rp).Elem())
}
