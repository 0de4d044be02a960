package model

import (
	"fmt"

	"qcnlab/algos"
)

// Sim is a simulation model: packet-level, fluid or seed 002's convergence
// model.
type Sim interface {
	// Advance runs the model up to time until, or to the end of the run.
	Advance(until algos.Time)
	Now() algos.Time
	Done() bool
	// Summary reports the metrics over [warmup, now].
	Summary() Summary
	// Events is the number of discrete events (packet model) or
	// integration steps (fluid model) so far.
	Events() uint64
	// Frames is the number of frames that have left the bottleneck (for
	// the fluid model, the bytes that left over the frame size).
	Frames() uint64
}

// Models are the models New builds.
var Models = []string{"packet", "fluid", "convergence"}

// New builds the model cfg.Model names ("packet" when empty).
func New(cfg Config) (Sim, error) {
	if cfg.Fabric != nil && cfg.Model != "" && cfg.Model != "packet" {
		return nil, fmt.Errorf("the %s model runs a dumbbell or a parking lot, not a fabric: use the packet model", cfg.Model)
	}
	switch cfg.Model {
	case "", "packet":
		return NewPacket(cfg)
	case "fluid":
		return NewFluid(cfg)
	case "convergence":
		return NewConvergence(cfg)
	}
	return nil, fmt.Errorf("unknown model %q (known: %q)", cfg.Model, Models)
}
