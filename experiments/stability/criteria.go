package stability

import (
	"fmt"
	"maps"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"qcnlab/experiments/metrics"
	"qcnlab/model"
	"qcnlab/units"
)

// Criterion is one way of calling a run unstable: a summary metric compared
// with a threshold, such as "std>0.2qeq" (queue standard deviation above 20%
// of the scheme's queue target).
type Criterion struct {
	Name      string  // as written, normalised: "std>0.2qeq"
	Metric    string  // a key of Metrics: "std"
	Above     bool    // unstable when the metric is above the threshold, else below
	Threshold float64 // in the metric's unit, or a fraction of q_eq when PerQEq
	PerQEq    bool    // the metric is divided by the bottleneck's q_eq_bytes first
}

// Metrics are the summary metrics criteria can test, by the short names
// criteria give them. A metric in bytes (a queue size) takes a "qeq" or a
// size threshold; a per-bottleneck one is judged at the worst bottleneck.
var Metrics = map[string]*metrics.Metric{
	"std":   metrics.QueueStd,
	"mean":  metrics.QueueMean,
	"max":   metrics.QueueMax,
	"min":   metrics.QueueMin,
	"empty": metrics.EmptyFraction,
	"util":  metrics.Utilization,
	"drops": metrics.Drops,
	"jain":  metrics.JainFairness,
}

// isBytes says a metric is a queue size.
func isBytes(m *metrics.Metric) bool { return m.Unit == "bytes" }

// DefaultCriteria are the three: queue std above 20% of the target,
// queue empty more than 1% of the time, utilization below 0.95.
const DefaultCriteria = "std>0.2qeq,empty>0.01,util<0.95"

var criterionRE = regexp.MustCompile(`^([a-z]+)\s*([<>])\s*([0-9.eE+-]+)\s*([A-Za-z]*)$`)

// ParseCriteria reads a comma-separated list of criteria, each
// METRIC>THRESHOLD or METRIC<THRESHOLD; a queue-size metric's threshold is
// either a multiple of the scheme's target ("0.2qeq") or a size ("4.5KB").
func ParseCriteria(s string) ([]Criterion, error) {
	var out []Criterion
	seen := map[string]bool{}
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		c, err := parseCriterion(part)
		if err != nil {
			return nil, fmt.Errorf("--criteria: %q: %w", part, err)
		}
		if seen[c.Name] {
			return nil, fmt.Errorf("--criteria: %q given twice", c.Name)
		}
		seen[c.Name] = true
		out = append(out, c)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("--criteria: no criterion in %q (for example %q)", s, DefaultCriteria)
	}
	return out, nil
}

func parseCriterion(s string) (Criterion, error) {
	m := criterionRE.FindStringSubmatch(s)
	if m == nil {
		return Criterion{}, fmt.Errorf("want METRIC>THRESHOLD or METRIC<THRESHOLD, for example %q", "std>0.2qeq")
	}
	metric, ok := Metrics[m[1]]
	if !ok {
		return Criterion{}, fmt.Errorf("unknown metric %q (metrics: %s)", m[1], metricNames())
	}
	c := Criterion{Metric: m[1], Above: m[2] == ">"}
	num, suffix := m[3], m[4]
	x, err := strconv.ParseFloat(num, 64)
	if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
		return Criterion{}, fmt.Errorf("%q is not a number", num)
	}
	switch {
	case suffix == "":
		if isBytes(metric) {
			return Criterion{}, fmt.Errorf("a queue size needs a unit: a multiple of the target (%sqeq) or a size (%sKB)", num, num)
		}
		c.Threshold = x
	case suffix == "qeq" && isBytes(metric):
		c.Threshold, c.PerQEq = x, true
	case isBytes(metric):
		if c.Threshold, err = units.ParseBytes(num + suffix); err != nil {
			return Criterion{}, err
		}
	default:
		return Criterion{}, fmt.Errorf("%s is a plain number; %q takes no unit", m[1], suffix)
	}
	c.Name = c.String()
	return c, nil
}

// String writes the criterion back in the syntax ParseCriteria reads.
func (c Criterion) String() string {
	op := "<"
	if c.Above {
		op = ">"
	}
	switch {
	case c.PerQEq:
		return c.Metric + op + strconv.FormatFloat(c.Threshold, 'g', -1, 64) + "qeq"
	case isBytes(Metrics[c.Metric]):
		return c.Metric + op + units.FormatBytes(c.Threshold)
	}
	return c.Metric + op + strconv.FormatFloat(c.Threshold, 'g', -1, 64)
}

// Measure is the criterion's metric on one run: per bottleneck (divided by
// its q_eq for a "qeq" threshold), the worst bottleneck's value (the largest
// for ">", the smallest for "<"). On a fabric the bottlenecks are the ports
// its time series watches, those the flows load most: its other ports may
// idle by design (a host's link with nothing to receive). A missing value (jain_fairness of a run
// that delivered nothing) is NaN, which no threshold calls unstable.
func (c Criterion) Measure(s *model.Summary) (float64, error) {
	m := Metrics[c.Metric]
	if m.Scope != metrics.Bottleneck {
		v, ok := m.Value(s, 0)
		if !ok {
			return math.NaN(), nil
		}
		return v, nil
	}
	worst := math.NaN()
	for i := range s.Bottlenecks {
		b := &s.Bottlenecks[i]
		if s.Watched != nil && !slices.Contains(s.Watched.Ports, b.Name) {
			continue
		}
		v, _ := m.Value(s, i)
		if c.PerQEq {
			if b.QEq <= 0 {
				return 0, fmt.Errorf("criterion %s: %s has no queue target", c.Name, s.Algorithm)
			}
			v /= b.QEq
		}
		if math.IsNaN(worst) || (c.Above && v > worst) || (!c.Above && v < worst) {
			worst = v
		}
	}
	if math.IsNaN(worst) {
		return 0, fmt.Errorf("criterion %s: the run has no bottleneck", c.Name)
	}
	return worst, nil
}

// Unstable judges a metric value (a mean over seeds) against the threshold.
func (c Criterion) Unstable(v float64) bool {
	if c.Above {
		return v > c.Threshold
	}
	return v < c.Threshold
}

func metricNames() string {
	return strings.Join(slices.Sorted(maps.Keys(Metrics)), ", ")
}
