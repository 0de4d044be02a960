package model

import "unsafe"

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

// startRings gives the queue and the link of every port that frames may
// cross (queueBounds, as Estimate counts them) their first ringMin slots,
// which three in four never outgrow, from two arrays in the ports' order:
// neighbouring ports' slots are neighbours, and on a large fabric, whose
// hops read them at random, they sit in huge pages (hugeSlice). A ring
// that grows moves to a buffer of its own (ring.grow), as it did from
// its first.
func (s *Packet) startRings(n *network) {
	queues := queueBounds(&s.cfg, n)
	var used int
	for _, q := range queues {
		if q > 0 {
			used++
		}
	}
	links, records := hugeSlice[frame](ringMin*used), hugeSlice[queued](ringMin*used)
	for j, q := range queues {
		if q == 0 {
			continue // no frame crosses it: no rings
		}
		p := &s.portStore[j]
		p.link.buf, links = links[:ringMin:ringMin], links[ringMin:]
		p.queue.buf, records = records[:ringMin:ringMin], records[ringMin:]
	}
}

// hugeHeapPays says whether a network of n ports has hot state enough for
// huge pages under its heap to pay (adviseHeap): its ports and their
// rings' first slots, what every hop reads at random, at least half what
// the cores' second-level TLB covers in 4 KB pages (2,048 entries on the
// build machine, 8 MB), for the flows, hosts, histograms and agenda add
// about as much. A k = 16 fat-tree's do (4.3 MB), k = 8's do not (0.53
// MB), nor, since the rings start with four slots, k = 14's (2.9 MB).
func hugeHeapPays(n int) bool {
	const tlbReach = 8 << 20
	perPort := unsafe.Sizeof(port{}) + ringMin*(unsafe.Sizeof(frame{})+unsafe.Sizeof(queued{}))
	return uintptr(n)*perPort >= tlbReach/2
}
