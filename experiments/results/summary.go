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

// writeSummary writes a batch's summary.json into dir. With room, a
// summary.json that does not fit has the joined files not yet committed
// give way to it one by one (room.yield), and those left are committed
// just before it (room.commit), once it is written whole: what it says of
// them is then so.
func writeSummary(ctx context.Context, dir *outdir.Dir, res *Result, room *room) error {
	for {
		data, err := encodeSummary(ctx, res)
		if err != nil {
			return err
		}
		tmp, err := dir.CreateTemp(".", "summary.json")
		if err == nil {
			if _, err = tmp.Write(data); err == nil && testHookSummaryWritten != nil {
				err = testHookSummaryWritten()
			}
			if err != nil {
				dir.Discard(tmp)
				err = fmt.Errorf("%s: %w", dir.Join("summary.json"), pathless(err)) // the file's name, not its temporary's
			}
		}
		if err != nil {
			if ctx.Err() == nil && room.yield(err, func() (int64, error) { return int64(len(data)), nil }) {
				continue // again, in the room it freed
			}
			return err
		}
		if room.commit() {
			// A joined file failed at the last: summary.json says so.
			dir.Discard(tmp)
			continue
		}
		return dir.Commit(tmp, "summary.json")
	}
}

// testHookSummaryWritten, set by the tests only, is called once
// summary.json's temporary is written; an error it returns fails the write,
// as a full disk would.
var testHookSummaryWritten func() error

// encodeSummary is summary.json of res. Encoding a summary of many sources
// and phases takes seconds; if ctx is cancelled meanwhile it returns at
// once.
func encodeSummary(ctx context.Context, res *Result) ([]byte, error) {
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
	select {
	case e := <-done:
		return e.data, e.err // WriteJSON ends it with a newline
	case <-ctx.Done():
		return nil, ctx.Err()
	}
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
