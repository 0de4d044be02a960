// Package units parses and formats the quantities of experiment files:
// sizes ("1500B", "64KB"), rates ("10Gbps") and durations ("500us"). K, M, G
// are decimal (150KB = 150,000 bytes, as the 802.1Qau documents use them);
// KiB, MiB, GiB are binary. Formatting picks the largest unit that keeps the
// value exact, so a value written and read back is the same value.
package units

import (
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"qcnlab/algos"
)

type unit struct {
	suffix string
	factor float64
}

// Units, largest first; formatting uses the decimal ones. Micro is the
// micro sign (U+00B5) or the Greek mu (U+03BC), which keyboards type alike.
var (
	byteUnits = []unit{{"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10},
		{"GB", 1e9}, {"MB", 1e6}, {"KB", 1e3}, {"kB", 1e3}, {"B", 1}}
	rateUnits = []unit{{"Tbps", 1e12}, {"Gbps", 1e9}, {"Mbps", 1e6}, {"Kbps", 1e3}, {"kbps", 1e3}, {"bps", 1}}
	timeUnits = []unit{{"s", 1e12}, {"ms", 1e9}, {"us", 1e6}, {"\u00b5s", 1e6}, {"\u03bcs", 1e6}, {"ns", 1e3}, {"ps", 1}}

	byteFormat = []unit{{"GB", 1e9}, {"MB", 1e6}, {"KB", 1e3}, {"B", 1}}
	rateFormat = []unit{{"Tbps", 1e12}, {"Gbps", 1e9}, {"Mbps", 1e6}, {"Kbps", 1e3}, {"bps", 1}}
	timeFormat = []unit{{"s", 1e12}, {"ms", 1e9}, {"us", 1e6}, {"ns", 1e3}, {"ps", 1}}
)

// Bounds of what a real network has. Every key and parameter of a unit
// type is held to them when it is read, so a new key gets them too.
const (
	MaxRate  = 1.6e12 // 1.6 Tbps: the fastest Ethernet (IEEE 802.3dj)
	MinRate  = 1      // the least a link's rate may be (a scheme's step may be smaller)
	MaxBytes = 1e12   // 1 TB: far beyond any switch buffer or frame
)

// parse reads "<number><unit>" with one of units; kind names the quantity
// in errors and example shows a valid value.
func parse(s string, units []unit, kind, example string) (float64, error) {
	x, err := parseNumber(s, units, kind, example)
	if err != nil {
		return 0, err
	}
	switch {
	case kind == "rate" && x > MaxRate:
		return 0, fmt.Errorf("rate %s is above %s, the fastest Ethernet", Quote(strings.TrimSpace(s)), FormatRate(MaxRate))
	case kind == "size" && x > MaxBytes:
		return 0, fmt.Errorf("size %s is above %s", Quote(strings.TrimSpace(s)), FormatBytes(MaxBytes))
	}
	return x, nil
}

// splitUnit splits "<number><unit>" into the number's text, its value and
// the unit.
func splitUnit(s string, units []unit) (num string, x float64, u unit, ok bool) {
	for _, u := range units {
		num, ok := strings.CutSuffix(s, u.suffix)
		if !ok {
			continue
		}
		num = strings.TrimSpace(num)
		x, err := strconv.ParseFloat(num, 64)
		if err != nil || num == "" {
			continue // "20ms" also ends in "s"
		}
		return num, x, u, true
	}
	return "", 0, unit{}, false
}

func parseNumber(s string, units []unit, kind, example string) (float64, error) {
	s = strings.TrimSpace(s)
	if _, x, u, ok := splitUnit(s, units); ok {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return 0, fmt.Errorf("%s is not a finite %s", Quote(s), kind)
		}
		if x < 0 {
			return 0, fmt.Errorf("%s %s must not be negative", kind, Quote(s))
		}
		return x * u.factor, nil
	}
	if x, err := strconv.ParseFloat(s, 64); err == nil {
		if x == 0 {
			return 0, nil // zero is zero in every unit
		}
		return 0, fmt.Errorf("%s %s needs a unit, for example %q", kind, Quote(s), example)
	}
	return 0, fmt.Errorf("%s is not a %s (for example %q)", Quote(s), kind, example)
}

