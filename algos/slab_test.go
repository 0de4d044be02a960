package algos

import (
	"math/rand/v2"
	"reflect"
	"testing"
	"unsafe"
)

// A slab lays a network's congestion points out one after the other, in
// the order they are made, and a QCN CP is what an unsampled frame reads
// and a pointer: four to a cache line.
func TestCPSlabLaysPointsOutInOrder(t *testing.T) {
	if n := unsafe.Sizeof(QCNCongestionPoint{}); n != 16 {
		t.Errorf("a QCN CP takes %d bytes, want 16", n)
	}
	slab := NewCPSlab(100)
	v := resolve(t, "qcn", net10G, nil)
	var cps []*QCNCongestionPoint
	for j := range 100 {
		cps = append(cps, NewQCNCongestionPoint(CPEnv{Network: net10G, CPID: j + 1, Capacity: 10 * gbps, Buffer: 150e3,
			Rand: rand.New(rand.NewPCG(1, uint64(j))), Slab: slab}, v))
	}
	for j := 1; j < len(cps); j++ {
		if d := uintptr(unsafe.Pointer(cps[j])) - uintptr(unsafe.Pointer(cps[j-1])); d != 16 {
			t.Fatalf("CP %d is %d bytes after CP %d, want 16", j+1, int(d), j)
		}
	}
	for _, s := range []string{"qcn", "ecm", "n-aimd", "dctcp", "dcqcn"} {
		sc, err := Lookup(s)
		if err != nil {
			t.Fatal(err)
		}
		slab, v := NewCPSlab(4), resolve(t, s, net10G, nil)
		mk := func() CongestionPoint {
			return sc.NewCP(CPEnv{Network: net10G, CPID: 1, Capacity: 10 * gbps, Buffer: 150e3, Rand: rand.New(rand.NewPCG(1, 2)), Slab: slab}, v)
		}
		a, b := mk(), mk()
		if d := reflect.ValueOf(b).Pointer() - reflect.ValueOf(a).Pointer(); d == 0 || d > 128 {
			t.Errorf("%s: two CPs of a slab %d bytes apart", s, int(d))
		}
	}
}

// A CP from a slab runs exactly as one allocated on its own: the same
// samples, feedback and marks, frame after frame.
func TestCPSlabChangesNoDecision(t *testing.T) {
	for _, s := range []string{"qcn", "ecm", "n-aimd", "ap-n-aimd", "dctcp", "dcqcn"} {
		sc, err := Lookup(s)
		if err != nil {
			t.Fatal(err)
		}
		v := resolve(t, s, net10G, nil)
		mk := func(slab *CPSlab) CongestionPoint {
			return sc.NewCP(CPEnv{Network: net10G, CPID: 3, Capacity: 10 * gbps, Buffer: 150e3, Rand: rand.New(rand.NewPCG(5, 6)), Slab: slab}, v)
		}
		own, slabbed := mk(nil), mk(NewCPSlab(1))
		r := rand.New(rand.NewPCG(7, 8))
		for i := range 20000 {
			qlen := r.IntN(150e3)
			fa, fb := Frame{Source: i % 4, Bytes: 1500, Sent: Time(i)}, Frame{Source: i % 4, Bytes: 1500, Sent: Time(i)}
			var ka, kb Feedback
			sa, sb := own.Arrive(Time(i)*1200e3, &fa, qlen, &ka), slabbed.Arrive(Time(i)*1200e3, &fb, qlen, &kb)
			if sa != sb || ka != kb || fa != fb {
				t.Fatalf("%s, frame %d: %v %+v %+v on its own, %v %+v %+v from a slab", s, i, sa, ka, fa, sb, kb, fb)
			}
		}
	}
}
