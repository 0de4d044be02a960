package model

import (
	"unsafe"

	"qcnlab/model/topo"
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
// whose frames go on to a switch keeps them in link, one whose frames
// leave the network at a host in exits; a chain's port, which may do
// both, has both, and its queue's order (order). A ring that grows moves
// to a buffer of its own (ring.grow), as it did from its first.
func (s *Packet) startRings(n *network) {
	queues := queueBounds(&s.cfg, n)
	var used int
	for _, q := range queues {
		if q > 0 && n.chain {
			used += 2
		} else if q > 0 {
			used++
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
		switch {
		case n.chain:
			take(&p.link)
			take(&p.exits)
			p.order.buf = make([]uint8, ringMin)
		case n.topo.Nodes[p.to].Kind == topo.Host:
			take(&p.exits)
		default:
			take(&p.link)
		}
	}
}

// hugeHeapPays says whether a network of n ports has hot state enough for
// huge pages under its heap to pay (adviseHeap): its ports and their
// rings' first slots, what every hop reads at random, at least 3/8 of
// what the cores' second-level TLB covers in 4 KB pages (2,048 entries on
// the build machine, 8 MB), for the flows, hosts, histograms and agenda
// add more than as much. A k = 16 fat-tree's do (4.1 MB), k = 8's do not
// (0.51 MB), nor, since the rings start with four slots, k = 14's (2.7
// MB): the line stays between those two, where it fell when a port's
// rings took 48 bytes a slot (a queue entry and a record), not 40.
func hugeHeapPays(n int) bool {
	const tlbReach = 8 << 20
	perPort := unsafe.Sizeof(port{}) + ringMin*unsafe.Sizeof(frame{})
	return uintptr(n)*perPort >= tlbReach*3/8
}
