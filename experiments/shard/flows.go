package shard

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"

	"qcnlab/experiments"
	"qcnlab/experiments/outdir"
	"qcnlab/experiments/results"
	"qcnlab/experiments/userfile"
)

// maxFlowLine bounds a line of a shard's flows.csv.gz.
const maxFlowLine = 1 << 20

// flowReader reads one shard's flows.csv.gz a line at a time, its runs in
// order.
type flowReader struct {
	name string
	f    *os.File
	z    *gzip.Reader
	r    *bufio.Reader
	line []byte // the next row, nil at the end
}

func openFlows(s *slice, e *experiments.Experiment) (*flowReader, error) {
	name := filepath.Join(s.dir, results.FlowsFile)
	f, err := userfile.Open(name, shardFile) // a FIFO would block the open
	if err != nil {
		return nil, err
	}
	fr := &flowReader{name: name, f: f}
	if fr.z, err = gzip.NewReader(bufio.NewReaderSize(f, 1<<16)); err != nil {
		f.Close()
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	fr.r = bufio.NewReaderSize(fr.z, 1<<16)
	header, err := fr.read()
	if err == nil && !bytes.Equal(header, results.FlowsHeader(e)) {
		err = fmt.Errorf("%s: its header is not the experiment's", name)
	}
	if err == nil {
		fr.line, err = fr.read()
	}
	if err != nil {
		fr.close()
		return nil, err
	}
	return fr, nil
}

// read returns the next line, newline included; nil at the end.
func (fr *flowReader) read() ([]byte, error) {
	var line []byte
	for {
		chunk, err := fr.r.ReadSlice('\n')
		line = append(line, chunk...)
		if len(line) > maxFlowLine {
			return nil, fmt.Errorf("%s: a line longer than %d bytes", fr.name, maxFlowLine)
		}
		switch {
		case err == nil:
			return line, nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case errors.Is(err, io.EOF):
			if len(line) > 0 {
				return nil, fmt.Errorf("%s: its last line is cut", fr.name)
			}
			return nil, nil
		default:
			return nil, fmt.Errorf("%s: %w", fr.name, err)
		}
	}
}

func (fr *flowReader) close() { fr.z.Close(); fr.f.Close() }

// runOf is the run column of a row.
func runOf(line []byte) (int, bool) {
	cell, _, ok := bytes.Cut(line, []byte{','})
	n, err := strconv.Atoi(string(cell))
	return n, ok && err == nil
}

// mergeFlows writes the shards' flows.csv.gz into out, their rows in run
// order, if the shards have them; the runs are the batch's in order.
func mergeFlows(ctx context.Context, e *experiments.Experiment, runs []place, dir *outdir.Dir) error {
	readers := map[*slice]*flowReader{}
	defer func() {
		for _, fr := range readers {
			fr.close()
		}
	}()
	for _, p := range runs {
		if _, seen := readers[p.s]; seen {
			continue
		}
		fr, err := openFlows(p.s, e)
		if errors.Is(err, os.ErrNotExist) {
			if len(readers) > 0 {
				return fmt.Errorf("%s: no %s, which other shards have", p.s.dir, results.FlowsFile)
			}
			return nil // a batch without flows of a given size
		}
		if err != nil {
			return err
		}
		readers[p.s] = fr
	}
	tmp, err := dir.CreateTemp(".", results.FlowsFile)
	if err != nil {
		return err
	}
	fail := func(err error) error { dir.Discard(tmp); return err }
	if err := results.Gzip(tmp, results.FlowsHeader(e)); err != nil {
		return fail(err)
	}
	z, _ := gzip.NewWriterLevel(tmp, results.SeriesLevel)
	for i, p := range runs {
		if err := ctx.Err(); err != nil {
			return fail(err)
		}
		fr := readers[p.s]
		for fr.line != nil {
			run, ok := runOf(fr.line)
			if !ok || run < i {
				return fail(fmt.Errorf("%s: a row of run %q out of order", fr.name, fr.line[:min(len(fr.line), 20)]))
			}
			if run > i {
				break
			}
			if _, err := z.Write(fr.line); err != nil {
				return fail(err)
			}
			if fr.line, err = fr.read(); err != nil {
				return fail(err)
			}
		}
	}
	for _, fr := range readers {
		if fr.line != nil {
			return fail(fmt.Errorf("%s: rows of a run the shard does not hold", fr.name))
		}
	}
	if err := z.Close(); err != nil {
		return fail(err)
	}
	return dir.Commit(tmp, results.FlowsFile)
}
