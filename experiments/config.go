package experiments

import (
	"fmt"

	"qcnlab/algos"
	"qcnlab/model"
)

// SourceConfigs lists every source with the [sources] table's settings and
// its overrides applied, in base units.
func (e *Experiment) SourceConfigs() []model.SourceConfig {
	s := e.Sources
	base := model.SourceConfig{
		LineRate:      float64(e.Network.Capacity),
		ForwardDelay:  algos.Time(e.Network.RTT) / 2,
		BackwardDelay: algos.Time(e.Network.RTT) - algos.Time(e.Network.RTT)/2,
		Start:         algos.Time(s.Start),
		Stop:          algos.Time(s.Stop),
	}
	if s.LineRate != nil {
		base.LineRate = float64(*s.LineRate)
	}
	base.InitialRate = base.LineRate
	if s.InitialRate != nil {
		base.InitialRate = float64(*s.InitialRate)
	}
	if s.ForwardDelay != nil {
		base.ForwardDelay = algos.Time(*s.ForwardDelay)
	}
	if s.BackwardDelay != nil {
		base.BackwardDelay = algos.Time(*s.BackwardDelay)
	}
	base.Path = s.Path
	if base.Path == nil {
		base.Path = e.defaultPath()
	}
	out := make([]model.SourceConfig, max(0, s.Count))
	for i := range out {
		out[i] = base
	}
	for _, o := range s.Override {
		for _, id := range o.IDs {
			if id < 0 || id >= len(out) {
				continue // reported by Validate
			}
			c := &out[id]
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
				c.ForwardDelay = algos.Time(*o.RTT) / 2
				c.BackwardDelay = algos.Time(*o.RTT) - c.ForwardDelay
			}
			if o.ForwardDelay != nil {
				c.ForwardDelay = algos.Time(*o.ForwardDelay)
			}
			if o.BackwardDelay != nil {
				c.BackwardDelay = algos.Time(*o.BackwardDelay)
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
// them for a parking lot.
func (e *Experiment) LinkConfigs() []model.LinkConfig {
	links := make([]model.LinkConfig, max(1, e.LinkCount()))
	for j := range links {
		links[j] = model.LinkConfig{Capacity: float64(e.Network.Capacity), Buffer: int(e.Network.Buffer)}
		if j < len(links)-1 {
			links[j].Delay = e.HopDelay()
		}
	}
	return links
}

// SchemeNetwork is what the schemes derive their defaults from.
func (e *Experiment) SchemeNetwork() algos.Network {
	c := model.Config{
		Capacity:   float64(e.Network.Capacity),
		Buffer:     int(e.Network.Buffer),
		FrameBytes: int(e.Network.FrameSize),
		Links:      e.LinkConfigs(),
		Sources:    e.SourceConfigs(),
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
	return model.Config{
		Model:             e.Model,
		Scheme:            sc,
		Params:            v,
		Seed:              e.Seed,
		Duration:          algos.Time(e.Duration),
		Warmup:            e.WarmupTime(),
		Capacity:          float64(e.Network.Capacity),
		Buffer:            int(e.Network.Buffer),
		FrameBytes:        int(e.Network.FrameSize),
		Links:             e.LinkConfigs(),
		Sources:           e.SourceConfigs(),
		SampleInterval:    algos.Time(e.Output.SampleInterval),
		RateWindow:        algos.Time(e.Output.RateWindow),
		FairnessThreshold: e.Output.FairnessThreshold,
	}, nil
}
