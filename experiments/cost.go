package experiments

import (
	"errors"
	"fmt"
	"math"

	"qcnlab/algos"
	"qcnlab/model"
	"qcnlab/units"
)

// Limits on what qcnlab accepts, so that no input can exhaust the machine.
// Each unit type has its own bounds (units.MaxRate, units.MaxBytes,
// algos.MaxCount); these bound a file and what its runs would need, by the
// estimate of Cost, before anything is allocated.
const (
	MaxFileBytes   = 1_000_000 // an experiment file: the built-ins are about 2 KB
	MaxRuns        = 10_000    // runs of one batch: sweep points times algorithms
	MaxRunMemory   = 4e9       // bytes, one run
	MaxRunEvents   = 1e11      // one run: about an hour at 30 M events/s
	MaxBatchEvents = 1e12      // every run of a batch
	maxErrors      = 20        // problems listed before "and N more"
	// MaxSeriesBytes bounds the time series of one run in full (every
	// sample), before compression: the samples times the columns. A batch
	// that writes them (--out, --series full) is bounded by the same for
	// all its runs together (SeriesError); one that does not (a stability
	// search, --series none) only by its events.
	MaxSeriesBytes = 10e9
)

// seriesCellBytes is a value of the time series as text, with its comma:
// measured 10 to 12 bytes ("8.4e+09,", "106500,", "1e-05,").
const seriesCellBytes = 12

// Cost is the estimate of what one run of an experiment needs, and the key
// that contributes the most to each part.
type Cost struct {
	Memory    float64 // bytes at the peak
	MemoryKey string
	Events    float64 // discrete events, samples counted as one per source, weighed by their cost (model.Cost.Work)
	EventsKey string
	// FlowsPerHost is the most flows a fabric's host holds: each of its
	// events looks at every one.
	FlowsPerHost int
}

// Sizes of the simulator's records, in bytes, rounded up: they set the
// memory estimate. A ring of records doubles as it grows, hence the 2s below.
const (
	sourceBytes     = 6000 // a source, its reaction point, rings and samples (65,535 QCN sources: 426 MB at the peak)
	queuedBytes     = 16   // a frame in a switch queue
	flightBytes     = 24   // a frame or a feedback on its way
	hopBytes        = 32   // a frame between two switches
	floatBytes      = 8    // a history slot
	offeredFactor   = 2    // the schemes keep the offered load near capacity: count twice it
	phaseSrcBytes   = 2000 // a source's record in one phase: its marks, its summary and its JSON (measured: 1.6 KB)
	markBytes       = 64   // a link's counters at a phase boundary, apart from its per-source counts
	flowBytes       = 200  // a short flow alive: its record and its slot in its source's round (measured: 160-190 B)
	shortFlowEvents = 4    // a short flow's arrival, frame, departure and completion, at the least
)

// The convergence model's period and its cost in packet events' time per
// source (measured: 1.33 M periods of 2 sources in 3.3 s, against 30 M packet
// events a second).
const (
	convergenceSampleBytes  = 150e3
	convergencePeriodEvents = 40
)

// MaxPhases bounds output.phases: each boundary copies every link's queue
// histogram and every source's counters, and the summary reports each phase.
const MaxPhases = 1000

