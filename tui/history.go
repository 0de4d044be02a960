package tui

import (
	"slices"

	"qcnlab/algos"
	"qcnlab/model"
)

// maxPoints bounds a history: when it fills up, neighbouring points are
// merged and each point covers twice as many samples. Charts show the whole
// run, from time zero to the experiment's duration, and are at most a few
// hundred braille dots wide, so this keeps every dot backed by data while
// memory stays flat however long the run.
const maxPoints = 640

// maxValues bounds a history's memory (8 bytes a value): with many sources
// it keeps fewer points, never fewer than minPoints. 65,535 sources then
// hold 128 points, 64 MB, instead of 335 MB per run.
const (
	maxValues = 8 << 20
	minPoints = 64
)

// point is the mean of the samples of one interval. Its values are never
// changed once the point exists, so snapshots share them with the history.
type point struct {
	t algos.Time // time of the interval's last sample
	v []float64  // queue of each bottleneck (bytes), then rate of each source (bits/s), then on a fabric each one's delivered rate
	// capacity of each bottleneck (bits/s) in force at t; shared between
	// points while it does not change, nil if the model gives none.
	capacity []float64
}

// history collects a run's samples into at most limit points. It is
// owned by the simulation goroutine (model.Config.OnSample feeds it).
type history struct {
	limit  int // points kept: maxPoints, fewer with many sources
	queues int // bottlenecks
	// sources are the rate columns; delivered says their delivered rates
	// follow them.
	sources   int
	delivered bool
	// heldNames are the PFC view's lines (a fabric's tiers and watched
	// ports, a chain's ports), whose shares of the time paused close each
	// point.
	heldNames []string
	heldTiers int      // of a fabric's heldNames, the tiers; the watched ports follow
	ports     []string // their names, as the first sample gives them
	stride    int      // samples per point
	points    []point

	// classQueues and classPaused are the watched ports' classes as of
	// the latest sample (model.Sample's), nil with one class; each sample
	// makes new slices, so a snapshot may keep them.
	classQueues [][]int
	classPaused []uint8

	sum []float64 // the interval being filled
	n   int       // samples in it
	cap []float64 // the latest capacities, shared by the points they hold for
}

// newHistory keeps queues and sources' rates per point and, with
// delivered, their delivered rates after them (a fabric's: its flows'
// first ports are seldom their bottlenecks).
func newHistory(queues, sources int, delivered bool) *history {
	cols := queues + sources
	if delivered {
		cols += sources
	}
	limit := min(maxPoints, max(minPoints, maxValues/max(cols, 1)))
	return &history{
		limit:     limit,
		queues:    queues,
		sources:   sources,
		delivered: delivered,
		stride:    1,
		points:    make([]point, 0, limit),
		sum:       make([]float64, cols),
	}
}

// add takes one sample. The sample is reused by the model: only its values
// are kept.
func (h *history) add(s *model.Sample) {
	if h.ports == nil {
		h.ports = slices.Clone(s.Ports)
		// A fabric's tiers, then its watched ports; a chain's ports.
		held := s.TierNames
		switch {
		case len(s.TierHeld) == 0 && len(s.Held) > 0:
			held = s.Ports
		case len(s.TierHeld) > 0 && len(s.Held) == len(s.Ports):
			held = slices.Concat(s.TierNames, s.Ports)
			h.heldTiers = len(s.TierNames)
		}
		if len(s.TierHeld)+len(s.Held) > 0 && len(h.points) == 0 && h.n == 0 {
			h.heldNames = slices.Clone(held)
			h.sum = append(h.sum, make([]float64, len(held))...)
		}
	}
	if len(h.heldNames) > 0 {
		held := s.TierHeld
		if len(held) == 0 {
			held = s.Held
		}
		base := len(h.sum) - len(h.heldNames)
		for i, x := range held {
			if i < len(h.heldNames) {
				h.sum[base+i] += x
			}
		}
		if h.heldTiers > 0 {
			for i, x := range s.Held {
				if k := h.heldTiers + i; k < len(h.heldNames) {
					h.sum[base+k] += x
				}
			}
		}
	}
	if s.ClassQueues != nil {
		h.classQueues = make([][]int, len(s.ClassQueues))
		for k, q := range s.ClassQueues {
			h.classQueues[k] = slices.Clone(q)
		}
		h.classPaused = slices.Clone(s.ClassPaused)
	}
	for i, q := range s.Queues {
		h.sum[i] += float64(q)
	}
	for i, r := range s.Rates {
		h.sum[h.queues+i] += r
	}
	if h.delivered {
		for i, r := range s.Delivered {
			h.sum[h.queues+h.sources+i] += r
		}
	}
	h.n++
	if h.n < h.stride {
		return
	}
	v := make([]float64, len(h.sum))
	for i, x := range h.sum {
		v[i] = x / float64(h.n)
		h.sum[i] = 0
	}
	h.n = 0
	if !slices.Equal(h.cap, s.Capacity) {
		h.cap = slices.Clone(s.Capacity)
	}
	if len(h.points) >= h.limit {
		h.compact()
	}
	h.points = append(h.points, point{t: s.Time, v: v, capacity: h.cap})
}

// compact merges neighbouring points into a new slice, leaving the old
// points (which snapshots may hold) untouched, and doubles the stride.
func (h *history) compact() {
	merged := make([]point, 0, h.limit)
	for i := 0; i+1 < len(h.points); i += 2 {
		a, b := h.points[i], h.points[i+1]
		v := make([]float64, len(a.v))
		for j := range v {
			v[j] = (a.v[j] + b.v[j]) / 2
		}
		merged = append(merged, point{t: b.t, v: v, capacity: b.capacity})
	}
	h.points = merged
	h.stride *= 2
}

// snapshot returns the points so far; the caller may keep them.
func (h *history) snapshot() []point {
	return append([]point(nil), h.points...)
}
