package model

import (
	"fmt"
	"testing"
	"time"

	"qcnlab/algos"
)

func TestDbgEvents(t *testing.T) {
	for _, sc := range []string{"qcn", "dcqcn", "dctcp", "qcn", "dcqcn", "dctcp"} {
		cfg := ackBenchConfig(t, 200*algos.Millisecond, sc)
		sim, _ := NewPacket(cfg)
		t0 := time.Now()
		sim.Run()
		el := time.Since(t0)
		fmt.Printf("%s frames %d events %d ev/frame %.2f ns/frame %.0f heap %d\n", sc, sim.Frames(), sim.Events(), float64(sim.Events())/float64(sim.Frames()), float64(el.Nanoseconds())/float64(sim.Frames()), sim.agenda.oneShot.len())
	}
}
