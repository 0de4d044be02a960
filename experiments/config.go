package experiments

import (
	"cmp"
	"fmt"
	"slices"

	"qcnlab/algos"
	"qcnlab/experiments/sources"
	"qcnlab/experiments/switches"
	"qcnlab/model"
)

// SourceConfigs lists every source with the [sources] table's settings and
// its overrides applied, in base units (sources.Configs).
func (e *Experiment) SourceConfigs() []model.SourceConfig {
	return sources.Configs(e.Sources, e.Network, e.defaultPath(), e.Seed, e.TrafficClass())
}

// LinkConfigs lists the congestible links: one for a dumbbell, a chain of
// them for a parking lot. A hop delay given as a distribution is drawn for
// each link from its own stream of the experiment seed.
func (e *Experiment) LinkConfigs() []model.LinkConfig {
	links := make([]model.LinkConfig, max(1, e.LinkCount()))
	hop := e.HopDelay().Dist()
	for j := range links {
		links[j] = model.LinkConfig{Capacity: float64(e.Network.Capacity), Buffer: int(e.Network.Buffer)}
		if j < len(links)-1 {
			links[j].Delay = hop.Draw(model.DelayRand(e.Seed, model.StreamHopDelays+uint64(j)))
		}
	}
	return links
}

// SchemeNetwork is what the schemes derive their defaults from.
func (e *Experiment) SchemeNetwork() algos.Network {
	if e.IsFabric() {
		f, err := e.Fabric()
		if err != nil {
			return algos.Network{} // Validate reports it
		}
		c := e.baseConfig()
		c.Fabric = f
		return c.Network()
	}
	c := model.Config{
		Capacity:   float64(e.Network.Capacity),
		Buffer:     int(e.Network.Buffer),
		FrameBytes: int(e.Network.FrameSize),
		Links:      e.LinkConfigs(),
		Sources:    e.SourceConfigs(),

		FeedbackLatency: e.Network.FeedbackLatency.Dist(),
	}
	return c.Network()
}

// Config builds the simulation of one algorithm of the experiment. The
// experiment should have passed Validate.
func (e *Experiment) Config(algorithm string) (model.Config, error) {
	sc, err := algos.Lookup(algorithm)
	if err != nil {
		return model.Config{}, err
	}
	v, err := e.ParamValues(algorithm)
	if err != nil {
		return model.Config{}, fmt.Errorf("params.%s: %w", algorithm, err)
	}
	cfg := e.baseConfig()
	cfg.Scheme, cfg.Params = sc, v
	cfg.Classes = switches.ClassParams(e.Network, sc, cfg.Classes)
	cfg.ControlFrames = switches.SendsControlFrames(e.Network, algorithm)
	if cfg.FlowBuckets, err = e.FlowBuckets(); err != nil {
		return model.Config{}, fmt.Errorf("output.fct_buckets: %w", err)
	}
	if e.IsFabric() {
		if cfg.Fabric, err = e.Fabric(); err != nil {
			return model.Config{}, err
		}
		return cfg, nil
	}
	if cfg.Traffic, err = e.trafficConfig(); err != nil {
		return model.Config{}, err
	}
	cfg.Links, cfg.Sources = e.LinkConfigs(), e.SourceConfigs()
	return cfg, nil
}

// baseConfig is the model configuration without the scheme and the
// network's hosts and flows.
func (e *Experiment) baseConfig() model.Config {
	return model.Config{
		PFC:               switches.PFC(e.Network),
		Transport:         e.transportConfig(),
		Classes:           switches.Classes(e.Network),
		Shared:            switches.SharedBuffer(e.Network),
		ClockPPM:          switches.ClockPPM(e.Network),
		SwitchJitter:      switches.SwitchJitter(e.Network),
		Model:             e.Model,
		Seed:              e.Seed,
		Duration:          algos.Time(e.Duration),
		Warmup:            e.WarmupTime(),
		Capacity:          float64(e.Network.Capacity),
		Buffer:            int(e.Network.Buffer),
		FrameBytes:        int(e.Network.FrameSize),
		SampleInterval:    algos.Time(e.Output.SampleInterval),
		RateWindow:        algos.Time(e.Output.RateWindow),
		FairnessThreshold: e.Output.FairnessThreshold,
		FeedbackLatency:   e.Network.FeedbackLatency.Dist(),
		Changes:           e.CapacityChanges(),
		Phases:            e.PhaseBoundaries(),
	}
}

// CapacityChanges lists [[network.changes]] in time order; of two at the
// same time, the later in the file wins.
func (e *Experiment) CapacityChanges() []model.CapacityChange {
	var out []model.CapacityChange
	for _, c := range e.Network.Changes {
		if c.At == nil || c.Capacity == nil {
			continue // Validate reports it
		}
		link := -1
		if c.Link != nil {
			link = *c.Link
		}
		out = append(out, model.CapacityChange{At: algos.Time(*c.At), Link: link, Capacity: float64(*c.Capacity)})
	}
	slices.SortStableFunc(out, func(a, b model.CapacityChange) int { return cmp.Compare(a.At, b.At) })
	return out
}

// PhaseBoundaries lists output.phases in base units.
func (e *Experiment) PhaseBoundaries() []algos.Time {
	var out []algos.Time
	for _, t := range e.Output.Phases {
		out = append(out, algos.Time(t))
	}
	return out
}
