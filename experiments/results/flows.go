package results

import (
	"bufio"
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"

	"qcnlab/algos"
	"qcnlab/experiments"
	"qcnlab/experiments/batch"
	"qcnlab/model"
)

// FlowsFile holds a batch's flows of a given size, one row per flow of
// every run: completed, lost, or unfinished when its run ended.
const FlowsFile = "flows.csv.gz"

// FlowColumns are the columns of flows.csv.gz after a run's Identity. A
// flow that did not complete has empty finish_s, fct_s and slowdown
// (NaN in pandas) and says why in outcome.
var FlowColumns = []string{
	"flow",       // the run's flow number: a [[flows]] entry's index, then the arrivals in order
	"from", "to", // hosts; on a chain the source (src2) and "sink"
	"class",            // traffic class
	"size_bytes",       // bytes
	"start_s",          // when it started
	"finish_s",         // when its last byte reached its receiver
	"fct_s",            // finish_s - start_s
	"ideal_fct_s",      // alone on its path: exact, one way (model.FlowRecord.Ideal)
	"slowdown",         // fct_s / ideal_fct_s
	"hpcc_ideal_fct_s", // the HPCC code's standalone FCT: base RTT + size at the path's slowest link
	"path_count",       // distinct paths its frames took
	"outcome",          // completed, lost or unfinished
	"in_window",        // started in [warmup, duration]: counted in the summary's statistics
	// The transport's recovery, for the ACK-clocked schemes and the others
	// with a recovery (0 open loop).
	"retransmitted_bytes", // bytes its sender sent again
	"timeouts",            // its retransmission timeouts
	"nacks",               // the NACKs its sender received
}

// flowWriter writes one run's flow records into its part file, one gzip
// member, as the time series' seriesWriter does: memory stays flat
// whatever the number of flows.
type flowWriter struct {
	f      *os.File
	buffer *bufio.Writer
	w      *gzip.Writer
	prefix []byte
	buf    []byte
	rows   int
	err    error
	failed func(error) // hears the first write that fails
}

func flowPartName(i int) string { return fmt.Sprintf("flows-%06d.csv.gz", i) }

func (o *outputs) newFlows(i int, run experiments.Run) (*flowWriter, error) {
	f, err := o.dir.CreateIn(o.flowParts, flowPartName(i))
	if err != nil {
		return nil, err
	}
	buffer := bufio.NewWriterSize(partWriter(f), 1<<16)
	w, _ := gzip.NewWriterLevel(buffer, SeriesLevel)
	return &flowWriter{f: f, buffer: buffer, w: w, prefix: SeriesPrefix(o.exp, i, run),
		failed: func(err error) { o.markLost(i, err) }}, nil
}

// FlowsHeader is the header line of flows.csv.gz.
func FlowsHeader(e *experiments.Experiment) []byte {
	return csvRow(append(Identity(e), FlowColumns...), false)
}

func (fw *flowWriter) write(r *model.FlowRecord) {
	if fw.err != nil {
		return // the part is lost
	}
	b := append(fw.buf[:0], fw.prefix...)
	b = strconv.AppendInt(b, r.ID, 10)
	b = append(b, ',')
	b = appendCSV(b, r.From)
	b = append(b, ',')
	b = appendCSV(b, r.To)
	b = append(b, ',')
	b = strconv.AppendInt(b, int64(r.Class), 10)
	b = append(b, ',')
	b = strconv.AppendInt(b, r.Size, 10)
	b = append(b, ',')
	b = appendFloat(b, r.Start.Seconds())
	b = append(b, ',')
	if r.Finish != algos.Never {
		b = appendFloat(b, r.Finish.Seconds())
	}
	b = append(b, ',')
	b = appendFloat(b, r.FCT())
	b = append(b, ',')
	b = appendFloat(b, r.Ideal)
	b = append(b, ',')
	b = appendFloat(b, r.Slowdown())
	b = append(b, ',')
	b = appendFloat(b, r.IdealHPCC)
	b = append(b, ',')
	b = strconv.AppendInt(b, int64(r.PathCount), 10)
	b = append(b, ',')
	b = append(b, r.Outcome.String()...)
	b = append(b, ',')
	b = strconv.AppendBool(b, r.InWindow)
	for _, n := range [...]int64{r.Retransmitted, r.Timeouts, r.NACKs} {
		b = append(b, ',')
		b = strconv.AppendInt(b, n, 10)
	}
	b = append(b, '\n')
	fw.rows++
	if _, err := fw.w.Write(b); err != nil {
		fw.err = err
		fw.failed(err)
	}
	fw.buf = b
}

