package results

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/csv"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"qcnlab/algos"
	"qcnlab/experiments"
	"qcnlab/experiments/batch"
	"qcnlab/experiments/outdir"
	"qcnlab/model"
	"qcnlab/units"
)

// SeriesFile is the time series of a batch in its output directory.
const SeriesFile = "timeseries.csv.gz"

// SeriesLevel is the gzip level of the time series. On the 100 runs of
// ap-n-aimd-2-sources at 200 ms (144 MB of CSV), level 1 makes 9.6 MB (15x)
// and level 2 8.5 MB (17x), both at about 600 MB/s; gzip's default, 6,
// makes 6.8 MB (21x) at 200 MB/s, as much CPU as the runs themselves.
const SeriesLevel = 2

// Series says what the time series of a batch holds (--series): every
// sample, one row per Every of simulated time, or nothing.
type Series struct {
	None  bool
	Every algos.Time // 0: every sample
}

// ParseSeries reads --series: "full", "none", or a duration such as "1ms".
func ParseSeries(s string) (Series, error) {
	switch strings.TrimSpace(s) {
	case "", "full":
		return Series{}, nil
	case "none":
		return Series{None: true}, nil
	}
	d, err := units.ParseDuration(s)
	if err != nil || d <= 0 || d == algos.Never { // never: one row at t = 0, which is none with a row
		return Series{}, fmt.Errorf("--series: %q is not full, none or a duration such as 1ms (one row per duration)", s)
	}
	return Series{Every: d}, nil
}

func (s Series) String() string {
	switch {
	case s.None:
		return "none"
	case s.Every > 0:
		return units.FormatDuration(s.Every)
	}
	return "full"
}

func partName(i int) string { return fmt.Sprintf("%06d.csv.gz", i) }

// seriesWriter writes one run's time series as CSV rows into its part file,
// one gzip member: the members of the runs, concatenated after the
// header's, make timeseries.csv.gz.
type seriesWriter struct {
	f       *os.File
	buffer  *bufio.Writer // under the compressor
	w       *gzip.Writer
	prefix  []byte // the run's identifying columns, with a trailing comma
	buf     []byte
	every   algos.Time
	next    algos.Time // with every: the time from which the next row is kept
	rows    int
	sources int
	links   int
	err     error
	failed  func(error) // hears the first write that fails
}

func (o *outputs) newSeries(i int, run experiments.Run) (*seriesWriter, error) {
	f, err := o.dir.CreateIn(o.parts, partName(i))
	if err != nil {
		return nil, err
	}
	buffer := bufio.NewWriterSize(partWriter(f), 1<<16)
	w, _ := gzip.NewWriterLevel(buffer, SeriesLevel)
	return &seriesWriter{f: f, buffer: buffer, w: w, prefix: SeriesPrefix(o.exp, i, run), every: o.every,
		sources: o.sources, links: o.links, failed: func(err error) { o.markLost(i, err) }}, nil
}

// testHookPart, set by the tests only, stands between a run's part file
// and its writer: a full disk without a full disk.
var testHookPart func(f io.Writer) io.Writer

func partWriter(f io.Writer) io.Writer {
	if testHookPart != nil {
		return testHookPart(f)
	}
	return f
}

// Identity is the columns that name a run in results.csv and
// timeseries.csv.gz, in this order: run (its index in the batch), the swept
// keys other than the seed in base units (SweptColumn), algorithm, seed.
func Identity(e *experiments.Experiment) []string {
	header := []string{"run"}
	for _, key := range sweptKeys(e) {
		header = append(header, SweptColumn(key))
	}
	return append(header, "algorithm", "seed")
}

// identityCells are a run's cells of the Identity columns. A swept key that
// does not apply to the run's algorithm has an empty cell.
func identityCells(e *experiments.Experiment, index int, algorithm string, seed uint64, point func(key string) (string, bool)) []string {
	cells := []string{strconv.Itoa(index)}
	for _, key := range sweptKeys(e) {
		v, ok := point(key)
		if !ok {
			cells = append(cells, "")
			continue
		}
		cells = append(cells, SweptValue(key, v))
	}
	return append(cells, algorithm, strconv.FormatUint(seed, 10))
}

// sweptKeys are the experiment's swept keys other than the seed, which has
// its own column.
func sweptKeys(e *experiments.Experiment) []string {
	var keys []string
	for _, a := range e.Sweep {
		if a.Key != "seed" {
			keys = append(keys, a.Key)
		}
	}
	return keys
}

