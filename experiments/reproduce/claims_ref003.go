package reproduce

import (
	"fmt"
	"strings"

	"qcnlab/model"
)

// Seed 003: D. Bergamasco, "Ethernet Congestion Manager" (BCN). The draft
// states mechanisms, not measurements; its claim on the timeout with random
// restart (section 3.3.3, figure 8) is what the mechanism is for.
func claims003() []Claim {
	return []Claim{{
		ID: "003-fig8", Ref: "003", Figure: "figure 8",
		Text:       `Timeout with random restart: on ECM(0,0) a rate limiter stops for a random time up to Tmax and restarts at Rmin, to mimic "TCP retransmission timeout, which causes the silencing of most of the sources contributing to" the congestion and "Ethernet CSMA/CD ..., which helps desynchronize traffic sources restarting after a timeout" (section 3.3.3)`,
		Experiment: "ecm-small-buffers",
		Quick:      Quick{Seeds: 1, Duration: "200ms"},
		Plot:       &SweepPlot{Key: "network.buffer", Metric: dropShare, YLabel: "dropped share of the frames (%)", Scale: 100},
		Rule:       restartKeepsTheLinkBusy,
	}}
}

// dropShare is the share of the frames reaching the queue that were dropped
// in the window.
var dropShare Metric = func(s model.Summary) float64 {
	frames := 0.0
	for _, src := range s.Sources {
		frames += float64(src.DeliveredBytes)
	}
	b := s.Bottlenecks[0]
	if b.DroppedBytes+int64(frames) == 0 {
		return 0
	}
	return float64(b.DroppedBytes) / (float64(b.DroppedBytes) + frames)
}

// restartKeepsTheLinkBusy: with 100 sources from line rate into small
// buffers, the overload is silenced (under 5% of the frames dropped) and
// the restarts do not leave the link idle (utilization at least 0.95), at
// every buffer size.
func restartKeepsTheLinkBusy(rs Runs) Outcome {
	held, of := 0, 0
	var ms []string
	for _, buf := range rs.Values("network.buffer") {
		at := rs.Of("ecm", "network.buffer="+buf)
		u, d := at.Mean(utilization), at.Mean(dropShare)
		of += 2
		if d < 0.05 {
			held++
		}
		if u >= 0.95 {
			held++
		}
		ms = append(ms, fmt.Sprintf("%s: utilization %.3f, %.2f%% dropped", buf, u, 100*d))
	}
	return Outcome{Verdict: grade(held, of), Measured: strings.Join(ms, "; "),
		Criterion: "the draft gives no numbers; at each buffer, the sources are silenced (under 5% of the frames reaching the queue dropped, mean over seeds) and restart without leaving the link idle (utilization at least 0.95)"}
}
