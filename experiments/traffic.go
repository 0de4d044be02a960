package experiments

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"qcnlab/experiments/units"
	"qcnlab/model"
)

// Traffic is the [traffic] table: greedy flows per source and short flows
// (seed 004 section V-C, "Mixed Flows"); model/traffic.go says how they
// share a source's rate limiter.
type Traffic struct {
	LongFlows      int     `toml:"long_flows"`       // greedy flows per source (default 1)
	ShortFlowRate  float64 `toml:"short_flow_rate"`  // short flows per second, whole network, Poisson
	ShortFlowSizes string  `toml:"short_flow_sizes"` // "websearch", "hadoop", a CDF file, or a size such as "1.25MB"
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
	if b, err := units.ParseBytes(spec); err == nil {
		if b < 1 || b != float64(int64(b)) {
			return nil, fmt.Errorf("a fixed flow size must be a whole number of bytes, at least 1")
		}
		return model.FixedSize(spec, int64(b)), nil
	}
	path := spec
	if !filepath.IsAbs(path) {
		path = filepath.Join(e.dir("traffic.short_flow_sizes"), path)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("%q is not a workload (%s), a size such as \"1.25MB\", or a readable CDF file: %v",
			spec, strings.Join(model.Workloads, ", "), err)
	}
	return model.ParseCDF(path, data)
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

// validateTraffic checks the [traffic] table.
func (e *Experiment) validateTraffic(bad func(key, format string, args ...any)) {
	t := e.Traffic
	if t.LongFlows < 0 || t.LongFlows > 1000 {
		bad("traffic.long_flows", "must be from 0 to 1000")
	}
	if !(t.ShortFlowRate >= 0) || t.ShortFlowRate > 1e9 {
		bad("traffic.short_flow_rate", "must be from 0 to 1e9 flows per second")
	}
	if t.ShortFlowRate > 0 {
		if _, err := e.FlowSizes(); err != nil {
			bad("traffic.short_flow_sizes", "%v", err)
		}
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
	tr := &model.Traffic{LongFlows: e.Traffic.LongFlows, ShortRate: e.Traffic.ShortFlowRate}
	if tr.ShortRate > 0 {
		sizes, err := e.FlowSizes()
		if err != nil {
			return nil, fmt.Errorf("traffic.short_flow_sizes: %w", err)
		}
		tr.ShortSizes = sizes
	}
	return tr, nil
}
