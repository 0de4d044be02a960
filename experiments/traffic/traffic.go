// Package traffic is an experiment's traffic: the [traffic] table and the
// [[flows]] entries, the short flows' sizes and the FCT buckets they are
// read into, and a fabric's flows built from a pattern and the entries.
package traffic

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"qcnlab/algos"
	"qcnlab/experiments/userfile"
	"qcnlab/model"
	"qcnlab/units"
)

// Traffic is the [traffic] table: greedy flows per source and short flows
// (seed 004 section V-C, "Mixed Flows"); model/traffic.go says how they
// share a source's rate limiter.
type Traffic struct {
	LongFlows      int     `toml:"long_flows"`       // greedy flows per source (default 1)
	ShortFlowRate  float64 `toml:"short_flow_rate"`  // short flows per second, whole network, Poisson
	ShortFlowSizes string  `toml:"short_flow_sizes"` // "websearch", "hadoop", a CDF file, or a size such as "1.25MB"

	// A fabric's flows (flows.go): a pattern of flows of FlowSize
	// ("greedy" or a size), and short flows as a load, a share of the
	// host links' capacity (or ShortFlowRate).
	Pattern       string          `toml:"pattern,omitempty"` // "permutation", "incast", "all_to_all", "none"
	FlowSize      string          `toml:"flow_size,omitempty"`
	IncastSenders *int            `toml:"incast_senders,omitempty"` // drawn from the seed among hosts not under the receiver's switch
	IncastFrom    []int           `toml:"incast_from,omitempty"`    // or listed
	IncastTo      *int            `toml:"incast_to,omitempty"`      // the receiver, default host 0
	IncastStart   *units.Duration `toml:"incast_start,omitempty"`
	IncastJitter  *units.Duration `toml:"incast_jitter,omitempty"` // starts spread over [start, start+jitter)
	Load          *float64        `toml:"load,omitempty"`
	Class         *int            `toml:"class,omitempty"` // the flows' traffic class (network.classes)

	// The drain: short flows stop arriving at Stop, or after MaxFlows
	// flows, and a run with no greedy flow ends once every flow is over.
	Stop     *units.Duration `toml:"stop,omitempty"`
	MaxFlows *int64          `toml:"max_flows,omitempty"`
}

// FlowEntry is a [[flows]] entry: one flow between two hosts.
type FlowEntry struct {
	From  *int            `toml:"from"` // required: nil only when the file left it out
	To    *int            `toml:"to"`   // required
	Start units.Duration  `toml:"start"`
	Stop  *units.Duration `toml:"stop,omitempty"`  // default: never
	Size  string          `toml:"size,omitempty"`  // "greedy" (the default) or a size
	Class *int            `toml:"class,omitempty"` // default: traffic.class
}

// Default is one greedy flow per source and no short flows: the model's
// classic greedy sources.
func Default() Traffic { return Traffic{LongFlows: 1, ShortFlowSizes: "websearch"} }

// Drain is the model's drain of traffic.stop and traffic.max_flows.
func (t Traffic) Drain() model.Drain {
	var d model.Drain
	if t.Stop != nil {
		d.Stop = algos.Time(*t.Stop)
	}
	if t.MaxFlows != nil {
		d.MaxFlows = *t.MaxFlows
	}
	return d
}

// Classic reports whether the traffic is the classic one greedy flow per
// source, which the model runs without any flow bookkeeping.
func (t Traffic) Classic() bool { return t.LongFlows == 1 && t.ShortFlowRate == 0 }

// ClassOf is traffic.class or its default, 0: the class of a chain's
// sources and of a fabric's pattern and short flows.
func (t Traffic) ClassOf() int {
	if t.Class != nil {
		return *t.Class
	}
	return 0
}

// Short reports whether short flows arrive: a rate or a load.
func (t Traffic) Short() bool { return t.ShortFlowRate > 0 || (t.Load != nil && *t.Load > 0) }

