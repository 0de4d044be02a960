package prefetch

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"unsafe"
)

// BenchmarkChainedReads reads, for each of a known sequence of items, a
// 64-byte record at random from 256 MB (written, so in memory, far beyond
// the caches) and then the record it names, and works on them a while, as
// a large fabric's event reads a port, then the port its frame enters,
// in some hundreds of instructions (too many for the processor to start
// the next item's reads before it is done): alone (none), or with a
// pipeline that asks for an item's first record eight items ahead and,
// four items ahead, reads it to ask for the second (ahead).
func BenchmarkChainedReads(b *testing.B) {
	type record struct {
		next int64
		_    [7]int64
	}
	data := make([]record, 1<<22)
	r := rand.New(rand.NewPCG(1, 2))
	for i := range data {
		data[i].next = int64(r.IntN(len(data)))
	}
	order := make([]int32, 1<<20)
	for i := range order {
		order[i] = int32(r.IntN(len(data)))
	}
	for _, c := range []struct {
		name  string
		ahead bool
	}{{"none", false}, {"ahead", true}} {
		b.Run(c.name, func(b *testing.B) {
			var sum int64
			for b.Loop() {
				for i, j := range order {
					if c.ahead {
						if i+8 < len(order) {
							Line(unsafe.Pointer(&data[order[i+8]]))
						}
						if i+4 < len(order) {
							Line(unsafe.Pointer(&data[data[order[i+4]].next]))
						}
					}
					x := data[data[j].next].next
					for k := range 100 { // the event's work, one step after another
						x = x*31 + int64(k)
					}
					sum += x
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(order)), "ns/item")
			_ = sum
		})
	}
}

// Line and Lines never fault, even on nil, or past what p points to.
func TestLineNeverFaults(t *testing.T) {
	Line(nil)
	Lines(nil, 4)
	var x int
	Line(unsafe.Pointer(&x))
	Lines(unsafe.Pointer(&x), 3)
	Lines(unsafe.Pointer(&x), 0)
	Lines(unsafe.Pointer(&x), -1)
}

// BenchmarkDependentReads is the machine's memory as a large fabric's
// hop meets it: reads of 64-byte records at random from a working set of
// the size named, each naming the next (a random cycle over all of
// them), so that each waits for the one before, as a hop's reads of a
// port, its frame and the port that frame enters do. It reports the
// nanoseconds a read takes: the step from a size that the caches hold
// to one they do not is what a fabric's hot state meets as it grows
// (the README's cost per frame-hop by fabric size).
func BenchmarkDependentReads(b *testing.B) {
	type record struct {
		next int64
		_    [7]int64
	}
	for _, mb := range []int{1, 2, 3, 4, 8, 32, 128} {
		b.Run(fmt.Sprintf("%dMB", mb), func(b *testing.B) {
			data := make([]record, mb<<20/int(unsafe.Sizeof(record{})))
			r := rand.New(rand.NewPCG(1, uint64(mb)))
			cycle := r.Perm(len(data))
			for i, j := range cycle {
				data[j].next = int64(cycle[(i+1)%len(cycle)])
			}
			const reads = 1 << 20
			at := int64(cycle[0])
			for b.Loop() {
				for range reads {
					at = data[at].next
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*reads), "ns/read")
			if at < 0 {
				b.Fatal("a record names no record")
			}
		})
	}
}
