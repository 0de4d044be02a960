package experiments

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"

	"qcnlab/algos"
	"qcnlab/model"
)

// SourceConfigs lists every source with the [sources] table's settings and
// its overrides applied, in base units. A delay given as a distribution is
// drawn for each source from its own stream of the experiment seed, in the
// order the settings apply: the [sources] delays, then each override's.
func (e *Experiment) SourceConfigs() []model.SourceConfig {
	s := e.Sources
	base := model.SourceConfig{
		LineRate: float64(e.Network.Capacity),
		Start:    algos.Time(s.Start),
		Stop:     algos.Time(s.Stop),
		Class:    e.TrafficClass(),
	}
	half := FixedDelay(algos.Time(e.Network.RTT) / 2)
	fwd, bwd := half, FixedDelay(algos.Time(e.Network.RTT)-algos.Time(e.Network.RTT)/2)
	if s.ForwardDelay != nil {
		fwd = *s.ForwardDelay
	}
	if s.BackwardDelay != nil {
		bwd = *s.BackwardDelay
	}
	if s.LineRate != nil {
		base.LineRate = float64(*s.LineRate)
	}
	base.InitialRate = base.LineRate
	if s.InitialRate != nil {
		base.InitialRate = float64(*s.InitialRate)
	}
	base.Path = s.Path
	if base.Path == nil {
		base.Path = e.defaultPath()
	}
	// An invalid count (Validate reports it) must not allocate.
	out := make([]model.SourceConfig, min(max(0, s.Count), model.MaxSources))
	draws := make([]*rand.Rand, len(out))
	for i := range out {
		out[i] = base
		draws[i] = model.DelayRand(e.Seed, model.StreamSourceDelays+uint64(i))
		out[i].ForwardDelay = fwd.Dist().Draw(draws[i])
		out[i].BackwardDelay = bwd.Dist().Draw(draws[i])
	}
	for _, o := range s.Override {
		for _, id := range o.IDs {
			if id < 0 || id >= len(out) {
				continue // reported by Validate
			}
			c, r := &out[id], draws[id]
			lineChanged := o.LineRate != nil
			if lineChanged {
				// An overridden line rate carries the default initial rate with it.
				if c.InitialRate == c.LineRate && s.InitialRate == nil {
					c.InitialRate = float64(*o.LineRate)
				}
				c.LineRate = float64(*o.LineRate)
			}
			if o.InitialRate != nil {
				c.InitialRate = float64(*o.InitialRate)
			}
			if o.RTT != nil {
				rtt := o.RTT.Dist().Draw(r)
				c.ForwardDelay = rtt / 2
				c.BackwardDelay = rtt - c.ForwardDelay
			}
			if o.ForwardDelay != nil {
				c.ForwardDelay = o.ForwardDelay.Dist().Draw(r)
			}
			if o.BackwardDelay != nil {
				c.BackwardDelay = o.BackwardDelay.Dist().Draw(r)
			}
			if o.Start != nil {
				c.Start = algos.Time(*o.Start)
			}
			if o.Stop != nil {
				c.Stop = algos.Time(*o.Stop)
			}
			if o.Path != nil {
				c.Path = o.Path
			}
		}
	}
	return out
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
	cfg.Classes = e.classParams(sc, cfg.Classes)
	cfg.ControlFrames = e.SendsControlFrames(algorithm)
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
		PFC:               e.pfcConfig(),
		Transport:         e.transportConfig(),
		Classes:           e.classesConfig(),
		Shared:            e.sharedBuffer(),
		ClockPPM:          e.ClockPPM(),
		SwitchJitter:      e.SwitchJitter(),
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
