package experiments

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/BurntSushi/toml"

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

	// A fabric's flows (fabric.go): a pattern of flows of FlowSize
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
	Class         *int            `toml:"class,omitempty"` // the flows' traffic class (classes.go)

	// The drain: short flows stop arriving at Stop, or after MaxFlows
	// flows, and a run with no greedy flow ends once every flow is over.
	Stop     *units.Duration `toml:"stop,omitempty"`
	MaxFlows *int64          `toml:"max_flows,omitempty"`
}

// drain is the model's drain of traffic.stop and traffic.max_flows.
func (t Traffic) drain() model.Drain {
	var d model.Drain
	if t.Stop != nil {
		d.Stop = algos.Time(*t.Stop)
	}
	if t.MaxFlows != nil {
		d.MaxFlows = *t.MaxFlows
	}
	return d
}

// defaultTraffic is one greedy flow per source and no short flows: the
// model's classic greedy sources.
func defaultTraffic() Traffic { return Traffic{LongFlows: 1, ShortFlowSizes: "websearch"} }

// classic reports whether the traffic is the classic one greedy flow per
// source, which the model runs without any flow bookkeeping.
func (t Traffic) classic() bool { return t.LongFlows == 1 && t.ShortFlowRate == 0 }

// FlowSizes resolves traffic.short_flow_sizes: a named workload, a fixed
// size, or a CDF file, relative to the experiment file's directory.
func (e *Experiment) FlowSizes() (*model.FlowSizes, error) {
	spec := strings.TrimSpace(e.Traffic.ShortFlowSizes)
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
	path := e.flowSizesFile(spec, e.dir("traffic.short_flow_sizes"))
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

// flowSizesFile is the CDF file a short_flow_sizes spec names, relative to
// dir unless absolute.
func (e *Experiment) flowSizesFile(spec, dir string) string {
	if filepath.IsAbs(spec) {
		return spec
	}
	return filepath.Join(dir, spec)
}

// readCDF reads a CDF file: a regular file (a device or a pipe is not read
// at all) of at most MaxFileBytes.
func readCDF(path string) ([]byte, error) {
	return userfile.Read(context.Background(), path, userfile.Limit{Max: MaxFileBytes, What: "a CDF file"})
}

// absFlowSizes writes a short_flow_sizes spec that names a CDF file by its
// absolute path, so that an experiment saved elsewhere (--out DIR) still
// finds it; workloads and sizes stay as they are.
func (e *Experiment) absFlowSizes(spec, dir string) string {
	t := strings.TrimSpace(spec)
	if slices.Contains(model.Workloads, t) || filepath.IsAbs(t) {
		return spec
	}
	if _, err := units.ParseBytes(t); err == nil {
		return spec
	}
	abs, err := filepath.Abs(e.flowSizesFile(t, dir))
	if err != nil {
		return spec
	}
	return abs
}

// resolveFlowSizes makes r's CDF paths absolute, in [traffic] and in a
// sweep over traffic.short_flow_sizes.
func (e *Experiment) resolveFlowSizes(r *Experiment) {
	r.Traffic.ShortFlowSizes = e.absFlowSizes(e.Traffic.ShortFlowSizes, e.dir("traffic.short_flow_sizes"))
	for i, a := range r.Sweep {
		if a.Key != "traffic.short_flow_sizes" {
			continue
		}
		for j, v := range a.Values {
			var doc struct{ V string }
			if _, err := toml.Decode("v = "+v, &doc); err == nil {
				r.Sweep[i].Values[j] = quote(e.absFlowSizes(doc.V, e.dir("sweep")))
			}
		}
	}
}

// dir is the directory of the file that set key, for relative paths; the
// working directory for built-ins, --set and defaults.
func (e *Experiment) dir(key string) string {
	where := e.where(key)
	if strings.HasPrefix(where, "builtin:") || strings.HasPrefix(where, "experiment ") || where == "--set" {
		return "."
	}
	if i := strings.LastIndexByte(where, ':'); i > 0 {
		where = where[:i]
	}
	return filepath.Dir(where)
}

// FlowBuckets resolves output.fct_buckets into the model's upper edges in
// bytes: a size, or a percentage of the short flows' size distribution.
func (e *Experiment) FlowBuckets() ([]float64, error) {
	var out []float64
	for k, spec := range e.Output.FCTBuckets {
		spec = strings.TrimSpace(spec)
		var edge float64
		if pct, ok := strings.CutSuffix(spec, "%"); ok {
			p, err := strconv.ParseFloat(strings.TrimSpace(pct), 64)
			if err != nil || !(p > 0 && p <= 100) {
				return nil, fmt.Errorf("%q is not a share of the flows from 0%% (excluded) to 100%%", spec)
			}
			sizes, err := e.FlowSizes()
			if err != nil {
				return nil, fmt.Errorf("%q: a percentile needs traffic.short_flow_sizes: %v", spec, err)
			}
			edge = sizes.Quantile(p / 100)
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

// validateTraffic checks the [traffic] table.
func (e *Experiment) validateTraffic(bad func(key, format string, args ...any)) {
	t := e.Traffic
	if t.ShortFlowRate > 0 {
		if _, err := e.FlowSizes(); err != nil {
			bad("traffic.short_flow_sizes", "%v", err)
		}
	}
	if _, err := e.FlowBuckets(); err != nil {
		bad("output.fct_buckets", "%v", err)
	}
	if !t.classic() && e.Model == "fluid" {
		bad("traffic", "the fluid model has one greedy flow per source; use model = \"packet\" for flows")
	}
}

// trafficConfig is the model's traffic, nil for the classic greedy sources.
func (e *Experiment) trafficConfig() (*model.Traffic, error) {
	if e.Traffic.classic() {
		return nil, nil
	}
	tr := &model.Traffic{LongFlows: e.Traffic.LongFlows, ShortRate: e.Traffic.ShortFlowRate, Drain: e.Traffic.drain()}
	if tr.ShortRate > 0 {
		sizes, err := e.FlowSizes()
		if err != nil {
			return nil, fmt.Errorf("traffic.short_flow_sizes: %w", err)
		}
		tr.ShortSizes = sizes
	}
	return tr, nil
}
