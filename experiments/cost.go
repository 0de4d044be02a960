package experiments

import (
	"fmt"
	"math"

	"qcnlab/algos"
	"qcnlab/experiments/cost"
	"qcnlab/experiments/sweep"
	"qcnlab/experiments/switches"
	"qcnlab/experiments/tomltext"
	"qcnlab/model"
	"qcnlab/units"
)

// Limits on a file itself; what its runs may need is package cost's.
const (
	// An experiment file, read or saved (the built-ins are about 2 KB): 4
	// times 1 MB, as a file's arrays take up to 3 times the bytes saved.
	MaxFileBytes = 4_000_000
	maxErrors    = 20 // problems listed before "and N more"
)

// Cost estimates the memory and events of one run of the experiment (its
// most expensive algorithm), from its sources, links and parameters. It
// reads only values Validate has checked to be in bounds, allocates nothing
// that grows with them, and is the one place such estimates are made.
func (e *Experiment) Cost() cost.Cost {
	if e.IsFabric() {
		return e.fabricCost()
	}
	n := e.Network
	in := cost.Chain{
		Model:          e.Model,
		Links:          max(1, e.LinkCount()),
		Sources:        float64(max(0, e.Sources.Count)),
		FrameBytes:     float64(n.FrameSize),
		Capacity:       float64(n.Capacity),
		Buffer:         float64(n.Buffer),
		LineRate:       float64(n.Capacity),
		Loop:           algos.Time(n.RTT).Seconds(),
		Hop:            e.HopDelay().Dist().Max().Seconds(),
		Duration:       algos.Time(e.Duration).Seconds(),
		SampleInterval: algos.Time(e.Output.SampleInterval).Seconds(),
		RateWindow:     math.Ceil(float64(e.Output.RateWindow) / float64(max(e.Output.SampleInterval, 1))),
		Phases:         len(e.Output.Phases),
		ShortFlowRate:  e.Traffic.ShortFlowRate,
		LongFlows:      e.Traffic.LongFlows,
		Tables:         map[string]float64{},
	}
	if e.Sources.LineRate != nil {
		in.LineRate = max(in.LineRate, float64(*e.Sources.LineRate))
	}
	for _, o := range e.Sources.Override {
		if o.LineRate != nil {
			in.LineRate = max(in.LineRate, float64(*o.LineRate))
		}
	}
	for _, d := range []*Delay{e.Sources.ForwardDelay, e.Sources.BackwardDelay} {
		if d != nil {
			in.Loop = max(in.Loop, 2*d.Dist().Max().Seconds())
		}
	}
	for _, o := range e.Sources.Override {
		for _, d := range []*Delay{o.RTT, o.ForwardDelay, o.BackwardDelay} {
			if d != nil {
				in.Loop = max(in.Loop, 2*d.Dist().Max().Seconds())
			}
		}
	}
	for _, name := range e.Algorithms {
		v, err := e.ParamValues(name)
		if err != nil {
			continue
		}
		sc, _ := algos.Lookup(name)
		in.Unslowed = in.Unslowed || (sc.Uncontrolled && !n.PFC)
		for _, p := range sc.Params {
			if p.Kind == algos.Count {
				key := "params." + name + "." + p.Key
				in.Tables[key] = v[p.Key]
				in.TableKeys = append(in.TableKeys, key)
			}
		}
	}
	return in.Cost()
}

// RunCost is Cost for a run of the one algorithm named: what a batch's
// worker or the workbench's compare mode reserves for that run.
func (e *Experiment) RunCost(algorithm string) cost.Cost {
	one := *e
	one.Algorithms = []string{algorithm}
	return one.Cost()
}

// costErrors refuses an experiment whose runs would need more than the
// limits, saying what they would need.
func (e *Experiment) costErrors(bad func(key, format string, args ...any)) { e.Cost().Errors(bad) }

// SeriesBytes is the size of a run's time series in full (every sample),
// before compression.
func (e *Experiment) SeriesBytes() float64 {
	if e.Output.SampleInterval <= 0 {
		return 0
	}
	queues, rates := e.SeriesShape()
	return cost.SeriesBytes(float64(algos.Time(e.Duration)/algos.Time(e.Output.SampleInterval)), queues, rates)
}

