package tui

import (
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"qcnlab/algos"
	"qcnlab/model"
)

// publishEvery is how often a running simulation publishes a snapshot while
// it works towards its target: a few dozen times a second, as the UI ticks.
const publishEvery = time.Second / 30

// snapshot is what the UI sees of a run: published by the simulation
// goroutine, never changed afterwards.
type snapshot struct {
	now     algos.Time    // simulated time reached
	done    bool          // the run reached its duration (or failed)
	err     error         // the simulation failed
	events  uint64        // discrete events handled so far
	busy    time.Duration // wall time spent simulating
	queues  int           // bottlenecks: the first values of every point
	sources int           // rates: the next values
	// delivered says each source's delivered rate follows the rates.
	delivered bool
	// band is the scheme's marking band, K_min and K_max (DCQCN), as
	// resolved for the run; zero for a scheme without one.
	band [2]float64
	// heldNames are the PFC view's lines, whose values end every point.
	heldNames []string
	heldTiers int      // of heldNames, a fabric's tiers; its watched ports follow
	ports     []string // their names
	// classQueues and classPaused are the watched ports' classes now:
	// bytes per class, and the classes PFC pauses (a bit each); nil with
	// one class.
	classQueues [][]int
	classPaused []uint8
	points      []point // downsampled history over [0, now]
	summary     model.Summary
}

// driver runs one simulation in its own goroutine. The UI moves its target
// (a simulated time) forward; the goroutine advances the model to it in
// short chunks, checking between chunks for a new target or a stop, and
// publishes a snapshot when it reaches the target and every publishEvery on
// the way. The UI never waits for the goroutine except in stop, which takes
// at most one chunk (a few milliseconds).
type driver struct {
	algo string
	cfg  model.Config
	sim  model.Sim
	hist *history
	band [2]float64 // the scheme's marking band (snapshot.band)

	target atomic.Int64 // simulated time to advance to
	latest atomic.Pointer[snapshot]
	wake   chan struct{} // capacity one: the target moved
	quit   chan struct{}
	done   chan struct{}
	once   sync.Once
	busy   time.Duration // owned by the goroutine
	// started says start ran: stop has a goroutine to wait for.
	started bool

	// parked, if set (by tests, before start), hears the simulated time
	// each time the goroutine parks at its target to wait for a new one.
	parked chan algos.Time
}

// startDriver builds the simulation and starts its goroutine, idle at time
// zero until the first target.
func startDriver(algo string, cfg model.Config) (*driver, error) {
	d, err := newDriver(algo, cfg)
	if err != nil {
		return nil, err
	}
	d.start()
	return d, nil
}

// newDriver builds the simulation; start starts its goroutine.
func newDriver(algo string, cfg model.Config) (*driver, error) {
	d := &driver{
		algo: algo,
		cfg:  cfg,
		hist: newHistoryOf(&cfg),
		wake: make(chan struct{}, 1),
		quit: make(chan struct{}),
		done: make(chan struct{}),
	}
	cfg.OnSample = d.hist.add
	d.band = markingBandOf(&cfg)
	sim, err := model.New(cfg)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", algo, err)
	}
	d.sim = sim
	d.publish()
	return d, nil
}

func (d *driver) start() {
	d.started = true
	go d.loop()
}

// setTarget asks the goroutine to advance to t (or to stop where it is if
// it is already past t). It never blocks.
func (d *driver) setTarget(t algos.Time) {
	d.target.Store(int64(t))
	select {
	case d.wake <- struct{}{}:
	default: // a wake-up is already pending
	}
}

// snapshot returns the latest published snapshot.
func (d *driver) snapshot() *snapshot { return d.latest.Load() }

// stop ends the goroutine and waits for it. It is safe to call more than
// once, and on a driver never started.
func (d *driver) stop() {
	d.once.Do(func() { close(d.quit) })
	if d.started {
		<-d.done
	}
}

func (d *driver) loop() {
	defer close(d.done)
	defer func() {
		if p := recover(); p != nil {
			// Keep the last good state on screen, marked failed.
			failed := *d.snapshot()
			failed.done, failed.err = true, fmt.Errorf("%s: simulation failed: %v", d.algo, p)
			d.latest.Store(&failed)
		}
	}()
	chunk := 10 * algos.Microsecond
	published := time.Now()
	for !d.sim.Done() {
		target := algos.Time(d.target.Load())
		if d.sim.Now() >= target {
			if d.snapshot().now != d.sim.Now() {
				d.publish()
				published = time.Now()
			}
			if d.parked != nil {
				select {
				case d.parked <- d.sim.Now():
				default: // the test has stopped listening
				}
			}
			select {
			case <-d.quit:
				return
			case <-d.wake:
			}
			continue
		}
		select {
		case <-d.quit:
			return
		default:
		}
		start := time.Now()
		d.sim.Advance(min(target, d.sim.Now()+chunk))
		took := time.Since(start)
		d.busy += took
		// Keep a chunk at a few milliseconds of wall time, whatever the
		// number of sources, so a stop or a new target is seen at once.
		switch {
		case took < 2*time.Millisecond && chunk < algos.Second:
			chunk *= 2
		case took > 8*time.Millisecond && chunk > algos.Microsecond:
			chunk /= 2
		}
		if d.sim.Now() >= target || time.Since(published) >= publishEvery {
			d.publish()
			published = time.Now()
		}
	}
	if d.snapshot().now != d.sim.Now() || !d.snapshot().done {
		d.publish()
	}
}

// publish makes the simulation's present state the latest snapshot. Only
// the goroutine calls it (and startDriver, before the goroutine starts).
func (d *driver) publish() {
	s := &snapshot{
		now:         d.sim.Now(),
		done:        d.sim.Done(),
		events:      d.sim.Events(),
		busy:        d.busy,
		queues:      d.hist.queues,
		sources:     d.hist.sources,
		delivered:   d.hist.delivered,
		band:        d.band,
		heldNames:   d.hist.heldNames,
		heldTiers:   d.hist.heldTiers,
		ports:       d.hist.ports,
		points:      d.hist.snapshot(),
		classQueues: d.hist.classQueues,
		classPaused: d.hist.classPaused,
		summary:     d.sim.Summary(),
	}
	d.latest.Store(s)
}

// newHistoryOf is the history of a run of cfg: with delivered rates on a
// fabric.
func newHistoryOf(cfg *model.Config) *history {
	queues, sources := cfg.SeriesShape()
	return newHistory(queues, sources, cfg.Fabric != nil)
}

// markingBandOf is the marking band of cfg's scheme, if it marks between
// two queue thresholds (k_min and k_max, in bytes).
func markingBandOf(cfg *model.Config) [2]float64 {
	if cfg.Scheme == nil {
		return [2]float64{}
	}
	lo, okLo := cfg.Scheme.Param("k_min")
	hi, okHi := cfg.Scheme.Param("k_max")
	if !okLo || !okHi || lo.Kind != algos.Bytes || hi.Kind != algos.Bytes {
		return [2]float64{}
	}
	return [2]float64{cfg.Params["k_min"], cfg.Params["k_max"]}
}
