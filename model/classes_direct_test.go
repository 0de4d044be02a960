package model

import (
	"bytes"
	"encoding/json"
	"testing"
)

// The direct frames (classSet.direct) change nothing: a run in which a
// frame waits in its port's own queue while its class alone has frames
// gives, bit for bit, the samples and summary of the same run with every
// waiting frame in its class's queue and the scheduler choosing at each
// departure. Two classes, strict priority and DWRR, the second lossless
// under PFC, in shared buffers, with CNPs as control frames and short
// flows: the direct frames are taken, and left for a frame of the other
// class, a control frame and a PAUSE.
func TestDirectFramesAreTheSchedulersChoice(t *testing.T) {
	for _, strict := range []int{0, 2} {
		flows := Permutation(16, 1)
		for _, h := range []int{4, 6, 8, 10, 12, 14} {
			flows = append(flows, Flow{From: h, To: 0, Class: 1})
		}
		cfg := dcqcnFabric(t, flows)
		realClocks(&cfg)
		cfg.Classes = &Classes{N: 2, Strict: strict, Weights: []int{2, 1}}
		cfg.PFC = &PFC{Xoff: -1, Xon: -1, Ingress: true, Dynamic: true, Alpha: 0.125, Lossless: 1 << 1}
		cfg.Shared = &SharedBuffer{Reserve: 1500, Alpha: 1}
		sizes := FixedSize("20KB", 20e3)
		cfg.Fabric.Short = &ShortFlows{Rate: ShortFlowRate(0.1, 16, 10e9, sizes), Sizes: sizes}
		cfg.ControlFrames = true
		type result struct {
			samples         []byte
			summary         []byte
			direct, demoted int
			pauses          int64
		}
		runWith := func(fifo bool) result {
			var r result
			var buf []byte
			var sim *Packet
			c := cfg
			c.OnSample = func(x *Sample) {
				buf = SampleBytes(buf[:0], x, x.Rates, x.CurrentRates, x.Capacity)
				r.samples = append(r.samples, buf...)
				for _, p := range sim.ports {
					if p.queued > 1 {
						r.direct++
					}
				}
			}
			var err error
			if sim, err = NewPacket(c); err != nil {
				t.Fatal(err)
			}
			for _, p := range sim.ports {
				p.cls.fifo = fifo
			}
			sim.Run()
			sum := sim.Summary()
			if r.summary, err = json.Marshal(sum); err != nil {
				t.Fatal(err)
			}
			for _, p := range sim.ports {
				r.demoted += p.cls.demoted
				if p.pfc != nil {
					r.pauses += p.pfc.pauseFrames
				}
			}
			return r
		}
		fast, slow := runWith(false), runWith(true)
		if fast.direct == 0 || fast.demoted == 0 || fast.pauses == 0 {
			t.Errorf("strict %d: direct frames seen at %d samples' ports, demoted %d times, %d PAUSEs: not a test of them", strict, fast.direct, fast.demoted, fast.pauses)
		}
		if slow.direct != 0 {
			t.Errorf("strict %d: direct frames with the class queues alone", strict)
		}
		if !bytes.Equal(fast.samples, slow.samples) {
			t.Errorf("strict %d: the samples differ with direct frames", strict)
		}
		if !bytes.Equal(fast.summary, slow.summary) {
			t.Errorf("strict %d: the summary differs with direct frames:\n%s\n%s", strict, fast.summary, slow.summary)
		}
	}
}