// seriesErrors refuses a run whose time series would be larger than a
// batch may write.
func (e *Experiment) seriesErrors(bad func(key, format string, args ...any)) {
	if b := e.SeriesBytes(); b > cost.MaxSeriesBytes {
		key := "output.sample_interval"
		if _, set := e.origin["output.watch_ports"]; set && e.IsFabric() {
			key = "output.watch_ports"
		}
		bad(key, "the time series would be ~%s (a row every %s, %s); the most is %s: make the sample interval longer or watch fewer ports",
			units.FormatBytes(cost.RoundTo2(b)), units.FormatDuration(algos.Time(e.Output.SampleInterval)),
			seriesColumns(e), units.FormatBytes(cost.MaxSeriesBytes))
	}
}

// seriesColumns says what the time series follows, for messages.
func seriesColumns(e *Experiment) string {
	queues, rates := e.SeriesShape()
	return fmt.Sprintf("%s and %s", cost.Pluralize(queues, "queue"), cost.Pluralize(rates, "rate"))
}

// sweepErrors refuses a sweep with too many runs before it is expanded.
func (e *Experiment) sweepErrors(bad func(key, format string, args ...any)) bool {
	if n := sweep.Count(e.Sweep, e.Algorithms); n > cost.MaxRuns {
		key := "sweep"
		if len(e.Sweep) > 0 {
			key = "sweep." + e.Sweep[0].Key
		}
		bad(key, "the sweep makes %.0f runs (for each of its %d algorithms, every combination of the values that apply to it); the most is %d",
			n, max(1, len(e.Algorithms)), cost.MaxRuns)
		return false
	}
	return true
}

// joinErrors joins problems, each message once and at most maxErrors of
// them (tomltext.Join).
func joinErrors(errs []error) error { return tomltext.Join(errs, maxErrors) }

// batchErrors refuses a batch whose runs together would need more than
// cost.MaxBatchEvents.
func batchErrors(runs []Run, bad func(key, format string, args ...any)) {
	total := 0.0
	for _, r := range runs {
		total += r.Exp.Cost().Events
	}
	if total > cost.MaxBatchEvents {
		bad("sweep", "the %d runs would need ~%.2g events together, many hours of computing (the most is %.0g); sweep fewer values",
			len(runs), total, float64(cost.MaxBatchEvents))
	}
}

// SeriesError refuses to write the time series of runs in full when they
// would be more than cost.MaxSeriesBytes together, before compression.
func SeriesError(runs []Run) error {
	total := 0.0
	for _, r := range runs {
		total += r.Exp.SeriesBytes()
	}
	if total > cost.MaxSeriesBytes {
		return fmt.Errorf("the %d runs' time series would be ~%s together (the most is %s); write less of it (--series 1ms, --series none), sweep fewer values or make the sample interval longer",
			len(runs), units.FormatBytes(cost.RoundTo2(total)), units.FormatBytes(cost.MaxSeriesBytes))
	}
	return nil
}

// fabricCost is a fabric's cost by the model's own estimate, for the most
// expensive algorithm (cost.Fabric says which key each total is blamed on).
func (e *Experiment) fabricCost() cost.Cost {
	cfg, err := e.fabricConfig()
	if err != nil {
		return cost.Cost{} // Validate reports it
	}
	var est model.Cost
	base := cfg
	for _, name := range e.Algorithms {
		sc, err := algos.Lookup(name)
		if err != nil {
			continue
		}
		cfg.Scheme = sc
		if cfg.Params, err = sc.Resolve(cfg.Network(), e.Params[name]); err != nil {
			continue
		}
		// As Config sets them per algorithm: control frames add queues.
		cfg.Classes = switches.ClassParams(e.Network, sc, base.Classes)
		cfg.ControlFrames = switches.SendsControlFrames(e.Network, name)
		if x := model.Estimate(cfg); x.Memory+x.Events > est.Memory+est.Events {
			est = x
		}
	}
	flows, short := "traffic.pattern", "traffic.short_flow_rate"
	if len(e.Flows) > len(cfg.Fabric.Flows)-len(e.Flows) {
		flows = "flows"
	}
	if e.Traffic.Load != nil {
		short = "traffic.load"
	}
	perHost, most := map[int]int{}, 0
	for _, f := range cfg.Fabric.Flows {
		perHost[f.From]++
		most = max(most, perHost[f.From])
	}
	return cost.Fabric(est, e.sizeKey(), e.Network.BufferModel == "shared", flows, short, most)
}
