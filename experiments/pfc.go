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

// validatePFC checks PFC's thresholds against every port's buffer and
// headroom (their keys against each other are the registry's,
// keys.CrossRules); cfg is the network as the model will see it.
func (e *Experiment) validatePFC(bad func(key, format string, args ...any), cfg model.Config) {
	n := e.Network
	if !n.PFC || e.Model == "fluid" {
		return
	}
	for _, v := range []*units.Bytes{n.PFCXoff, n.PFCXon} {
		if v != nil && (*v < 0 || float64(*v) != float64(int64(*v))) {
			return // the registry reports it
		}
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
