package experiments

import (
	"strings"

	"qcnlab/algos"

	"qcnlab/model"
	"qcnlab/units"
)

// pfcConfig is the model's PFC setting, nil when network.pfc is off.
func (e *Experiment) pfcConfig() *model.PFC {
	n := e.Network
	if !n.PFC {
		return nil
	}
	p := &model.PFC{Xoff: -1, Xon: -1, Ingress: e.PFCAccounting() == "ingress", DeadlockAfter: defaultDeadlockAfter, Lossless: e.losslessClasses()}
	if n.PFCDeadlockAfter != nil {
		p.DeadlockAfter = algos.Time(*n.PFCDeadlockAfter)
	}
	if n.PFCThreshold == "dynamic" || n.PFCThreshold == "" && e.BufferModel() == "shared" {
		p.Dynamic, p.Alpha = true, defaultPFCAlpha
		if n.PFCAlpha != nil {
			p.Alpha = *n.PFCAlpha
		}
	}
	if n.PFCXoff != nil {
		p.Xoff = int(*n.PFCXoff)
	}
	if n.PFCXon != nil {
		p.Xon = int(*n.PFCXon)
	}
	return p
}

// defaultDeadlockAfter is how long a cycle of paused ports, each with
// frames and waiting on the next, must hold before the run stops as a PFC
// deadlock (model/deadlock.go): a millisecond is some 800 frame times at
// 10 Gbps, far longer than any pause that a cycle does not hold. With
// ingress accounting only; network.pfc_deadlock_after = "0s" turns it off.
const defaultDeadlockAfter = algos.Millisecond

// defaultPFCAlpha is the dynamic threshold's share of a switch's free
// shared buffer: HPCC's simulation's 1/8 (pfc_a_shift 3 for a port at the
// hosts' rate, alibaba-edu/High-Precision-Congestion-Control scratch/
// third.cc).
const defaultPFCAlpha = 0.125

// PFCAccounting is network.pfc_accounting or its default: "ingress" on a
// fabric, PAUSE decided per link into a switch from the bytes that came in
// by it, as both public ns-3 RDMA switch models decide it (model/
// pfc_ingress.go); "egress" on a chain, per port from its queue, pausing
// every link that feeds it, as seed 000 section II describes a congested
// buffer pausing its upstream buffers (and the seeds' figures keep their
// numbers).
func (e *Experiment) PFCAccounting() string {
	switch {
	case e.Network.PFCAccounting != "":
		return e.Network.PFCAccounting
	case e.IsFabric():
		return "ingress"
	}
	return "egress"
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
	if d := n.PFCDeadlockAfter; d != nil {
		switch {
		case *d < 0:
			bad("network.pfc_deadlock_after", "must not be negative (0s turns the check off)")
		case !n.PFC:
			bad("network.pfc_deadlock_after", "set network.pfc = true for the check to apply")
		case e.PFCAccounting() != "ingress":
			bad("network.pfc_deadlock_after", "the deadlock check follows ingress accounting: set network.pfc_accounting = \"ingress\"")
		}
	}
	switch t := n.PFCThreshold; {
	case t == "":
	case t != "static" && t != "dynamic":
		bad("network.pfc_threshold", "%q: must be \"static\" or \"dynamic\"", t)
	case !n.PFC:
		bad("network.pfc_threshold", "set network.pfc = true for the threshold to apply")
	case t == "dynamic" && e.PFCAccounting() != "ingress":
		bad("network.pfc_threshold", "dynamic thresholds need ingress accounting: set network.pfc_accounting = \"ingress\"")
	case t == "dynamic" && (n.PFCXoff != nil || n.PFCXon != nil):
		bad("network.pfc_threshold", "dynamic thresholds are derived: leave network.pfc_xoff and network.pfc_xon out")
	}
	if a := n.PFCAlpha; a != nil {
		switch {
		case n.PFCThreshold != "dynamic" && e.BufferModel() != "shared":
			bad("network.pfc_alpha", "set network.pfc_threshold = \"dynamic\" for it to apply")
		case !(*a > 0 && *a <= 16):
			bad("network.pfc_alpha", "must be in (0, 16]")
		}
	}
	if a := n.PFCAccounting; a != "" {
		switch {
		case a != "ingress" && a != "egress":
			bad("network.pfc_accounting", "%q: must be \"ingress\" or \"egress\"", a)
		case !n.PFC:
			bad("network.pfc_accounting", "set network.pfc = true for the accounting to apply")
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
