package experiments

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/BurntSushi/toml"

	"qcnlab/experiments/traffic"
	"qcnlab/model"
)

// The [traffic] table and the [[flows]] entries, defined with the traffic.
type (
	Traffic   = traffic.Traffic
	FlowEntry = traffic.FlowEntry
)

// FlowSizes resolves traffic.short_flow_sizes: a named workload, a fixed
// size, or a CDF file, relative to the experiment file's directory.
func (e *Experiment) FlowSizes() (*model.FlowSizes, error) {
	return traffic.Sizes(e.Traffic.ShortFlowSizes, e.dir("traffic.short_flow_sizes"))
}

// resolveFlowSizes makes r's CDF paths absolute, in [traffic] and in a
// sweep over traffic.short_flow_sizes.
func (e *Experiment) resolveFlowSizes(r *Experiment) {
	r.Traffic.ShortFlowSizes = traffic.AbsSizes(e.Traffic.ShortFlowSizes, e.dir("traffic.short_flow_sizes"))
	for i, a := range r.Sweep {
		if a.Key != "traffic.short_flow_sizes" {
			continue
		}
		for j, v := range a.Values {
			var doc struct{ V string }
			if _, err := toml.Decode("v = "+v, &doc); err == nil {
				r.Sweep[i].Values[j] = quote(traffic.AbsSizes(doc.V, e.dir("sweep")))
			}
		}
	}
}

// FlowBuckets resolves output.fct_buckets into the model's upper edges in
// bytes: a size, or a percentage of the short flows' size distribution.
func (e *Experiment) FlowBuckets() ([]float64, error) {
	return traffic.Buckets(e.Output.FCTBuckets, e.FlowSizes)
}

// validateTraffic checks what reading the traffic's files finds: the
// short flows' sizes and the buckets of their FCTs.
func (e *Experiment) validateTraffic(bad func(key, format string, args ...any)) {
	if e.Traffic.ShortFlowRate > 0 {
		if _, err := e.FlowSizes(); err != nil {
			bad("traffic.short_flow_sizes", "%v", err)
		}
	}
	if _, err := e.FlowBuckets(); err != nil {
		bad("output.fct_buckets", "%v", err)
	}
	if !e.Traffic.Classic() && e.Model == "fluid" {
		bad("traffic", "the fluid model has one greedy flow per source; use model = \"packet\" for flows")
	}
}

// trafficConfig is the model's traffic, nil for the classic greedy sources.
func (e *Experiment) trafficConfig() (*model.Traffic, error) {
	if e.Traffic.Classic() {
		return nil, nil
	}
	tr := &model.Traffic{LongFlows: e.Traffic.LongFlows, ShortRate: e.Traffic.ShortFlowRate, Drain: e.Traffic.Drain()}
	if tr.ShortRate > 0 {
		sizes, err := e.FlowSizes()
		if err != nil {
			return nil, fmt.Errorf("traffic.short_flow_sizes: %w", err)
		}
		tr.ShortSizes = sizes
	}
	return tr, nil
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