// Quote writes a value for an error as it was written, quoted; a long one
// (a rate of 500,000 digits) by its first and last characters, so that the
// error stays short and its unit still shows: "9999…9999Gbps" (500004
// characters).
func Quote(s string) string {
	const ends = 20 // characters kept at each end
	n := utf8.RuneCountInString(s)
	if n <= 3*ends {
		return strconv.Quote(s)
	}
	head, tail := 0, len(s)
	for range ends {
		_, size := utf8.DecodeRuneInString(s[head:])
		head += size
		_, size = utf8.DecodeLastRuneInString(s[:tail])
		tail -= size
	}
	return fmt.Sprintf("%s (%d characters)", strconv.Quote(s[:head]+"…"+s[tail:]), n)
}

// format writes v (>= 0) with the largest decimal unit whose mantissa is at
// least 1 and represents v exactly.
func format(v float64, units []unit) string {
	if v == 0 {
		return "0" + units[len(units)-1].suffix
	}
	for _, u := range units {
		m := v / u.factor
		if m < 1 {
			continue
		}
		s := decimal(m)
		if back, err := strconv.ParseFloat(s, 64); err == nil && back*u.factor == v {
			return s + u.suffix
		}
	}
	base := units[len(units)-1]
	return decimal(v) + base.suffix
}

// decimal writes x in the fewest digits that read back as x: in plain
// decimals, but with an exponent where those would run to hundreds of
// zeros ("1e-300", not 0.000...0001).
func decimal(x float64) string {
	if x != 0 && (math.Abs(x) < 1e-4 || math.Abs(x) >= 1e21) {
		return strconv.FormatFloat(x, 'g', -1, 64)
	}
	return strconv.FormatFloat(x, 'f', -1, 64)
}

// ParseBytes reads a size such as "1500B" or "64KB" into bytes.
func ParseBytes(s string) (float64, error) { return parse(s, byteUnits, "size", "64KB") }

// FormatBytes writes a size in bytes with a unit.
func FormatBytes(b float64) string { return format(b, byteFormat) }

// ParseRate reads a rate such as "10Gbps" into bits per second.
func ParseRate(s string) (float64, error) { return parse(s, rateUnits, "rate", "10Gbps") }

// FormatRate writes a rate in bits per second with a unit.
func FormatRate(bps float64) string { return format(bps, rateFormat) }

// ParseDuration reads a duration such as "500us" into simulated time.
func ParseDuration(s string) (algos.Time, error) {
	if strings.TrimSpace(s) == "never" {
		return algos.Never, nil
	}
	ps, err := parse(s, timeUnits, "duration", "500us")
	if err != nil {
		return 0, err
	}
	if ps >= float64(algos.Never) {
		return 0, fmt.Errorf("duration %s is too long", Quote(s))
	}
	t := algos.Time(math.Round(ps))
	if !onGrid(s) {
		// Simulated time is whole picoseconds: say so rather than
		// run, and save, another value than the one written.
		return 0, fmt.Errorf("duration %s is not a whole number of picoseconds, the grid of simulated time (nearest: %q)",
			Quote(strings.TrimSpace(s)), FormatDuration(t))
	}
	return t, nil
}

// onGrid reports whether a duration that parses is a whole number of
// picoseconds, in exact decimal arithmetic.
func onGrid(s string) bool {
	num, _, u, ok := splitUnit(strings.TrimSpace(s), timeUnits)
	if !ok {
		return true
	}
	if i := strings.IndexAny(num, "eE"); i >= 0 {
		if e, err := strconv.Atoi(num[i+1:]); err != nil || e < -40 || e > 40 {
			return false // far below a picosecond (above is refused before)
		}
	}
	x, ok := new(big.Rat).SetString(num)
	return !ok || x.Mul(x, new(big.Rat).SetFloat64(u.factor)).IsInt()
}

// FormatDuration writes a simulated duration with a unit; Never is "never".
func FormatDuration(t algos.Time) string {
	switch t {
	case algos.Never:
		return "never"
	case 0:
		return "0s"
	}
	return format(float64(t), timeFormat)
}

