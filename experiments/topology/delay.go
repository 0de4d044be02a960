package topology

import (
	"fmt"
	"strings"

	"qcnlab/algos"
	"qcnlab/model"
	"qcnlab/units"
)

// Delay is an experiment-file delay: a duration ("200us") or a distribution
// drawn from the experiment's seed ("uniform(150us, 250us)").
type Delay model.Dist

// FixedDelay is the delay that is always t.
func FixedDelay(t algos.Time) Delay { return Delay(model.FixedDist(t)) }

// ParseDelay reads a delay or a distribution of delays.
func ParseDelay(s string) (model.Dist, error) {
	s = strings.TrimSpace(s)
	name, rest, ok := strings.Cut(s, "(")
	if !ok {
		t, err := units.ParseDuration(s)
		if err == nil && t == algos.Never {
			err = fmt.Errorf("a delay must be finite")
		}
		return model.FixedDist(t), err
	}
	args, ok := strings.CutSuffix(strings.TrimSpace(rest), ")")
	if !ok {
		return model.Dist{}, fmt.Errorf("%q: a distribution ends with \")\", as in \"uniform(150us, 250us)\"", s)
	}
	var ts []algos.Time
	for _, a := range strings.Split(args, ",") {
		t, err := units.ParseDuration(a)
		if err == nil && t == algos.Never {
			err = fmt.Errorf("a delay must be finite")
		}
		if err != nil {
			return model.Dist{}, fmt.Errorf("%q: %w", s, err)
		}
		ts = append(ts, t)
	}
	switch strings.TrimSpace(name) {
	case "uniform":
		if len(ts) != 2 {
			return model.Dist{}, fmt.Errorf("%q: uniform takes two durations, the least and the most", s)
		}
		if ts[0] > ts[1] {
			return model.Dist{}, fmt.Errorf("%q: the least value %s is above the most %s", s,
				units.FormatDuration(ts[0]), units.FormatDuration(ts[1]))
		}
		return model.UniformDist(ts[0], ts[1]), nil
	}
	return model.Dist{}, fmt.Errorf("%q: unknown distribution %q (known: uniform(MIN, MAX))", s, strings.TrimSpace(name))
}

// FormatDelay writes a delay as ParseDelay reads it.
func FormatDelay(d model.Dist) string {
	if d.Kind == model.Uniform {
		return fmt.Sprintf("uniform(%s, %s)", units.FormatDuration(d.Lo), units.FormatDuration(d.Hi))
	}
	return units.FormatDuration(d.Lo)
}

func (d *Delay) UnmarshalText(text []byte) error {
	v, err := ParseDelay(string(text))
	*d = Delay(v)
	return err
}

func (d Delay) MarshalText() ([]byte, error) { return []byte(d.String()), nil }

func (d Delay) String() string { return FormatDelay(model.Dist(d)) }

// Dist is the delay as the model draws it.
func (d Delay) Dist() model.Dist { return model.Dist(d) }