// appendFloat appends x, or nothing for NaN: an empty cell.
func appendFloat(b []byte, x float64) []byte {
	if math.IsNaN(x) {
		return b
	}
	return strconv.AppendFloat(b, x, 'g', -1, 64)
}

// appendCSV appends a name, quoted if CSV needs it.
func appendCSV(b []byte, s string) []byte {
	line := csvRow([]string{s}, false)
	return append(b, line[:len(line)-1]...)
}

// close ends the run's part, emptied if it failed, as seriesWriter's.
func (fw *flowWriter) close() error {
	err := fw.w.Close()
	if ferr := fw.buffer.Flush(); err == nil {
		err = ferr
	}
	if fw.err != nil {
		err = fw.err
	}
	if err != nil {
		fw.f.Truncate(0)
	}
	if cerr := fw.f.Close(); err == nil {
		err = cerr
	}
	return err
}

func (fw *flowWriter) discard() {
	fw.f.Truncate(0)
	fw.f.Close()
}

// hasFlows reports whether any run of the batch has flows of a given size:
// then the batch writes flows.csv.gz.
func hasFlows(summaries []*batch.RunSummary) bool {
	for _, s := range summaries {
		if s != nil && s.Flows != nil {
			return true
		}
	}
	return false
}

// joinFlows writes flows.csv.gz: its header, then the finished runs'
// parts in run order. As timeseries.csv.gz (writeSeries), a file of the
// header alone while runs of flows finished is not written, and res names
// it, or the runs it lacks.
func (o *outputs) joinFlows(ctx context.Context, res *Result, summaries []*batch.RunSummary) error {
	joined, lacks := o.whole(summaries, func(s *batch.RunSummary) bool { return s.Flows != nil })
	if joined == 0 && len(lacks) > 0 {
		res.lacking(FlowsFile, false, lacks)
		return nil
	}
	// Joined or lost, the parts' room goes to the files after this one.
	defer o.emptyParts(o.flowParts, flowPartName, summaries, func(s *batch.RunSummary) bool { return s.Flows != nil })
	tmp, err := o.dir.CreateTemp(".", FlowsFile)
	if err != nil {
		if ctx.Err() == nil {
			res.lacking(FlowsFile, false, o.runsOf(summaries, func(s *batch.RunSummary) bool { return s.Flows != nil }))
		}
		return err
	}
	err = Gzip(tmp, FlowsHeader(o.exp))
	for i, s := range summaries {
		if s == nil || s.Flows == nil || !o.kept[i] || err != nil {
			continue
		}
		if err = ctx.Err(); err != nil {
			break
		}
		var part io.ReadCloser
		if part, err = o.dir.Open(o.flowParts + "/" + flowPartName(i)); err != nil {
			break
		}
		_, err = io.Copy(tmp, ctxReader{ctx, part})
		part.Close()
	}
	if err != nil {
		o.dir.Discard(tmp)
		if ctx.Err() == nil {
			err = o.fileError(FlowsFile, err)
		}
	} else {
		o.pending = append(o.pending, pendingFile{tmp, FlowsFile, o.runsOf(summaries, func(s *batch.RunSummary) bool { return s.Flows != nil })})
	}
	switch {
	case err == nil && len(lacks) > 0:
		res.lacking(FlowsFile, true, lacks)
	case err != nil && ctx.Err() == nil:
		res.lacking(FlowsFile, false, o.runsOf(summaries, func(s *batch.RunSummary) bool { return s.Flows != nil }))
	}
	return err
}
