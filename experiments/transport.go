package experiments

import (
	"slices"

	"qcnlab/algos"
	"qcnlab/experiments/keys"
	"qcnlab/model"
	"qcnlab/units"
)

// Transport is [transport]: the transport layer of the ACK-clocked schemes
// (DCTCP, TIMELY, HPCC, Swift; model/transport.go). The rate-based schemes
// (the 802.1Qau family, DCQCN) run open loop, as their seeds do, unless
// recovery is set to go_back_n or selective: then their flows run over the
// transport too, their scheme still setting the rate.
type Transport struct {
	// AckEvery: the receiver acknowledges each time its cumulative
	// sequence passes a multiple of it (the HPCC code's L2_ACK_INTERVAL);
	// nil: every frame.
	AckEvery *units.Bytes `toml:"ack_every,omitempty"`
	// Recovery is "go_back_n", "selective" or "none"; "": go_back_n for the
	// ACK-clocked schemes, none (open loop) for the rate-based ones.
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
	out.RateSchemes = t.ratesRecover()
	return out
}

// ratesRecover says the rate-based schemes run over the transport: the
// file asks for a recovery (keys.RatesRecover).
func (t Transport) ratesRecover() bool { return keys.RatesRecover(t.Recovery) }
