package algos_test

import (
	"fmt"

	"qcnlab/algos"
)

// A DCTCP sender fed ACKs by hand: the first marked ACK cuts the window by
// alpha/2 (alpha starts at 1), the window's end updates alpha from the
// fraction marked.
func Example_dctcp() {
	scheme, err := algos.Lookup("dctcp")
	if err != nil {
		panic(err)
	}
	network := algos.Network{Capacity: 10e9, LineRate: 10e9, Sources: 2, Buffer: 1e6, FrameBytes: 1500}
	values, err := scheme.Resolve(network, nil)
	if err != nil {
		panic(err)
	}
	s := scheme.NewSender(algos.SenderEnv{Network: network, LineRate: 10e9, BaseRTT: 20 * algos.Microsecond}, values)
	fmt.Printf("start: window %.0f B\n", s.Window())
	for i := range 10 { // one window: 10 frames
		s.OnSend(0, int64(i)*1500, 1500)
	}
	for i := 1; i <= 10; i++ { // 4 of the 10 frames come back marked
		s.OnAck(algos.Time(i)*algos.Microsecond, &algos.Ack{Seq: int64(i) * 1500, ECE: i <= 4})
		if i == 1 {
			fmt.Printf("first marked ACK: window %.0f B\n", s.Window())
		}
	}
	fmt.Printf("window's end: alpha %.4f = 15/16 + 0.4/16, window %.0f B\n",
		s.(*algos.DCTCPSender).Alpha(), s.Window())
	// Output:
	// start: window 15000 B
	// first marked ACK: window 7500 B
	// window's end: alpha 0.9625 = 15/16 + 0.4/16, window 7500 B
}
