package model

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// A summary's histograms survive JSON to the bit, and a summary read back
// from JSON pools as the original does; histograms that do not fit the
// summary (a tampered shard.json) are refused, never indexed out of range.
func TestFlowHistogramsRoundTrip(t *testing.T) {
	st := newFlowStats([]float64{1e4, 1e6})
	for i, size := range []int64{500, 9000, 20000, 3e5, 2e6, 2e6} {
		st.start(size)
		if i != 2 {
			st.complete(size, 1e-6*float64(i+1)*1.37, 1+0.31*float64(i))
		}
	}
	st.lost = 1
	orig := st.summary()
	data, err := json.Marshal(orig.Histograms())
	if err != nil {
		t.Fatal(err)
	}
	var h FlowHistograms
	if err := json.Unmarshal(data, &h); err != nil {
		t.Fatal(err)
	}
	back := *orig
	back.stats = nil
	if err := back.SetHistograms(&h); err != nil {
		t.Fatal(err)
	}
	a, okA := PoolFlows([]*FlowSummary{orig, orig})
	b, okB := PoolFlows([]*FlowSummary{&back, &back})
	if !okA || !okB {
		t.Fatalf("pooled: %v %v", okA, okB)
	}
	a.stats, b.stats = nil, nil
	if !reflect.DeepEqual(a, b) {
		t.Errorf("pooled from JSON:\n%+v\nwant\n%+v", b, a)
	}
	for name, c := range map[string]struct {
		edit func(h *FlowHistograms)
		want string
	}{
		"bins past the end": {func(h *FlowHistograms) { h.All.FCT.First = 1 << 30 }, "bins outside"},
		"negative first":    {func(h *FlowHistograms) { h.Buckets[1].Slowdown.First = -1 }, "bins outside"},
		"counts not flows":  {func(h *FlowHistograms) { h.All.FCT.Counts[0] += 7 }, "values in the bins"},
		"other counts":      {func(h *FlowHistograms) { h.All.Started++ }, "not the summary's"},
		"buckets missing":   {func(h *FlowHistograms) { h.Buckets = h.Buckets[:1] }, "buckets for"},
		"edges unsorted":    {func(h *FlowHistograms) { h.Edges[0], h.Edges[1] = h.Edges[1], h.Edges[0] }, "not increasing"},
	} {
		var h FlowHistograms
		json.Unmarshal(data, &h)
		c.edit(&h)
		s := *orig
		s.stats = nil
		if err := s.SetHistograms(&h); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", name, err, c.want)
		}
	}
}
