// Package cost is the estimate of what a run of an experiment needs, its
// memory and its events, and the bounds on both: so that no input can
// exhaust the machine, a file is refused by the estimate before anything
// is allocated, with the key that contributes the most named.
package cost

import (
	"fmt"
	"math"

	"qcnlab/experiments/keys"
	"qcnlab/model"
	"qcnlab/units"
)

// Limits on what qcnlab accepts. Each unit type has its own bounds
// (units.MaxRate, units.MaxBytes, algos.MaxCount); these bound what the
// runs of a file would need, by the estimate, before anything is
// allocated.
const (
	MaxRuns        = 10_000 // runs of one batch: sweep points times algorithms
	MaxRunMemory   = 4e9    // bytes, one run
	MaxRunEvents   = 1e11   // one run: about an hour at 30 M events/s
	MaxBatchEvents = 1e12   // every run of a batch
	// MaxSeriesBytes bounds the time series of one run in full (every
	// sample), before compression: the samples times the columns. A batch
	// that writes them (--out, --series full) is bounded by the same for
	// all its runs together; one that does not (a stability search,
	// --series none) only by its events.
	MaxSeriesBytes = 10e9
	// MaxMemoryInFlight bounds the runs that go on at once, by the sum of
	// their estimates: a batch's workers, or the workbench's runs in
	// compare mode. Twice MaxRunMemory, so that any run accepted alone
	// can run, and a machine of 16GB keeps room for the rest; a run larger
	// than what is left waits for others to finish (the results do not
	// depend on it).
	MaxMemoryInFlight = 2 * MaxRunMemory
	// MaxWorkers bounds --workers: more runs at once than any machine has
	// cores, which MaxMemoryInFlight bounds further by their estimates.
	MaxWorkers = 1024
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

// Errors reports a cost above the limits of a run, saying what the run
// would need, under the key that contributes the most.
func (c Cost) Errors(bad func(key, format string, args ...any)) {
	if c.Memory > MaxRunMemory {
		advice := "make the network smaller"
		switch c.MemoryKey {
		case "traffic.load", "traffic.short_flow_rate":
			advice = "lower the short flows' load: on an overloaded network every flow started stays alive"
		case "traffic.pattern", "flows", "traffic.long_flows":
			advice = "make fewer flows"
		case "network.buffer", "network.switch_buffer":
			// Counted full where what a queue may hold has no tighter bound
			// (model.Estimate): a lossless or shared queue, a resending transport.
			advice = "make the buffers smaller, or the network"
		}
		bad(c.MemoryKey, "a run would need ~%s of memory (the most is %s); %s",
			units.FormatBytes(RoundTo2(c.Memory)), units.FormatBytes(MaxRunMemory), advice)
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
// before compression: a row per sample, a column per watched queue and its
// capacity, per watched rate, and the run's label.
func SeriesBytes(rows float64, queues, rates int) float64 {
	return rows * float64(4+2*queues+rates) * seriesCellBytes
}

// RoundTo2 keeps two significant digits, for estimates.
func RoundTo2(x float64) float64 {
	if x <= 0 {
		return x
	}
	p := math.Pow(10, math.Floor(math.Log10(x))-1)
	return math.Round(x/p) * p
}

// Pluralize is n and noun, with an s unless n is 1.
func Pluralize(n int, noun string) string {
	if n == 1 {
		return fmt.Sprintf("1 %s", noun)
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// tally adds parts to a total and keeps the key of the largest part.
type tally struct {
	total, largest float64
	key            string
}

func (t *tally) add(key string, x float64) {
	t.total += x
	if x > t.largest {
		t.key, t.largest = key, x
	}
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

// Fabric is a fabric's cost by the model's own estimate (model.Estimate,
// from the sizes of its records) for its most expensive algorithm. Each
// total is blamed on the key that drives its largest part: the topology's
// size (sizeKey), the buffer (a port's, or with shared buffers its
// switch's), the flows of the pattern or of [[flows]] (flowsKey), the
// short flows' load (shortKey); the frames' events on the
// duration, the samples' on the sample interval. mostFlowsPerHost is the
// most pattern and [[flows]] flows a host sends.
func Fabric(est model.Cost, sizeKey string, shared bool, flowsKey, shortKey string, mostFlowsPerHost int) Cost {
	c := Cost{Memory: est.Memory, Events: est.Work, FlowsPerHost: est.MostFlowsPerHost}
	bufferKey := "network.buffer"
	if shared { // a queue may take its switch's buffer, not its port's
		bufferKey = "network.switch_buffer"
	}
	c.MemoryKey = largest([]float64{est.NetworkMemory, est.BufferMemory, est.FlowMemory, est.ShortMemory},
		[]string{sizeKey, bufferKey, flowsKey, shortKey})
	c.EventsKey = largest([]float64{est.FrameEvents, est.SampleEvents, est.ShortEvents},
		[]string{"duration", "output.sample_interval", shortKey})
	if est.Work > 2*est.Events { // most of the cost is the hosts' many flows: the pattern's or the short ones alive
		c.EventsKey = flowsKey
		if est.MostFlowsPerHost > 2*mostFlowsPerHost {
			c.EventsKey = shortKey
		}
	}
	return c
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

// Chain is what the estimate of a dumbbell's or a parking lot's run reads
// from its file, in base units.
type Chain struct {
	Model          string
	Links          int     // congestible links, at least 1
	Sources        float64 // sources.count
	FrameBytes     float64
	Capacity       float64 // bits/s
	Buffer         float64 // bytes
	LineRate       float64 // the fastest source's, bits/s
	Loop           float64 // the longest loop of a source's frames and feedback, seconds
	Hop            float64 // the longest propagation between switches, seconds
	Duration       float64 // seconds
	SampleInterval float64 // seconds
	RateWindow     float64 // samples in the rate window
	Phases         int
	ShortFlowRate  float64 // flows/s
	LongFlows      int     // greedy flows per source
	// Unslowed is set when a scheme run never slows its sources and no
	// PFC pauses them (none): they send at the line rate, dropped or not.
	Unslowed bool
	// Tables are the count parameters of the schemes ("params.dsm.m"): each
	// may size a table at each congestion point.
	Tables map[string]float64
	// TableKeys are Tables' keys in the order they are counted.
	TableKeys []string
}

// Cost estimates the memory and events of one run of a chain.
func (in Chain) Cost() Cost {
	links := float64(in.Links)
	count := in.Sources
	frame := max(in.FrameBytes, keys.MinFrame)
	frameBits := 8 * frame
	dur := in.Duration
	sample := max(in.SampleInterval, 1e-12)
	var mem, events tally
	mem.largest, events.largest = -1, -1
	mem.add("sources.count", count*(sourceBytes+8*links))
	mem.add("output.rate_window", count*in.RateWindow*floatBytes)
	// Frames and feedback in flight between each source and the switches.
	mem.add("network.rtt", 2*count*flightBytes*in.LineRate*in.Loop/frameBits)
	mem.add("network.buffer", 2*links*queuedBytes*in.Buffer/frame)
	mem.add("network.hop_delay", 2*(links-1)*hopBytes*in.Capacity*in.Hop/frameBits)
	// Each phase boundary (and the warm-up's) keeps a copy of every link's
	// queue histogram (one slot per frame of buffer, copied again when
	// measured) and of every source's counters; the summary reports every
	// source and link in every phase.
	// The histograms are sized by the buffer: the two stretches every run
	// has (warm-up and window) count for network.buffer, each phase's
	// for output.phases, so an error names the key that was set too large.
	phases := float64(in.Phases)
	hist := floatBytes * (in.Buffer/frame + 2)
	perSegment := links * (2*hist + floatBytes*count + markBytes)
	mem.add("network.buffer", 2*perSegment)
	mem.add("output.phases", phases*perSegment+phases*(count+links)*phaseSrcBytes)
	// Short flows: on an overloaded network every flow started stays alive.
	mem.add("traffic.short_flow_rate", in.ShortFlowRate*dur*flowBytes)
	switch in.Model {
	case "convergence":
		// Seed 002's model iterates sampling periods (the time to send
		// 150 KB at the capacity), each a bisection over the sources:
		// measured, about 40 packet events' time per source and period.
		period := convergenceSampleBytes * 8 / max(in.Capacity, 1)
		events.add("duration", dur/period*convergencePeriodEvents*max(count, 1))
	default:
		offered := count * in.LineRate
		if !in.Unslowed {
			offered = min(offered, offeredFactor*links*in.Capacity)
		}
		events.add("duration", offered*dur/frameBits*(1+2*links))
	}
	events.add("output.sample_interval", dur/sample*(count+links))
	// Flows: a record per greedy flow of every source, and a few events
	// per short flow at the least.
	mem.add("traffic.long_flows", count*float64(max(0, in.LongFlows))*flowBytes)
	events.add("traffic.short_flow_rate", in.ShortFlowRate*dur*shortFlowEvents)
	if in.Model == "fluid" {
		// One step of every source every dt, and a history of the loop.
		dt := max(1e-12, min(1e-6, sample, in.Buffer*8/max(in.Capacity, 1)/200, in.Loop/10))
		mem.add("network.rtt", (2*count+2)*floatBytes*(in.Loop/dt+1))
		events.add("network.rtt", dur/dt*(count+1))
	}
	// A count parameter may size a table at each congestion point (DSM's
	// m sizes its history): count it as one.
	for _, key := range in.TableKeys {
		mem.add(key, 2*floatBytes*links*in.Tables[key])
	}
	return Cost{Memory: mem.total, MemoryKey: mem.key, Events: events.total, EventsKey: events.key}
}