// Sizes resolves a short_flow_sizes spec: a named workload, a fixed size,
// or a CDF file, relative to dir unless absolute.
func Sizes(spec, dir string) (*model.FlowSizes, error) {
	spec = strings.TrimSpace(spec)
	if slices.Contains(model.Workloads, spec) {
		return model.Workload(spec)
	}
	b, sizeErr := units.ParseBytes(spec)
	if sizeErr == nil {
		if b < 1 || b != float64(int64(b)) {
			return nil, fmt.Errorf("a fixed flow size must be a whole number of bytes, at least 1")
		}
		return model.FixedSize(spec, int64(b)), nil
	}
	path := sizesFile(spec, dir)
	data, err := readCDF(path)
	if err != nil {
		if _, statErr := os.Stat(path); os.IsNotExist(statErr) && strings.ContainsAny(spec[:min(1, len(spec))], "+-.0123456789") {
			return nil, sizeErr // "1e30B", "-1B": a size out of bounds, not a file
		}
		return nil, fmt.Errorf("%q is not a workload (%s), a size such as \"1.25MB\", or a readable CDF file: %v",
			spec, strings.Join(model.Workloads, ", "), err)
	}
	return model.ParseCDF(path, data)
}

// sizesFile is the CDF file a short_flow_sizes spec names, relative to
// dir unless absolute.
func sizesFile(spec, dir string) string {
	if filepath.IsAbs(spec) {
		return spec
	}
	return filepath.Join(dir, spec)
}

// readCDF reads a CDF file: a regular file (a device or a pipe is not read
// at all) of at most userfile.MaxText.
func readCDF(path string) ([]byte, error) {
	return userfile.Read(context.Background(), path, userfile.Limit{Max: userfile.MaxText, What: "a CDF file"})
}

// AbsSizes writes a short_flow_sizes spec that names a CDF file by its
// absolute path (relative to dir), so that an experiment saved elsewhere
// (--out DIR) still finds it; workloads and sizes stay as they are.
func AbsSizes(spec, dir string) string {
	t := strings.TrimSpace(spec)
	if slices.Contains(model.Workloads, t) || filepath.IsAbs(t) {
		return spec
	}
	if _, err := units.ParseBytes(t); err == nil {
		return spec
	}
	abs, err := filepath.Abs(sizesFile(t, dir))
	if err != nil {
		return spec
	}
	return abs
}

// Named is what a short_flow_sizes spec names, the same however it is
// written: a workload's name without spaces (Sizes trims them), a fixed
// size in bytes ("1.25MB" and "1250KB"), or a CDF file by its cleaned
// absolute path ("a.cdf" and "./a.cdf"), relative to dir unless absolute.
func Named(spec, dir string) string {
	spec = strings.TrimSpace(spec)
	if slices.Contains(model.Workloads, spec) {
		return spec
	}
	if b, err := units.ParseBytes(spec); err == nil {
		return units.FormatBytes(b)
	}
	path := sizesFile(spec, dir)
	if abs, err := filepath.Abs(path); err == nil {
		return abs // cleaned
	}
	return filepath.Clean(path)
}

// Buckets resolves output.fct_buckets into the model's upper edges in
// bytes: a size, or a percentage of the short flows' size distribution
// (sizes reads it).
func Buckets(specs []string, sizes func() (*model.FlowSizes, error)) ([]float64, error) {
	var out []float64
	for k, spec := range specs {
		spec = strings.TrimSpace(spec)
		var edge float64
		if pct, ok := strings.CutSuffix(spec, "%"); ok {
			p, err := strconv.ParseFloat(strings.TrimSpace(pct), 64)
			if err != nil || !(p > 0 && p <= 100) {
				return nil, fmt.Errorf("%q is not a share of the flows from 0%% (excluded) to 100%%", spec)
			}
			s, err := sizes()
			if err != nil {
				return nil, fmt.Errorf("%q: a percentile needs traffic.short_flow_sizes: %v", spec, err)
			}
			edge = s.Quantile(p / 100)
		} else {
			b, err := units.ParseBytes(spec)
			if err != nil || !(b > 0) {
				return nil, fmt.Errorf("%q is neither a size such as \"100KB\" nor a percentile such as \"50%%\"", spec)
			}
			edge = b
		}
		if k > 0 && edge <= out[k-1] {
			return nil, fmt.Errorf("the buckets' edges must increase: %q (%g bytes) after %g bytes", spec, edge, out[k-1])
		}
		out = append(out, edge)
	}
	return out, nil
}