// SeriesPrefix is the start of each of a run's rows in timeseries.csv.gz:
// its Identity cells, and a comma.
func SeriesPrefix(e *experiments.Experiment, index int, run experiments.Run) []byte {
	cells := identityCells(e, index, run.Algorithm, run.Exp.Seed, func(key string) (string, bool) {
		for _, a := range run.Point {
			if a.Key == key {
				return a.Value, true
			}
		}
		return "", false
	})
	return csvRow(cells, true)
}

// SeriesHeader is the header line of timeseries.csv.gz for runs of at most
// links bottlenecks and sources sources.
func SeriesHeader(e *experiments.Experiment, links, sources int) []byte {
	header := append(Identity(e), "time_s")
	// On a fabric, column k is the k-th watched port or flow (summary.json's
	// watched); on a chain, port k and source k.
	queue, rate, capacity := "queue_sw%d_bytes", "rate_%d_bps", "capacity_sw%d_bps"
	if e.IsFabric() {
		queue, rate, capacity = "queue_w%d_bytes", "rate_w%d_bps", "capacity_w%d_bps"
	}
	for j := 0; j < links; j++ {
		header = append(header, fmt.Sprintf(queue, j))
	}
	for i := 0; i < sources; i++ {
		header = append(header, fmt.Sprintf(rate, i))
	}
	for j := 0; j < links; j++ {
		header = append(header, fmt.Sprintf(capacity, j))
	}
	return csvRow(header, false)
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

// Keep reports whether a sample at t is a row of a series thinned to one
// row per every (0: every sample), given next, the time from which the next
// row is kept, and returns the next such time: the first sample at or after
// each multiple of every, so that the rows of different runs fall at the
// same times.
func Keep(t, every, next algos.Time) (bool, algos.Time) {
	if every <= 0 {
		return true, 0
	}
	if t < next {
		return false, next
	}
	return true, (t/every + 1) * every
}

func (s *seriesWriter) write(x *model.Sample) {
	if s.err != nil {
		return // the part is lost: no rows to make
	}
	var keep bool
	if keep, s.next = Keep(x.Time, s.every, s.next); !keep {
		return
	}
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
	if _, err := s.w.Write(buf); err != nil {
		s.err = err
		s.failed(err)
	}
	s.buf = buf
}

// close ends the run's part; a part that failed is emptied, its room left
// to the others.
func (s *seriesWriter) close() error {
	err := s.w.Close()
	if ferr := s.buffer.Flush(); err == nil {
		err = ferr
	}
	if s.err != nil {
		err = s.err
	}
	if err != nil {
		s.f.Truncate(0)
	}
	if cerr := s.f.Close(); err == nil {
		err = cerr
	}
	return err
}

// discard drops a run's rows: its part, emptied, stays in the temporary
// folder, which goes with the directory's Close.
func (s *seriesWriter) discard() {
	s.f.Truncate(0)
	s.f.Close()
}

// Gzip compresses data as one gzip member at SeriesLevel: a header, or a
// run's rows, of timeseries.csv.gz.
func Gzip(w io.Writer, data []byte) error {
	z, _ := gzip.NewWriterLevel(w, SeriesLevel)
	if _, err := z.Write(data); err != nil {
		return err
	}
	return z.Close()
}

// joinParts writes timeseries.csv.gz: its header, then the finished runs'
// parts that are whole, each a gzip member, in run order.
func (o *outputs) joinParts(ctx context.Context, w io.Writer, summaries []*batch.RunSummary) error {
	if err := Gzip(w, SeriesHeader(o.exp, o.links, o.sources)); err != nil {
		return err
	}
	for i, s := range summaries {
		if s == nil || !o.kept[i] {
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

// OpenSeries opens the time series an output directory holds, as CSV:
// timeseries.csv.gz decompressed. Its columns are SeriesHeader's.
func OpenSeries(dir *outdir.Dir) (io.ReadCloser, error) {
	f, err := dir.Open(SeriesFile)
	if err != nil {
		return nil, err
	}
	z, err := gzip.NewReader(bufio.NewReaderSize(f, 1<<16))
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("%s: %w", dir.Join(SeriesFile), err)
	}
	return readCloser{z, f}, nil
}

// readCloser reads a decompressed file and closes the file.
type readCloser struct {
	io.Reader
	f io.Closer
}

func (r readCloser) Close() error { return r.f.Close() }

// ContextReader is r that stops with ctx's error once ctx is cancelled: a
// copy of gigabytes of time series stops within a buffer.
func ContextReader(ctx context.Context, r io.Reader) io.Reader { return ctxReader{ctx, r} }

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