// Cost estimates the memory and events of one run of the experiment (its
// most expensive algorithm), from its sources, links and parameters. It
// reads only values Validate has checked to be in bounds, allocates nothing
// that grows with them, and is the one place such estimates are made.
func (e *Experiment) Cost() Cost {
	if e.IsFabric() {
		return e.fabricCost()
	}
	n := e.Network
	links := max(1, e.LinkCount())
	count := float64(max(0, e.Sources.Count))
	frameBits := 8 * max(float64(n.FrameSize), minFrame)
	dur := algos.Time(e.Duration).Seconds()
	sample := max(algos.Time(e.Output.SampleInterval).Seconds(), 1e-12)
	window := math.Ceil(float64(e.Output.RateWindow) / float64(max(e.Output.SampleInterval, 1)))
	lineRate := float64(n.Capacity)
	if e.Sources.LineRate != nil {
		lineRate = max(lineRate, float64(*e.Sources.LineRate))
	}
	for _, o := range e.Sources.Override {
		if o.LineRate != nil {
			lineRate = max(lineRate, float64(*o.LineRate))
		}
	}
	loop := algos.Time(n.RTT).Seconds()
	for _, d := range []*Delay{e.Sources.ForwardDelay, e.Sources.BackwardDelay} {
		if d != nil {
			loop = max(loop, 2*d.Dist().Max().Seconds())
		}
	}
	for _, o := range e.Sources.Override {
		for _, d := range []*Delay{o.RTT, o.ForwardDelay, o.BackwardDelay} {
			if d != nil {
				loop = max(loop, 2*d.Dist().Max().Seconds())
			}
		}
	}
	hop := e.HopDelay().Dist().Max().Seconds()

	var c Cost
	largestMem, largestEvents := -1.0, -1.0
	mem := func(key string, bytes float64) {
		c.Memory += bytes
		if bytes > largestMem {
			c.MemoryKey, largestMem = key, bytes
		}
	}
	events := func(key string, n float64) {
		c.Events += n
		if n > largestEvents {
			c.EventsKey, largestEvents = key, n
		}
	}
	mem("sources.count", count*(sourceBytes+8*float64(links)))
	mem("output.rate_window", count*window*floatBytes)
	// Frames and feedback in flight between each source and the switches.
	mem("network.rtt", 2*count*flightBytes*lineRate*loop/frameBits)
	mem("network.buffer", 2*float64(links)*queuedBytes*float64(n.Buffer)/max(float64(n.FrameSize), minFrame))
	mem("network.hop_delay", 2*float64(links-1)*hopBytes*float64(n.Capacity)*hop/frameBits)
	// Each phase boundary (and the warm-up's) keeps a copy of every link's
	// queue histogram (one slot per frame of buffer, copied again when
	// measured) and of every source's counters; the summary reports every
	// source and link in every phase.
	// The histograms are sized by the buffer: the two stretches every run
	// has (warm-up and window) count for network.buffer, each phase's
	// for output.phases, so an error names the key that was set too large.
	phases := float64(len(e.Output.Phases))
	hist := floatBytes * (float64(n.Buffer)/max(float64(n.FrameSize), minFrame) + 2)
	perSegment := float64(links) * (2*hist + floatBytes*count + markBytes)
	mem("network.buffer", 2*perSegment)
	mem("output.phases", phases*perSegment+phases*(count+float64(links))*phaseSrcBytes)
	// Short flows: on an overloaded network every flow started stays alive.
	mem("traffic.short_flow_rate", e.Traffic.ShortFlowRate*dur*flowBytes)
	switch e.Model {
	case "convergence":
		// Seed 002's model iterates sampling periods (the time to send
		// 150 KB at the capacity), each a bisection over the sources:
		// measured, about 40 packet events' time per source and period.
		period := convergenceSampleBytes * 8 / max(float64(n.Capacity), 1)
		events("duration", dur/period*convergencePeriodEvents*max(count, 1))
	default:
		offered := min(count*lineRate, offeredFactor*float64(links)*float64(n.Capacity))
		events("duration", offered*dur/frameBits*float64(1+2*links))
	}
	events("output.sample_interval", dur/sample*(count+float64(links)))
	// Flows: a record per greedy flow of every source, and a few events
	// per short flow at the least.
	mem("traffic.long_flows", count*float64(max(0, e.Traffic.LongFlows))*flowBytes)
	events("traffic.short_flow_rate", e.Traffic.ShortFlowRate*dur*shortFlowEvents)
	if e.Model == "fluid" {
		// One step of every source every dt, and a history of the loop.
		dt := max(1e-12, min(1e-6, sample, float64(n.Buffer)*8/max(float64(n.Capacity), 1)/200, loop/10))
		mem("network.rtt", (2*count+2)*floatBytes*(loop/dt+1))
		events("network.rtt", dur/dt*(count+1))
	}
	// A count parameter may size a table at each congestion point (DSM's
	// m sizes its history): count it as one.
	for _, name := range e.Algorithms {
		v, err := e.ParamValues(name)
		if err != nil {
			continue
		}
		sc, _ := algos.Lookup(name)
		for _, p := range sc.Params {
			if p.Kind == algos.Count {
				mem("params."+name+"."+p.Key, 2*floatBytes*float64(links)*v[p.Key])
			}
		}
	}
	return c
}

