package model

import (
	"embed"
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
	"strconv"
	"strings"
)

// The named workloads' CDFs, with their provenance in workloads/README.md.
//
//go:embed workloads/*.cdf
var workloadFS embed.FS

// Workloads are the named short-flow size distributions.
var Workloads = []string{"websearch", "hadoop"}

// MaxFlowBytes is the largest short flow: sizes are drawn as int64 bytes.
const MaxFlowBytes = 1e12

// FlowSizes is a distribution of short-flow sizes: an empirical CDF,
// interpolated linearly between its points, or a fixed size.
type FlowSizes struct {
	Name  string    // "websearch", a file path, or the fixed size
	bytes []float64 // the CDF's sizes, non-decreasing
	cum   []float64 // cumulative fractions, non-decreasing, ending at 1
	fixed int64     // > 0: every flow has this size
}

// FixedSize is the distribution of flows of n bytes each.
func FixedSize(name string, n int64) *FlowSizes { return &FlowSizes{Name: name, fixed: n} }

// Workload returns a named workload's distribution.
func Workload(name string) (*FlowSizes, error) {
	data, err := workloadFS.ReadFile("workloads/" + name + ".cdf")
	if err != nil {
		return nil, fmt.Errorf("unknown workload %q (known: %s)", name, strings.Join(Workloads, ", "))
	}
	return ParseCDF(name, data)
}

// ParseCDF reads a two-column CDF: flow size in bytes and the cumulative
// percentage of flows at or below it, one point a line ('#' starts a
// comment). Both columns must be non-decreasing and the last percentage 100.
// Errors name the line: "file:7: ...".
func ParseCDF(name string, data []byte) (*FlowSizes, error) {
	d := &FlowSizes{Name: name}
	lastLine := 0
	for i, line := range strings.Split(string(data), "\n") {
		if j := strings.IndexByte(line, '#'); j >= 0 {
			line = line[:j]
		}
		fields := strings.Fields(line)
		if len(fields) == 0 {
			continue
		}
		bad := func(format string, args ...any) error {
			return fmt.Errorf("%s:%d: %s", name, i+1, fmt.Sprintf(format, args...))
		}
		if len(fields) != 2 {
			return nil, bad("want two columns (bytes, cumulative percent), found %d", len(fields))
		}
		b, err1 := strconv.ParseFloat(fields[0], 64)
		p, err2 := strconv.ParseFloat(fields[1], 64)
		switch {
		case err1 != nil || math.IsNaN(b) || math.IsInf(b, 0) || b < 0:
			return nil, bad("size %q is not a number of bytes", fields[0])
		case b > MaxFlowBytes:
			return nil, bad("size %q is above %g bytes (1 TB), the largest flow", fields[0], MaxFlowBytes)
		case err2 != nil || !(p >= 0 && p <= 100):
			return nil, bad("percentage %q is not in [0, 100]", fields[1])
		case len(d.bytes) > 0 && b < d.bytes[len(d.bytes)-1]:
			return nil, bad("sizes must not decrease (%g after %g)", b, d.bytes[len(d.bytes)-1])
		case len(d.cum) > 0 && p/100 < d.cum[len(d.cum)-1]:
			return nil, bad("percentages must not decrease (%g after %g)", p, 100*d.cum[len(d.cum)-1])
		}
		d.bytes, d.cum = append(d.bytes, b), append(d.cum, p/100)
		lastLine = i + 1
	}
	switch {
	case len(d.cum) == 0:
		return nil, fmt.Errorf("%s: no points", name)
	case d.cum[len(d.cum)-1] != 1:
		return nil, fmt.Errorf("%s:%d: the last percentage is %g, want 100", name, lastLine, 100*d.cum[len(d.cum)-1])
	case d.bytes[len(d.bytes)-1] < 1:
		return nil, fmt.Errorf("%s:%d: the largest size must be at least 1 byte", name, lastLine)
	}
	return d, nil
}

// Sample draws a flow size in bytes, at least 1.
func (d *FlowSizes) Sample(r *rand.Rand) int64 {
	if d.fixed > 0 {
		return d.fixed
	}
	return max(1, int64(math.Round(d.quantile(r.Float64()))))
}

// Quantile is the size in bytes at or below which a share u (in [0, 1])
// of the flows fall: the CDF inverted, linear within a segment.
func (d *FlowSizes) Quantile(u float64) float64 {
	if d.fixed > 0 {
		return float64(d.fixed)
	}
	return d.quantile(u)
}

// quantile inverts the CDF at u in [0, 1): linear within a segment.
func (d *FlowSizes) quantile(u float64) float64 {
	i := sort.SearchFloat64s(d.cum, u) // first point with cum >= u
	if i == 0 {
		return d.bytes[0]
	}
	if i == len(d.cum) {
		i--
	}
	lo, hi := d.cum[i-1], d.cum[i]
	if hi == lo {
		return d.bytes[i]
	}
	return d.bytes[i-1] + (u-lo)/(hi-lo)*(d.bytes[i]-d.bytes[i-1])
}

// Mean is the distribution's mean size in bytes (before rounding to whole
// bytes): each segment contributes its probability times its midpoint.
func (d *FlowSizes) Mean() float64 {
	if d.fixed > 0 {
		return float64(d.fixed)
	}
	m := d.bytes[0] * d.cum[0]
	for i := 1; i < len(d.cum); i++ {
		m += (d.cum[i] - d.cum[i-1]) * (d.bytes[i] + d.bytes[i-1]) / 2
	}
	return m
}
