package cost

import (
	"strings"
	"testing"
)

// The estimate blames the key that contributes the most, and a cost
// above the limits is reported under it.
func TestChainBlamesTheLargestPart(t *testing.T) {
	base := Chain{Model: "packet", Links: 1, Sources: 2, FrameBytes: 1500, Capacity: 10e9, Buffer: 150e3,
		LineRate: 10e9, Loop: 100e-6, Duration: 1, SampleInterval: 1e-4, RateWindow: 10, LongFlows: 1}
	for _, c := range []struct {
		change      func(*Chain)
		memory, evs string
	}{
		{func(*Chain) {}, "sources.count", "duration"},
		{func(in *Chain) { in.Phases = 1000 }, "output.phases", "duration"},
		{func(in *Chain) { in.SampleInterval = 1e-9 }, "sources.count", "output.sample_interval"},
		{func(in *Chain) { in.ShortFlowRate = 1e7 }, "traffic.short_flow_rate", "traffic.short_flow_rate"},
	} {
		in := base
		c.change(&in)
		got := in.Cost()
		if got.MemoryKey != c.memory || got.EventsKey != c.evs {
			t.Errorf("%+v: blamed %s and %s, want %s and %s", in, got.MemoryKey, got.EventsKey, c.memory, c.evs)
		}
	}
	var msgs []string
	Cost{Memory: 2 * MaxRunMemory, MemoryKey: "flows", Events: 2 * MaxRunEvents, EventsKey: "duration"}.Errors(func(key, format string, args ...any) {
		msgs = append(msgs, key)
	})
	if strings.Join(msgs, ",") != "flows,duration" {
		t.Errorf("errors under %q, want the memory's key then the events'", msgs)
	}
}

func TestRoundTo2AndPluralize(t *testing.T) {
	if got := RoundTo2(123456); got != 120000 {
		t.Errorf("RoundTo2(123456) = %v", got)
	}
	if Pluralize(1, "queue") != "1 queue" || Pluralize(3, "rate") != "3 rates" {
		t.Error("Pluralize")
	}
}