// Parse reads a value of the given parameter kind from its text form.
func Parse(kind algos.Kind, s string) (float64, error) {
	switch kind {
	case algos.Bytes:
		return ParseBytes(s)
	case algos.Rate:
		return ParseRate(s)
	case algos.Duration:
		t, err := ParseDuration(s)
		if t == algos.Never {
			return 0, fmt.Errorf("a parameter duration cannot be never")
		}
		return t.Seconds(), err
	}
	return strconv.ParseFloat(strings.TrimSpace(s), 64)
}

// Format writes a parameter value of the given kind in its text form.
func Format(kind algos.Kind, v float64) string {
	switch kind {
	case algos.Bytes:
		return FormatBytes(v)
	case algos.Rate:
		return FormatRate(v)
	case algos.Duration:
		return FormatDuration(algos.Seconds(v))
	case algos.Switch:
		return strconv.FormatBool(v != 0)
	case algos.Count:
		if v == math.Trunc(v) && math.Abs(v) < 1e18 {
			return strconv.FormatInt(int64(v), 10) // a TOML integer, as the key is read
		}
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

// FormatParam writes a parameter's value in its text form: a choice's word,
// or the value of its kind.
func FormatParam(p algos.Param, v float64) string {
	if p.Kind == algos.Choice {
		return p.ChoiceName(v)
	}
	return Format(p.Kind, v)
}

// ParseParam reads a parameter's value from its text form.
func ParseParam(p algos.Param, s string) (float64, error) {
	if p.Kind == algos.Choice {
		return p.ChoiceValue(strings.TrimSpace(s))
	}
	return Parse(p.Kind, s)
}

// Bytes, Rate and Duration are experiment-file fields that read and write
// themselves as strings with units.
type (
	Bytes    float64
	Rate     float64
	Duration algos.Time
)

func (b *Bytes) UnmarshalText(text []byte) error {
	v, err := ParseBytes(string(text))
	*b = Bytes(v)
	return err
}

// UnmarshalTOML reads a size as the file spelled it: a number without a
// unit is refused as written ("1.5"), not as the decoder would print it
// for UnmarshalText ("1.500000").
func (b *Bytes) UnmarshalTOML(v any) error { return unmarshalTOML(v, "size", "64KB", b.UnmarshalText) }

func (b Bytes) MarshalText() ([]byte, error) { return []byte(FormatBytes(float64(b))), nil }

func (r *Rate) UnmarshalText(text []byte) error {
	v, err := ParseRate(string(text))
	*r = Rate(v)
	return err
}

// UnmarshalTOML reads a rate as the file spelled it (Bytes.UnmarshalTOML).
func (r *Rate) UnmarshalTOML(v any) error { return unmarshalTOML(v, "rate", "10Gbps", r.UnmarshalText) }

func (r Rate) MarshalText() ([]byte, error) { return []byte(FormatRate(float64(r))), nil }

func (d *Duration) UnmarshalText(text []byte) error {
	v, err := ParseDuration(string(text))
	*d = Duration(v)
	return err
}

// UnmarshalTOML reads a duration as the file spelled it (Bytes.UnmarshalTOML).
func (d *Duration) UnmarshalTOML(v any) error {
	return unmarshalTOML(v, "duration", "500us", d.UnmarshalText)
}

func (d Duration) MarshalText() ([]byte, error) {
	return []byte(FormatDuration(algos.Time(d))), nil
}

// unmarshalTOML hands a decoded TOML value to unmarshal in the words the
// file used: a string as it is, a number as it was written (1.0 stays
// 1.0), any other value by its kind.
func unmarshalTOML(v any, kind, example string, unmarshal func([]byte) error) error {
	var text string
	switch x := v.(type) {
	case string:
		text = x
	case int64:
		text = strconv.FormatInt(x, 10)
	case float64:
		text = strconv.FormatFloat(x, 'g', -1, 64)
		if !strings.ContainsAny(text, ".eEnI") {
			text += ".0"
		}
	case time.Time:
		text = x.Format(time.RFC3339)
	case []any:
		return fmt.Errorf("a %s (for example %q), not an array", kind, example)
	case map[string]any:
		return fmt.Errorf("a %s (for example %q), not a table", kind, example)
	default:
		text = fmt.Sprint(x)
	}
	return unmarshal([]byte(text))
}
