package model

import (
	"errors"
	"fmt"
	"math"
	"slices"
)

// FlowHistograms is what a FlowSummary's statistics come from, as data: the
// counts, sums and histograms of its size buckets. A shard of a batch
// records it for each run, so that the merge of the shards pools the seeds
// of a point (PoolFlows) exactly as the unsharded batch does. JSON keeps
// every float to the bit.
type FlowHistograms struct {
	Edges   []float64          `json:"edges"` // the buckets' upper edges, but the last, unbounded one
	All     FlowBucketCounts   `json:"all"`
	Buckets []FlowBucketCounts `json:"buckets"`
	Lost    int64              `json:"lost"`
}

// FlowBucketCounts is one size bucket's part of FlowHistograms.
type FlowBucketCounts struct {
	Started     int64      `json:"started"`
	Completed   int64      `json:"completed"`
	SizeSum     float64    `json:"size_sum"`
	FCTSum      float64    `json:"fct_sum"`
	SlowdownSum float64    `json:"slowdown_sum"`
	FCT         HistCounts `json:"fct"`
	Slowdown    HistCounts `json:"slowdown"`
}

// HistCounts is a histogram's non-empty stretch of bins: Counts are the
// counts of bins First, First+1, ...
type HistCounts struct {
	First  int      `json:"first"`
	Counts []uint32 `json:"counts"`
}

// Histograms is f's statistics as data; nil for a summary read back from
// JSON, which holds none.
func (f *FlowSummary) Histograms() *FlowHistograms {
	if f == nil || f.stats == nil {
		return nil
	}
	st := f.stats.compact()
	h := &FlowHistograms{Edges: slices.Clone(st.edges[:len(st.edges)-1]), All: st.all.counts(), Lost: st.lost}
	for i := range st.buckets {
		h.Buckets = append(h.Buckets, st.buckets[i].counts())
	}
	return h
}

func (b *flowBucket) counts() FlowBucketCounts {
	return FlowBucketCounts{Started: b.started, Completed: b.completed, SizeSum: b.sizeSum, FCTSum: b.fctSum, SlowdownSum: b.slowSum,
		FCT: HistCounts{First: b.fctHist.first, Counts: b.fctHist.counts}, Slowdown: HistCounts{First: b.slowdownHist.first, Counts: b.slowdownHist.counts}}
}

// SetHistograms gives f (read back from JSON) the statistics h describes,
// after checking that they are of f's shape and agree with its counts: h
// comes from a file.
func (f *FlowSummary) SetHistograms(h *FlowHistograms) error {
	if h == nil {
		return errors.New("no flow histograms")
	}
	if !slices.IsSorted(h.Edges) || slices.ContainsFunc(h.Edges, func(x float64) bool { return !(x > 0) || math.IsInf(x, 0) }) {
		return errors.New("flow histograms: the bucket edges are not increasing sizes")
	}
	if len(h.Buckets) != len(h.Edges)+1 || len(h.Buckets) != len(f.BySize) {
		return fmt.Errorf("flow histograms: %d buckets for %d edges, the summary has %d", len(h.Buckets), len(h.Edges), len(f.BySize))
	}
	if h.All.Started != f.Started || h.All.Completed != f.Completed || h.Lost != f.Lost || h.Lost < 0 {
		return errors.New("flow histograms: their counts are not the summary's")
	}
	st := &flowStats{edges: append(slices.Clone(h.Edges), math.Inf(1)), lost: h.Lost}
	var err error
	if st.all, err = h.All.bucket(); err != nil {
		return err
	}
	for _, c := range h.Buckets {
		b, err := c.bucket()
		if err != nil {
			return err
		}
		st.buckets = append(st.buckets, b)
	}
	f.stats = st
	return nil
}

// bucket is c as a compact flowBucket, checked against the full one's
// bins.
func (c FlowBucketCounts) bucket() (flowBucket, error) {
	full := newFlowBucket()
	b := flowBucket{started: c.Started, completed: c.Completed, sizeSum: c.SizeSum, fctSum: c.FCTSum, slowSum: c.SlowdownSum}
	var err1, err2 error
	b.fctHist, err1 = c.FCT.hist(full.fctHist, c.Completed)
	b.slowdownHist, err2 = c.Slowdown.hist(full.slowdownHist, c.Completed)
	if err := errors.Join(err1, err2); err != nil {
		return flowBucket{}, err
	}
	if c.Started < c.Completed || c.Completed < 0 {
		return flowBucket{}, errors.New("flow histograms: more flows completed than started")
	}
	return b, nil
}

// hist is c as a compact histogram of full's bins holding n values.
func (c HistCounts) hist(full logHist, n int64) (logHist, error) {
	if c.First < 0 || c.First > len(full.counts) || len(c.Counts) > len(full.counts)-c.First {
		return logHist{}, errors.New("flow histograms: bins outside the histogram")
	}
	var sum int64
	for _, x := range c.Counts {
		sum += int64(x)
	}
	if sum != n {
		return logHist{}, fmt.Errorf("flow histograms: %d values in the bins of %d flows", sum, n)
	}
	return logHist{lo: full.lo, counts: slices.Clone(c.Counts), n: n, first: c.First}, nil
}
