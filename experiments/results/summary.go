package results

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"

	"qcnlab/experiments/outdir"
	"qcnlab/model"
)

// WriteJSON writes the result as JSON, port names as they read
// ("leaf0->spine1", not "leaf0-\u003espine1").
func WriteJSON(w io.Writer, res *Result) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(res)
}

// Warnings are what a reader of the result should know about the numbers:
// a run with nothing delivered has no fairness to measure. A run of flows
// of a given size only, which has no greedy flow to be fair among, is not
// warned about when its flows delivered.
func Warnings(res *Result) []string {
	var out []string
	for _, r := range res.Runs {
		if r.JainFairness == nil && !delivered(&r.Summary) {
			label := r.Label
			if label == "" {
				label = r.Algorithm
			}
			out = append(out, fmt.Sprintf("%s: nothing was delivered in [warmup, duration]: jain_fairness and time_to_fairness_seconds are null "+
				"(a loop delay or start time beyond the run?)", label))
		}
	}
	return out
}

// writeSummary writes a batch's summary.json into dir.
// Encoding a summary of many sources and phases takes seconds; if ctx is
// cancelled meanwhile it returns at once and writes nothing.
func writeSummary(ctx context.Context, dir *outdir.Dir, res *Result) error {
	type encoded struct {
		data []byte
		err  error
	}
	done := make(chan encoded, 1)
	go func() {
		var b bytes.Buffer
		err := WriteJSON(&b, res)
		done <- encoded{b.Bytes(), err}
	}()
	var data []byte
	select {
	case e := <-done:
		if e.err != nil {
			return e.err
		}
		data = e.data
	case <-ctx.Done():
		return ctx.Err()
	}
	return dir.WriteFile("summary.json", data) // WriteJSON ends it with a newline
}

// delivered reports whether a run delivered anything: a source's bytes, or
// a flow of a given size, completed.
func delivered(s *model.Summary) bool {
	for _, src := range s.Sources {
		if src.DeliveredBytes > 0 {
			return true
		}
	}
	return s.Flows != nil && s.Flows.Completed > 0
}

// noFairness says why a run has no Jain index: no greedy flow to be fair
// among, or nothing delivered.
func noFairness(s *model.Summary) string {
	if len(s.Sources) == 0 && delivered(s) {
		return "none (no greedy flows)"
	}
	return "none (nothing delivered)"
}
