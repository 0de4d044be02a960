package model

import (
	"math/bits"
	"unsafe"
)

// hugeSlice makes a slice of n zero values, written through, so that
// its memory is in use at once, whole, and adviseHeap moves it into huge
// pages with the rest of a large network's state: memory fresh from the
// system is otherwise mapped page by page as the hops first touch it,
// and a region mostly untouched stays in small pages.
func hugeSlice[T any](n int) []T {
	s := make([]T, n)
	clear(s)
	return s
}

// startRings gives the ring of every port that frames may cross
// (queueBounds, as Estimate counts them) its first ringMin slots, which
// three in four never outgrow, from one array in the ports' order:
// neighbouring ports' slots are neighbours, and on a large fabric, whose
// hops read them at random, they sit in huge pages (hugeSlice). A port
// keeps the frames that go on to a switch in link, those that leave the
// network in exits (network.streams); a chain's port where flows both
// end and go on has both, and its queue's order (order). A ring that
// grows moves to a buffer of its own (ring.grow), as it did from its
// first.
func (s *Packet) startRings(n *network) {
	queues := queueBounds(&s.cfg, n)
	streams := make([]uint8, len(queues))
	var used int
	for j, q := range queues {
		if q > 0 {
			streams[j] = n.streams(j)
			used += bits.OnesCount8(streams[j])
		}
	}
	slots := hugeSlice[frame](ringMin * used)
	take := func(r *ring[frame]) {
		r.buf, slots = slots[:ringMin:ringMin], slots[ringMin:]
	}
	for j, q := range queues {
		if q == 0 {
			continue // no frame crosses it: no rings
		}
		p := &s.portStore[j]
		if streams[j]&streamOnward != 0 {
			take(&p.link)
		}
		if streams[j]&streamExit != 0 {
			take(&p.exits)
		}
		if streams[j] == streamOnward|streamExit {
			p.order.buf = make([]uint8, ringMin)
		}
	}
}

// hugeHeapPays says whether a network of n ports has hot state enough for
// huge pages under its heap to pay (adviseHeap): its ports and their
// rings' first slots, what every hop reads at random, at least 3/8 of
// what the cores' second-level TLB covers in 4 KB pages (2,048 entries on
// the build machine, 8 MB), for the flows, hosts, histograms and agenda
// add more than as much. A k = 16 fat-tree's do (3.9 MB), k = 8's do not
// (0.49 MB), nor, since the rings start with four slots, k = 14's (2.6
// MB): the line stays between those two, where it fell when a port's
// rings took a queue entry and a record a slot, not the record alone.
func hugeHeapPays(n int) bool {
	const tlbReach = 8 << 20
	perPort := unsafe.Sizeof(port{}) + ringMin*unsafe.Sizeof(frame{})
	return uintptr(n)*perPort >= tlbReach*3/8
}
