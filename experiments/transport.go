package experiments

import (
	"slices"

	"qcnlab/algos"
	"qcnlab/model"
	"qcnlab/units"
)

// Transport is [transport]: the transport layer of the ACK-clocked schemes
// (DCTCP, TIMELY, HPCC, Swift; model/transport.go). The other schemes run
// open loop, as their seeds do, whatever it says.
type Transport struct {
	// AckEvery: the receiver acknowledges each time its cumulative
	// sequence passes a multiple of it (the HPCC code's L2_ACK_INTERVAL);
	// nil: every frame.
	AckEvery *units.Bytes `toml:"ack_every,omitempty"`
	// Recovery is "go_back_n", "selective" or "none"; "": go_back_n.
	Recovery string          `toml:"recovery,omitempty"`
	RTOMin   *units.Duration `toml:"rto_min,omitempty"`
}

// transportConfig is the model's transport setting.
func (e *Experiment) transportConfig() model.Transport {
	t := e.Transport
	var out model.Transport
	if t.AckEvery != nil {
		out.AckEvery = int64(*t.AckEvery)
	}
	if i := slices.Index(model.Recoveries, t.Recovery); i >= 0 {
		out.Recovery = model.Recovery(i)
	}
	if t.RTOMin != nil {
		out.RTOMin = algos.Time(*t.RTOMin)
	}
	return out
}

// ackClocked says some algorithm of the experiment runs over the transport.
func (e *Experiment) ackClocked() bool {
	for _, name := range e.Algorithms {
		if sc, err := algos.Lookup(name); err == nil && sc.NeedsTransport() {
			return true
		}
	}
	return false
}

// validateTransport checks [transport].
func (e *Experiment) validateTransport(bad func(key, format string, args ...any)) {
	t := e.Transport
	set := t.AckEvery != nil || t.Recovery != "" || t.RTOMin != nil
	if !set {
		return
	}
	if !e.ackClocked() {
		bad("transport", "applies to the ACK-clocked schemes (dctcp, hpcc, swift, timely), and the experiment runs none; the others run open loop")
	}
	if e.Model != "packet" {
		bad("transport", "the transport is the packet model's; use model = \"packet\"")
	}
	if a := t.AckEvery; a != nil && !(*a >= 1 && float64(*a) == float64(int64(*a))) {
		bad("transport.ack_every", "must be a whole number of bytes, at least 1 (1 B: every frame)")
	}
	if r := t.Recovery; r != "" && !slices.Contains(model.Recoveries, r) {
		bad("transport.recovery", "%q: must be one of %q", r, model.Recoveries)
	}
	if r := t.RTOMin; r != nil && !(*r > 0 && algos.Time(*r) < algos.Never) {
		bad("transport.rto_min", "must be a positive, finite duration")
	}
}
