package topology

import "qcnlab/algos"

// Benched is a topology qcnlab bench measures.
type Benched interface {
	Bench() Bench
}

// Bench is the network qcnlab bench measures on a topology.
type Bench struct {
	Description string           // what the benchmark runs, in a line
	Duration    algos.Time       // the simulated time measured when the command line does not say
	Sources     int              // a chain's greedy sources
	Size        func(n *Network) // sets the sizes the benchmark's network has; nil for the defaults
}

// Benchmarks lists the topologies qcnlab bench measures, sorted.
func Benchmarks() []string {
	var names []string
	for _, name := range Names() {
		if _, ok := registered[name].(Benched); ok {
			names = append(names, name)
		}
	}
	return names
}

// BenchOf is the benchmark on the topology of that name; false when qcnlab
// bench does not measure it.
func BenchOf(name string) (Bench, bool) {
	if t, ok := registered[name].(Benched); ok {
		return t.Bench(), true
	}
	return Bench{}, false
}
