package model

import "unsafe"

// hugeSlice makes a slice of n zero values, in huge pages where it is
// large enough to hold some (adviseHugePages).
func hugeSlice[T any](n int) []T {
	s := make([]T, n)
	if n > 0 {
		adviseHugePages(unsafe.Pointer(&s[0]), uintptr(n)*unsafe.Sizeof(s[0]))
	}
	return s
}

// startRings gives the queue and the link of every port that frames may
// cross (queueBounds, as Estimate counts them) their first ringMin slots,
// which most never outgrow, from two arrays in the ports' order:
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
