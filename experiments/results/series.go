package results

import (
	"bufio"
	"bytes"
	"context"
	"encoding/csv"
	"fmt"
	"io"
	"strconv"
	"strings"

	"qcnlab/experiments"
	"qcnlab/experiments/batch"
	"qcnlab/model"
)

func partName(i int) string { return fmt.Sprintf("%06d.csv", i) }

// seriesWriter writes one run's time series as CSV rows into its part file.
type seriesWriter struct {
	f       io.WriteCloser
	w       *bufio.Writer
	prefix  []byte // the run's identifying columns, with a trailing comma
	buf     []byte
	rows    int
	sources int
	links   int
	err     error
}

func (o *outputs) series(i int, run experiments.Run) (*seriesWriter, error) {
	f, err := o.dir.CreateIn(o.parts, partName(i))
	if err != nil {
		return nil, err
	}
	return &seriesWriter{f: f, w: bufio.NewWriterSize(f, 1<<16), prefix: SeriesPrefix(o.columns, run), sources: o.sources, links: o.links}, nil
}

// SeriesPrefix is the start of each of a run's rows in timeseries.csv: its
// algorithm and its values of the swept keys columns, and a comma.
func SeriesPrefix(columns []string, run experiments.Run) []byte {
	cells := []string{run.Algorithm}
	for _, key := range columns {
		cell := "" // an axis that does not apply to the run's algorithm
		for _, a := range run.Point {
			if a.Key == key {
				cell = strings.Trim(a.Value, `"`)
			}
		}
		cells = append(cells, cell)
	}
	return csvRow(cells, true)
}

// csvRow formats cells as one CSV line, or as a prefix ending in a comma.
func csvRow(cells []string, prefix bool) []byte {
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	w.Write(cells)
	w.Flush()
	line := bytes.TrimSuffix(b.Bytes(), []byte("\n"))
	if prefix {
		return append(line, ',')
	}
	return append(line, '\n')
}

func (s *seriesWriter) write(x *model.Sample) {
	buf := append(s.buf[:0], s.prefix...)
	buf = strconv.AppendFloat(buf, x.Time.Seconds(), 'g', -1, 64)
	for j := 0; j < s.links; j++ {
		buf = append(buf, ',')
		if j < len(x.Queues) {
			buf = strconv.AppendInt(buf, int64(x.Queues[j]), 10)
		}
	}
	for i := 0; i < s.sources; i++ {
		buf = append(buf, ',')
		if i < len(x.Rates) {
			buf = strconv.AppendFloat(buf, x.Rates[i], 'g', -1, 64)
		}
	}
	for j := 0; j < s.links; j++ {
		buf = append(buf, ',')
		if j < len(x.Capacity) {
			buf = strconv.AppendFloat(buf, x.Capacity[j], 'g', -1, 64)
		}
	}
	buf = append(buf, '\n')
	s.rows++
	if _, err := s.w.Write(buf); err != nil && s.err == nil {
		s.err = err
	}
	s.buf = buf
}

func (s *seriesWriter) close() error {
	err := s.w.Flush()
	if cerr := s.f.Close(); err == nil {
		err = cerr
	}
	if s.err != nil {
		return s.err
	}
	return err
}

// discard drops a run's rows: its part stays in the temporary folder, which
// goes with the directory's Close.
func (s *seriesWriter) discard() { s.f.Close() }

// joinParts writes timeseries.csv's header and the finished runs' parts.
func (o *outputs) joinParts(ctx context.Context, w io.Writer, summaries []*batch.RunSummary) error {
	header := append([]string{"algorithm"}, o.columns...)
	header = append(header, "time_s")
	for j := 0; j < o.links; j++ {
		header = append(header, fmt.Sprintf("queue_sw%d_bytes", j))
	}
	for i := 0; i < o.sources; i++ {
		header = append(header, fmt.Sprintf("rate_%d_bps", i))
	}
	for j := 0; j < o.links; j++ {
		header = append(header, fmt.Sprintf("capacity_sw%d_bps", j))
	}
	if _, err := w.Write(csvRow(header, false)); err != nil {
		return err
	}
	for i, s := range summaries {
		if s == nil {
			continue
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		part, err := o.dir.Open(o.parts + "/" + partName(i))
		if err != nil {
			return err
		}
		_, err = io.Copy(w, ctxReader{ctx, part})
		part.Close()
		if err != nil {
			return err
		}
	}
	return nil
}

// ctxReader is a reader that stops when its context is cancelled: a copy of
// gigabytes of time series stops within a buffer.
type ctxReader struct {
	ctx context.Context
	r   io.Reader
}

func (c ctxReader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.r.Read(p)
}
