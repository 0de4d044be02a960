package experiments

import (
	"qcnlab/algos"
)

// Hosts' clocks and switches' forwarding jitter (model/clock.go), the
// keys network.clock_ppm and network.switch_jitter.
//
// On a fabric they default to what real hardware has: clocks anywhere
// within Ethernet's +-100 ppm (IEEE 802.3), and a forwarding latency that
// varies by up to one frame time at network.capacity (1.2 us at 10 Gbps
// and 1500 B), the time a frame may wait for its turn among the ingress
// ports that contend for the same egress. Less jitter leaves line-rate
// senders locked in phase over windows of milliseconds (model/clock.go).
//
// On a chain (a dumbbell, a parking lot) both default to 0: the seeds'
// figures come from simulators whose sources and switches are exact, and
// keep their numbers.
const defaultClockPPM = 100

// ClockPPM is network.clock_ppm or its default.
func (e *Experiment) ClockPPM() float64 {
	switch {
	case e.Network.ClockPPM != nil:
		return *e.Network.ClockPPM
	case e.IsFabric():
		return defaultClockPPM
	}
	return 0
}

// SwitchJitter is network.switch_jitter or its default.
func (e *Experiment) SwitchJitter() algos.Time {
	switch {
	case e.Network.SwitchJitter != nil:
		return algos.Time(*e.Network.SwitchJitter)
	case e.IsFabric() && e.Network.Capacity > 0 && e.Network.FrameSize > 0:
		return algos.TransmitTime(int(e.Network.FrameSize), float64(e.Network.Capacity))
	}
	return 0
}
