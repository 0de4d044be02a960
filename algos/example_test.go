package algos_test

import (
	"fmt"
	"math/rand/v2"

	"qcnlab/algos"
)

// A QCN reaction point on a 10 Gbps link, fed one feedback frame: its
// current rate falls by Gd*Fb (seed 001, pseudo-code v2.2). Time, sizes and
// randomness come in as arguments: no simulator is needed.
func Example() {
	scheme, err := algos.Lookup("qcn")
	if err != nil {
		panic(err)
	}
	network := algos.Network{Capacity: 10e9, LineRate: 10e9, Sources: 2, Buffer: 150e3, FrameBytes: 1500}
	values, err := scheme.Resolve(network, nil) // the defaults for this network
	if err != nil {
		panic(err)
	}
	rp := scheme.NewRP(algos.RPEnv{Network: network, LineRate: 10e9, InitialRate: 10e9,
		Rand: rand.New(rand.NewPCG(1, 2))}, values)
	fmt.Printf("before: %.2f Gbps\n", rp.Rate()/1e9)

	// A congestion point sends Fb = 32, of the quantised measure's 63: with
	// the default Gd = 1/128 the rate falls by a quarter.
	rp.Feedback(algos.Millisecond, algos.Feedback{CPID: 1, Fb: 32})
	fmt.Printf("after Fb = 32: %.2f Gbps\n", rp.Rate()/1e9)
	// Output:
	// before: 10.00 Gbps
	// after Fb = 32: 7.50 Gbps
}
