package experiments

import (
	"strings"

	"qcnlab/model"
	"qcnlab/units"
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
	thresholds := []struct {
		key string
		v   *units.Bytes
	}{{"network.pfc_xoff", n.PFCXoff}, {"network.pfc_xon", n.PFCXon}}
	for _, k := range thresholds {
		switch {
		case k.v == nil:
		case !n.PFC:
			bad(k.key, "set network.pfc = true for the thresholds to apply")
		case *k.v < 0 || float64(*k.v) != float64(int64(*k.v)):
			bad(k.key, "must be a whole number of bytes, not negative")
			return
		}
	}
	if !n.PFC {
		return
	}
	if e.Model == "fluid" {
		bad("network.pfc", "the fluid model has no PFC; use model = \"packet\"")
		return
	}
	cfg.PFC = e.pfcConfig()
	if _, err := cfg.PFCThresholds(); err != nil {
		// The model names the threshold at fault first: "XON ...", "XOFF ...".
		key := "network.pfc"
		switch {
		case strings.HasPrefix(err.Error(), "XON") && n.PFCXon != nil:
			key = "network.pfc_xon"
		case strings.HasPrefix(err.Error(), "XOFF") && n.PFCXoff != nil:
			key = "network.pfc_xoff"
		}
		bad(key, "%v", err)
	}
}
