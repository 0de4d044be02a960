package stability

import (
	"fmt"
	"maps"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"qcnlab/algos"
	"qcnlab/experiments/metrics"
	"qcnlab/model"
	"qcnlab/units"
)

// Criterion is one way of calling a run unstable: a summary metric compared
// with a threshold, such as "std>0.2qeq" (queue standard deviation above 20%
// of the scheme's queue target).
type Criterion struct {
	Name      string  // as written, normalised: "std>0.2qeq"
	Metric    string  // a key of Metrics or QueueShape: "std"
	Above     bool    // unstable when the metric is above the threshold, else below
	Threshold float64 // in the metric's unit, or a multiple of the queue measure Per names
	PerQEq    bool    // the metric is divided by the bottleneck's q_eq_bytes first
	// Per names the queue measure a queue-size threshold is a multiple
	// of: "qeq" (PerQEq), or the scheme's marking band, "kmin", "kmax" or
	// "band" (K_max - K_min); empty for a plain threshold.
	Per string
}

// Band is the queue band a scheme's congestion point acts in (DCQCN's
// [K_min, K_max]), for thresholds given per kmin, kmax or band. The zero
// Band is none.
type Band struct{ Lo, Hi float64 }

// per is the queue measure a Per unit names.
func (b Band) per(unit string) float64 {
	switch unit {
	case "kmin":
		return b.Lo
	case "kmax":
		return b.Hi
	}
	return b.Hi - b.Lo
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

// QueueShape are queue metrics criteria read from a bottleneck's
// time-weighted quantiles: p5, p50, p95, p99, and swing, the range between
// p5 and p95 (the amplitude of an oscillation, its rare extremes left out).
var QueueShape = map[string]func(b *model.BottleneckSummary) float64{
	"p5":    func(b *model.BottleneckSummary) float64 { return b.QueueQuantiles.P5 },
	"p50":   func(b *model.BottleneckSummary) float64 { return b.QueueQuantiles.P50 },
	"p95":   func(b *model.BottleneckSummary) float64 { return b.QueueQuantiles.P95 },
	"p99":   func(b *model.BottleneckSummary) float64 { return b.QueueQuantiles.P99 },
	"swing": func(b *model.BottleneckSummary) float64 { return b.QueueQuantiles.P95 - b.QueueQuantiles.P5 },
}

// bytesMetric says a metric name is a queue size.
func bytesMetric(name string) bool {
	if _, ok := QueueShape[name]; ok {
		return true
	}
	m, ok := Metrics[name]
	return ok && isBytes(m)
}

// isBytes says a metric is a queue size.
func isBytes(m *metrics.Metric) bool { return m.Unit == "bytes" }

// DefaultCriteria are the QCN family's three: queue std above 20% of the
// set point Q_EQ the congestion point steers to, queue empty more than 1%
// of the time, utilization below 0.95.
const DefaultCriteria = "std>0.2qeq,empty>0.01,util<0.95"

// BandCriteria are DCQCN's: it has no set point but a marking band
// [K_min, K_max] (RED between them, every frame above), whose fixed point
// moves with the number of flows (CoNEXT 2016, eq. fixedq). Unstable: the
// queue leaves the band upwards more than 5% of the time (p95 above
// K_max, where every frame is marked), the link idles more than 5% of
// the time (the family's utilization 0.95, read as idle time: a port
// idles exactly when its queue is empty), or the queue swings (p5 to p95)
// over more than the band's width.
const BandCriteria = "p95>1kmax,empty>0.05,swing>1band"

// LinkCriteria are the baseline's without congestion control: it has no
// set point and no band, so only the link can be judged (the family's
// idle time and utilization).
const LinkCriteria = "empty>0.01,util<0.95"

// schemeCriteria are the criteria of schemes whose congestion point does
// not steer to a set point; the others take DefaultCriteria.
var schemeCriteria = map[string]string{"dcqcn": BandCriteria, "none": LinkCriteria}

// CriteriaFor are the criteria a search applies to an algorithm when none
// are given: BandCriteria for DCQCN, LinkCriteria for the baseline without
// congestion control and the other schemes without a queue target (TIMELY,
// HPCC, Swift), DefaultCriteria for the QCN family.
func CriteriaFor(algorithm string) []Criterion {
	text, ok := schemeCriteria[algorithm]
	if !ok {
		text = DefaultCriteria
		if sc, err := algos.Lookup(algorithm); err == nil && sc.QueueBand == nil {
			text = LinkCriteria // TIMELY, HPCC, Swift: no set point to judge the queue by
		}
	}
	c, err := ParseCriteria(text)
	if err != nil {
		panic(err) // the texts above are constants
	}
	return c
}

// CriteriaHelp lists each scheme's criteria for --help.
func CriteriaHelp() string {
	return "default per scheme: " + BandCriteria + " for dcqcn (its marking band [K_min, K_max]), " +
		DefaultCriteria + " for the QCN family (its set point Q_EQ), " +
		LinkCriteria + " for none, timely, hpcc and swift (no set point: the link alone)"
}

var criterionRE = regexp.MustCompile(`^([a-z][a-z0-9]*)\s*([<>])\s*([0-9.eE+-]+)\s*([A-Za-z]*)$`)

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
	_, shape := QueueShape[m[1]]
	if _, ok := Metrics[m[1]]; !ok && !shape {
		return Criterion{}, fmt.Errorf("unknown metric %q (metrics: %s)", m[1], metricNames())
	}
	bytes := bytesMetric(m[1])
	c := Criterion{Metric: m[1], Above: m[2] == ">"}
	num, suffix := m[3], m[4]
	x, err := strconv.ParseFloat(num, 64)
	if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
		return Criterion{}, fmt.Errorf("%q is not a number", num)
	}
	switch {
	case suffix == "":
		if bytes {
			return Criterion{}, fmt.Errorf("a queue size needs a unit: a multiple of the target (%sqeq), of the marking band (%skmin, %skmax, %sband) or a size (%sKB)", num, num, num, num, num)
		}
		c.Threshold = x
	case suffix == "qeq" && bytes:
		c.Threshold, c.PerQEq, c.Per = x, true, suffix
	case (suffix == "kmin" || suffix == "kmax" || suffix == "band") && bytes:
		c.Threshold, c.Per = x, suffix
	case bytes:
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
	case c.Per != "":
		return c.Metric + op + strconv.FormatFloat(c.Threshold, 'g', -1, 64) + c.Per
	case bytesMetric(c.Metric):
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
	return c.MeasureIn(s, Band{})
}

// MeasureIn is Measure with the scheme's marking band, which a threshold
// per kmin, kmax or band divides the metric by.
func (c Criterion) MeasureIn(s *model.Summary, band Band) (float64, error) {
	if c.Per != "" && c.Per != "qeq" && band.per(c.Per) <= 0 {
		return 0, fmt.Errorf("criterion %s: %s has no marking band", c.Name, s.Algorithm)
	}
	shape := QueueShape[c.Metric]
	m := Metrics[c.Metric]
	if shape == nil && m.Scope != metrics.Bottleneck {
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
		var v float64
		if shape != nil {
			v = shape(b)
		} else {
			v, _ = m.Value(s, i)
		}
		if c.Per != "" && !c.PerQEq {
			v /= band.per(c.Per)
		}
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
	names := slices.Collect(maps.Keys(Metrics))
	return strings.Join(slices.Sorted(slices.Values(append(names, slices.Collect(maps.Keys(QueueShape))...))), ", ")
}
