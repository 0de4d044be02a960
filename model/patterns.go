package model

import (
	"fmt"
	"math/rand/v2"

	"qcnlab/algos"
	"qcnlab/model/topo"
)

// Traffic patterns for a fabric: plain functions that list flows, greedy
// and starting at 0; set a flow's Size, Start or Stop after. Random choices
// come from the experiment seed, each pattern its own stream, so the same
// seed gives the same flows.

// Permutation is one greedy flow from every host to another, every host
// receiving one: a random derangement of the hosts (no host sends to
// itself), drawn uniformly.
func Permutation(hosts int, seed uint64) []Flow {
	if hosts < 2 {
		return nil
	}
	r := rand.New(rand.NewPCG(seed, streamPattern))
	to := make([]int, hosts)
	for {
		for i := range to {
			to[i] = i
		}
		r.Shuffle(hosts, func(i, j int) { to[i], to[j] = to[j], to[i] })
		if derangement(to) {
			break
		}
	}
	flows := make([]Flow, hosts)
	for i := range flows {
		flows[i] = Flow{From: i, To: to[i]}
	}
	return flows
}

func derangement(to []int) bool {
	for i, j := range to {
		if i == j {
			return false
		}
	}
	return true
}

// AllToAll is one greedy flow from every host to every other: n(n-1)
// flows, the flows of a host in the order of their receivers.
func AllToAll(hosts int) []Flow {
	var flows []Flow
	for i := 0; i < hosts; i++ {
		for j := 0; j < hosts; j++ {
			if i != j {
				flows = append(flows, Flow{From: i, To: j})
			}
		}
	}
	return flows
}

// Incast is senders flows of size bytes each into host receiver, from
// hosts drawn from the seed among those not under the receiver's switch
// (their traffic meets at its port down to the receiver), or among all the
// others where every host is under it (a star, a single leaf), starting
// together at start, or spread uniformly over [start, start+jitter) when
// jitter is positive. They are marked Incast: the summary reports their
// completion.
func Incast(t *topo.Topology, receiver, senders int, size int64, start, jitter algos.Time, seed uint64) ([]Flow, error) {
	if receiver < 0 || receiver >= len(t.Hosts) {
		return nil, fmt.Errorf("incast: receiver %d is out of range: the topology has hosts 0 to %d", receiver, len(t.Hosts)-1)
	}
	var far []int
	for h := range t.Hosts {
		if t.Attach(h) != t.Attach(receiver) {
			far = append(far, h)
		}
	}
	if len(far) == 0 { // one switch: every other host's traffic meets there
		for h := range t.Hosts {
			if h != receiver {
				far = append(far, h)
			}
		}
		if senders < 1 || senders > len(far) {
			return nil, fmt.Errorf("incast: %d senders into host %d, but the one switch has %d other hosts", senders, receiver, len(far))
		}
	}
	if senders < 1 || senders > len(far) {
		return nil, fmt.Errorf("incast: %d senders into host %d, but %d hosts are not under its switch", senders, receiver, len(far))
	}
	r := rand.New(rand.NewPCG(seed, streamPattern+1))
	r.Shuffle(len(far), func(i, j int) { far[i], far[j] = far[j], far[i] })
	return IncastFrom(receiver, far[:senders], size, start, jitter, seed)
}

// IncastFrom is Incast with the senders given, in their order.
func IncastFrom(receiver int, senders []int, size int64, start, jitter algos.Time, seed uint64) ([]Flow, error) {
	r := rand.New(rand.NewPCG(seed, streamPattern+2))
	flows := make([]Flow, len(senders))
	for i, h := range senders {
		if h == receiver {
			return nil, fmt.Errorf("incast: sender %d is the receiver", h)
		}
		flows[i] = Flow{From: h, To: receiver, Size: size, Start: start, Incast: true}
		if jitter > 0 {
			flows[i].Start += algos.Time(r.Int64N(int64(jitter)))
		}
	}
	return flows, nil
}