// costErrors refuses an experiment whose runs would need more than the
// limits, saying what they would need.
func (e *Experiment) costErrors(bad func(key, format string, args ...any)) {
	c := e.Cost()
	if c.Memory > MaxRunMemory {
		advice := "make the network smaller"
		switch c.MemoryKey {
		case "traffic.load", "traffic.short_flow_rate":
			advice = "lower the short flows' load: on an overloaded network every flow started stays alive"
		case "traffic.pattern", "flows", "traffic.long_flows":
			advice = "make fewer flows"
		}
		bad(c.MemoryKey, "a run would need ~%s of memory (the most is %s); %s",
			units.FormatBytes(roundTo2(c.Memory)), units.FormatBytes(MaxRunMemory), advice)
	}
	if c.Events > MaxRunEvents {
		why := ""
		if c.FlowsPerHost > 1 {
			why = fmt.Sprintf(" (counted by their cost: each of a host's events looks at its %d flows)", c.FlowsPerHost)
		}
		bad(c.EventsKey, "a run would need ~%.2g events%s, hours of computing (the most is %.0g); shorten the duration or lower the rates",
			c.Events, why, float64(MaxRunEvents))
	}
}

// SeriesBytes is the size of a run's time series in full (every sample),
// before compression: a row per sample interval, a column per watched
// queue and its capacity, per watched rate, and the run's label.
func (e *Experiment) SeriesBytes() float64 {
	if e.Output.SampleInterval <= 0 {
		return 0
	}
	queues, rates := e.SeriesShape()
	rows := float64(algos.Time(e.Duration) / algos.Time(e.Output.SampleInterval))
	return rows * float64(4+2*queues+rates) * seriesCellBytes
}

// seriesErrors refuses a run whose time series would be larger than a
// batch may write.
func (e *Experiment) seriesErrors(bad func(key, format string, args ...any)) {
	if b := e.SeriesBytes(); b > MaxSeriesBytes {
		key := "output.sample_interval"
		if _, set := e.origin["output.watch_ports"]; set && e.IsFabric() {
			key = "output.watch_ports"
		}
		bad(key, "the time series would be ~%s (a row every %s, %s); the most is %s: make the sample interval longer or watch fewer ports",
			units.FormatBytes(roundTo2(b)), units.FormatDuration(algos.Time(e.Output.SampleInterval)),
			seriesColumns(e), units.FormatBytes(MaxSeriesBytes))
	}
}

// seriesColumns says what the time series follows, for messages.
func seriesColumns(e *Experiment) string {
	queues, rates := e.SeriesShape()
	return fmt.Sprintf("%s and %s", pluralize(queues, "queue"), pluralize(rates, "rate"))
}

// roundTo2 keeps two significant digits, for estimates.
func roundTo2(x float64) float64 {
	if x <= 0 {
		return x
	}
	p := math.Pow(10, math.Floor(math.Log10(x))-1)
	return math.Round(x/p) * p
}

// sourcesLimit is the most sources a network of links may have: the
// simulator gives every source and every link a slot of its event tree.
func sourcesLimit(links int) int { return model.MaxSources - max(1, links) }

// runCount is the number of runs of the batch, computed without expanding
// the sweep: for each algorithm, every combination of the values of the
// axes that apply to it (AxisApplies).
func (e *Experiment) runCount() float64 {
	algorithms := e.Algorithms
	if len(algorithms) == 0 {
		algorithms = []string{""}
	}
	total := 0.0
	for _, name := range algorithms {
		n := 1.0
		for _, a := range e.Sweep {
			if AxisApplies(a.Key, name) {
				n *= float64(len(a.Values))
			}
		}
		total += n
	}
	return total
}

