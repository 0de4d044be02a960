package keys

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"qcnlab/algos"
	"qcnlab/printable"
	"qcnlab/units"
)

// SafeName is a name derived from a file's, with what the name's rule refuses
// replaced by "_".
func SafeName(name string) string {
	name = strings.Map(func(r rune) rune {
		if r == '/' || r == '\\' || r == utf8.RuneError || printable.Text(string(r)) != string(r) {
			return '_'
		}
		return r
	}, name)
	return strings.ReplaceAll(name, "..", "__")
}

// ParamError checks a parameter value, naming its bounds with units.
func ParamError(p algos.Param, v float64) error {
	if p.Validate(v) == nil {
		return nil
	}
	switch {
	case v < p.Min:
		return fmt.Errorf("%s is below the minimum %s", units.Format(p.Kind, v), units.Format(p.Kind, p.Min))
	case p.Max != 0 && v > p.Max:
		return fmt.Errorf("%s is above the maximum %s", units.Format(p.Kind, v), units.Format(p.Kind, p.Max))
	case p.Kind == algos.Number && p.Max == 0 && v > algos.MaxNumber:
		return fmt.Errorf("%s is above %g, the most a number parameter may be: it must be from %s to %g (larger ones overflow the scheme's arithmetic)",
			units.Format(p.Kind, v), algos.MaxNumber, units.Format(p.Kind, p.Min), algos.MaxNumber)
	case p.Kind == algos.Count && v > algos.MaxCount:
		return fmt.Errorf("%s is above %d, the most a count parameter may be", units.Format(p.Kind, v), algos.MaxCount)
	}
	return p.Validate(v)
}
