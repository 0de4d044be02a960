package experiments

import (
	"qcnlab/experiments/units"
	"qcnlab/model"
)

// pfcConfig is the model's PFC setting, nil when network.pfc is off.
func (e *Experiment) pfcConfig() *model.PFC {
	n := e.Network
	if !n.PFC {
		return nil
	}
	p := &model.PFC{Xoff: -1, Xon: -1}
	if n.PFCXoff != nil {
		p.Xoff = int(*n.PFCXoff)
	}
	if n.PFCXon != nil {
		p.Xon = int(*n.PFCXon)
	}
	return p
}

// validatePFC checks network.pfc and its thresholds against every port's
// buffer and headroom; cfg is the network as the model will see it.
func (e *Experiment) validatePFC(bad func(key, format string, args ...any), cfg model.Config) {
	n := e.Network
	if !n.PFC {
		for _, k := range []struct {
			key string
			v   *units.Bytes
		}{{"network.pfc_xoff", n.PFCXoff}, {"network.pfc_xon", n.PFCXon}} {
			if k.v != nil {
				bad(k.key, "set network.pfc = true for the thresholds to apply")
			}
		}
		return
	}
	if e.Model == "fluid" {
		bad("network.pfc", "the fluid model has no PFC; use model = \"packet\"")
		return
	}
	for _, k := range []struct {
		key string
		v   *units.Bytes
	}{{"network.pfc_xoff", n.PFCXoff}, {"network.pfc_xon", n.PFCXon}} {
		if k.v != nil && (*k.v < 0 || float64(*k.v) != float64(int64(*k.v))) {
			bad(k.key, "must be a whole number of bytes, not negative")
			return
		}
	}
	cfg.PFC = e.pfcConfig()
	if _, err := cfg.PFCThresholds(); err != nil {
		key := "network.pfc"
		switch {
		case n.PFCXon != nil && n.PFCXoff == nil, n.PFCXon != nil && len(err.Error()) > 3 && err.Error()[:3] == "XON":
			key = "network.pfc_xon"
		case n.PFCXoff != nil:
			key = "network.pfc_xoff"
		}
		bad(key, "%v", err)
	}
}