// sweepErrors refuses a sweep with too many runs before it is expanded.
func (e *Experiment) sweepErrors(bad func(key, format string, args ...any)) bool {
	if n := e.runCount(); n > MaxRuns {
		key := "sweep"
		if len(e.Sweep) > 0 {
			key = "sweep." + e.Sweep[0].Key
		}
		bad(key, "the sweep makes %.0f runs (for each of its %d algorithms, every combination of the values that apply to it); the most is %d",
			n, max(1, len(e.Algorithms)), MaxRuns)
		return false
	}
	return true
}

// pluralize is n and noun, with an s unless n is 1.
func pluralize(n int, noun string) string {
	if n == 1 {
		return fmt.Sprintf("1 %s", noun)
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// joinErrors joins problems as errors.Join does, listing each message once
// and at most maxErrors of them: a large file repeating one mistake must not
// print it a million times.
func joinErrors(errs []error) error {
	var out []error
	seen := map[string]bool{}
	more := 0
	for _, err := range errs {
		if err == nil || seen[err.Error()] {
			continue
		}
		seen[err.Error()] = true
		if len(out) == maxErrors {
			more++
			continue
		}
		out = append(out, err)
	}
	if more > 0 {
		out = append(out, fmt.Errorf("... and %d more", more))
	}
	return errors.Join(out...)
}

// batchErrors refuses a batch whose runs together would need more than
// MaxBatchEvents.
func batchErrors(runs []Run, bad func(key, format string, args ...any)) {
	total := 0.0
	for _, r := range runs {
		total += r.Exp.Cost().Events
	}
	if total > MaxBatchEvents {
		bad("sweep", "the %d runs would need ~%.2g events together, many hours of computing (the most is %.0g); sweep fewer values",
			len(runs), total, float64(MaxBatchEvents))
	}
}

// SeriesError refuses to write the time series of runs in full when they
// would be more than MaxSeriesBytes together, before compression.
func SeriesError(runs []Run) error {
	total := 0.0
	for _, r := range runs {
		total += r.Exp.SeriesBytes()
	}
	if total > MaxSeriesBytes {
		return fmt.Errorf("the %d runs' time series would be ~%s together (the most is %s); write less of it (--series 1ms, --series none), sweep fewer values or make the sample interval longer",
			len(runs), units.FormatBytes(roundTo2(total)), units.FormatBytes(MaxSeriesBytes))
	}
	return nil
}

// fabricCost is a fabric's cost by the model's own estimate (model.Estimate,
// from the sizes of its records), for the most expensive algorithm. Each
// total is blamed on the key that drives its largest part: the topology's
// size, the buffer, the flows of the pattern or of [[flows]], the short
// flows' load; the frames' events on the duration, the samples' on the
// sample interval.
func (e *Experiment) fabricCost() Cost {
	cfg, err := e.fabricConfig()
	if err != nil {
		return Cost{} // Validate reports it
	}
	var est model.Cost
	for _, name := range e.Algorithms {
		sc, err := algos.Lookup(name)
		if err != nil {
			continue
		}
		cfg.Scheme = sc
		if cfg.Params, err = sc.Resolve(cfg.Network(), e.Params[name]); err != nil {
			continue
		}
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
	c := Cost{Memory: est.Memory, Events: est.Work, FlowsPerHost: est.MostFlowsPerHost}
	c.MemoryKey = largest([]float64{est.NetworkMemory, est.BufferMemory, est.FlowMemory, est.ShortMemory},
		[]string{e.sizeKey(), "network.buffer", flows, short})
	c.EventsKey = largest([]float64{est.FrameEvents, est.SampleEvents, est.ShortEvents},
		[]string{"duration", "output.sample_interval", short})
	if est.Work > 2*est.Events { // most of the cost is the hosts' many flows: the pattern's or the short ones alive
		c.EventsKey = flows
		perHost, most := map[int]int{}, 0
		for _, f := range cfg.Fabric.Flows {
			perHost[f.From]++
			most = max(most, perHost[f.From])
		}
		if est.MostFlowsPerHost > 2*most {
			c.EventsKey = short
		}
	}
	return c
}

// largest is the key of the largest part.
func largest(parts []float64, keys []string) string {
	best := 0
	for i, x := range parts {
		if x > parts[best] {
			best = i
		}
	}
	return keys[best]
}
