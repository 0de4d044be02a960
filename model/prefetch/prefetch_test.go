package prefetch

import (
	"math/rand/v2"
	"testing"
	"unsafe"
)

// BenchmarkRandomReads reads 64-byte records at random from 256 MB, far
// beyond the caches, as a large fabric's hops read its ports: each read
// alone (none), or with the record eight reads ahead asked for (ahead).
func BenchmarkRandomReads(b *testing.B) {
	type record [8]int64
	data := make([]record, 1<<22)
	r := rand.New(rand.NewPCG(1, 2))
	order := make([]int32, 1<<20)
	for i := range order {
		order[i] = int32(r.IntN(len(data)))
	}
	for _, c := range []struct {
		name  string
		ahead int
	}{{"none", 0}, {"ahead", 8}} {
		b.Run(c.name, func(b *testing.B) {
			var sum int64
			for b.Loop() {
				for i, j := range order {
					if c.ahead > 0 && i+c.ahead < len(order) {
						Line(unsafe.Pointer(&data[order[i+c.ahead]]))
					}
					sum += data[j][0]
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(order)), "ns/read")
			_ = sum
		})
	}
}

// Line never faults, even on nil.
func TestLineNeverFaults(t *testing.T) {
	Line(nil)
	var x int
	Line(unsafe.Pointer(&x))
}
