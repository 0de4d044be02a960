package units

import (
	"math"
	"strings"
	"testing"

	"qcnlab/algos"
)

func TestParse(t *testing.T) {
	for _, c := range []struct {
		in   string
		f    func(string) (float64, error)
		want float64
	}{
		{"1500B", ParseBytes, 1500},
		{"1.5KB", ParseBytes, 1500},
		{"64KB", ParseBytes, 64000},
		{"150 KB", ParseBytes, 150000},
		{"64KiB", ParseBytes, 65536},
		{"1MB", ParseBytes, 1e6},
		{"10Gbps", ParseRate, 10e9},
		{"0.5Mbps", ParseRate, 0.5e6},
		{"100Gbps", ParseRate, 100e9},
		{"1e9bps", ParseRate, 1e9},
	} {
		got, err := c.f(c.in)
		if err != nil || got != c.want {
			t.Errorf("parse %q = %g, %v; want %g", c.in, got, err, c.want)
		}
	}
	for _, c := range []struct {
		in   string
		want algos.Time
	}{
		{"500us", 500 * algos.Microsecond},
		{"20ms", 20 * algos.Millisecond},
		{"1s", algos.Second},
		{"2.4ms", 2400 * algos.Microsecond},
		{"80ps", 80},
		{"1.5ns", 1500},
		{"never", algos.Never},
	} {
		got, err := ParseDuration(c.in)
		if err != nil || got != c.want {
			t.Errorf("ParseDuration(%q) = %d, %v; want %d", c.in, got, err, c.want)
		}
	}
}

func TestParseErrors(t *testing.T) {
	for _, in := range []string{"", "10", "10 furlongs", "-1KB", "KB", "NaNKB", "1e400B"} {
		if _, err := ParseBytes(in); err == nil {
			t.Errorf("ParseBytes(%q) accepted", in)
		}
	}
	if _, err := ParseRate("-10Gbps"); err == nil {
		t.Error("negative rate accepted")
	}
	if _, err := ParseDuration("5"); err == nil {
		t.Error("duration without unit accepted")
	}
	if _, err := Parse(algos.Duration, "never"); err == nil {
		t.Error("parameter duration never accepted")
	}
}

// Values beyond a real network, and durations off the picosecond grid, are
// errors when read, whatever key they are for.
func TestBounds(t *testing.T) {
	for _, in := range []string{"10000Tbps", "1e30Gbps", "1.7Tbps"} {
		if v, err := ParseRate(in); err == nil {
			t.Errorf("ParseRate(%q) = %g, accepted", in, v)
		}
	}
	for _, in := range []string{"1.6Tbps", "1bps", "0bps", "0.005bps"} {
		if _, err := ParseRate(in); err != nil {
			t.Errorf("ParseRate(%q): %v", in, err)
		}
	}
	if _, err := ParseBytes("2000GB"); err == nil {
		t.Error("2000GB accepted")
	}
	for _, in := range []string{"1.5ps", "0.1ps", "1e-13s", "1e-99999999s", "0.0000001ns"} {
		_, err := ParseDuration(in)
		if err == nil || !strings.Contains(err.Error(), "picoseconds") {
			t.Errorf("ParseDuration(%q): %v, want an off-grid error", in, err)
		}
	}
	for _, in := range []string{"0.1us", "1.5ns", "1e-12s", "33.333333us", "0.000001ms"} {
		if _, err := ParseDuration(in); err != nil {
			t.Errorf("ParseDuration(%q): %v", in, err)
		}
	}
}

func TestFormat(t *testing.T) {
	for _, c := range []struct{ got, want string }{
		{FormatBytes(1500), "1.5KB"},
		{FormatBytes(33000), "33KB"},
		{FormatBytes(150000), "150KB"},
		{FormatBytes(37500), "37.5KB"},
		{FormatBytes(65536), "65.536KB"},
		{FormatBytes(64), "64B"},
		{FormatBytes(0), "0B"},
		{FormatRate(10e9), "10Gbps"},
		{FormatRate(0.5e6), "500Kbps"},
		{FormatRate(5e6), "5Mbps"},
		{FormatDuration(100 * algos.Microsecond), "100us"},
		{FormatDuration(2400 * algos.Microsecond), "2.4ms"},
		{FormatDuration(80), "80ps"},
		{FormatDuration(algos.Never), "never"},
		{Format(algos.Switch, 1), "true"},
		{Format(algos.Number, 1.0/128), "0.0078125"},
	} {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
}

func TestRoundTrip(t *testing.T) {
	for _, v := range []float64{1, 1500, 33e3, 1.0 / 3, 5e6 * 7 / 11, 123456789.123, 1e11} {
		for _, kind := range []algos.Kind{algos.Bytes, algos.Rate, algos.Number} {
			back, err := Parse(kind, Format(kind, v))
			if err != nil || back != v {
				t.Errorf("%v %g -> %q -> %g (%v)", kind, v, Format(kind, v), back, err)
			}
		}
	}
	for _, d := range []algos.Time{1, 999, 2400 * algos.Microsecond, 123456789, 3 * algos.Second} {
		back, err := ParseDuration(FormatDuration(d))
		if err != nil || back != d {
			t.Errorf("%d -> %q -> %d", d, FormatDuration(d), back)
		}
	}
}

func FuzzParseBytes(f *testing.F) {
	for _, s := range []string{"1500B", "64KB", "1.5KiB", "-1B", "1e3MB"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v, err := ParseBytes(s)
		if err != nil {
			return
		}
		if v < 0 || math.IsNaN(v) || math.IsInf(v, 0) {
			t.Fatalf("ParseBytes(%q) = %g", s, v)
		}
		if back, err := ParseBytes(FormatBytes(v)); err != nil || back != v {
			t.Fatalf("%q: %g formats as %q, reads back as %g (%v)", s, v, FormatBytes(v), back, err)
		}
	})
}

func FuzzParseDuration(f *testing.F) {
	for _, s := range []string{"500us", "20ms", "1.5ns", "never", "1e-3s"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		d, err := ParseDuration(s)
		if err != nil {
			return
		}
		if d < 0 {
			t.Fatalf("ParseDuration(%q) = %d", s, d)
		}
		if back, err := ParseDuration(FormatDuration(d)); err != nil || back != d {
			t.Fatalf("%q: %d formats as %q, reads back as %d (%v)", s, d, FormatDuration(d), back, err)
		}
	})
}

// A number without a unit is refused as the file wrote it: the TOML
// decoder hands UnmarshalText a float printed as "1.500000".
func TestUnmarshalTOMLQuotesTheFile(t *testing.T) {
	var b Bytes
	for v, want := range map[any]string{
		1.5:      `size "1.5" needs a unit`,
		2.0:      `size "2.0" needs a unit`,
		int64(3): `size "3" needs a unit`,
		"x":      `"x" is not a size`,
		true:     `"true" is not a size`,
	} {
		err := b.UnmarshalTOML(v)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%v: %v, want %q", v, err, want)
		}
	}
	if err := b.UnmarshalTOML([]any{int64(1)}); err == nil || !strings.Contains(err.Error(), "not an array") {
		t.Errorf("an array: %v", err)
	}
	var d Duration
	for _, zero := range []any{int64(0), 0.0, "0"} {
		if err := d.UnmarshalTOML(zero); err != nil || d != 0 {
			t.Errorf("%v: %v, %v; zero needs no unit", zero, d, err)
		}
		if err := b.UnmarshalTOML(zero); err != nil || b != 0 {
			t.Errorf("%v: %v, %v; zero needs no unit", zero, b, err)
		}
	}
	if err := d.UnmarshalTOML("300us"); err != nil || algos.Time(d) != 300*algos.Microsecond {
		t.Errorf("300us: %v, %v", d, err)
	}
}

// Micro is the micro sign (U+00B5) or the Greek mu (U+03BC): they look
// alike, and keyboards type either.
func TestMicroIsEitherSign(t *testing.T) {
	for _, s := range []string{"100us", "100\u00b5s", "100\u03bcs", "0.1ms"} {
		if got, err := ParseDuration(s); err != nil || got != 100*algos.Microsecond {
			t.Errorf("ParseDuration(%q) = %v, %v; want 100us", s, got, err)
		}
	}
}

// An error quotes a long value by its ends, counted: a rate of 500,000
// digits must not print as much again, and its unit still shows.
func TestQuoteKeepsTheEnds(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"10Gbps", `"10Gbps"`},
		{strings.Repeat("9", 56) + "Gbps", `"` + strings.Repeat("9", 56) + `Gbps"`},
		{strings.Repeat("9", 500000) + "Gbps", `"99999999999999999999…9999999999999999Gbps" (500004 characters)`},
		{strings.Repeat("µ", 100), `"µµµµµµµµµµµµµµµµµµµµ…µµµµµµµµµµµµµµµµµµµµ" (100 characters)`},
	} {
		if got := Quote(c.in); got != c.want {
			t.Errorf("Quote(%.30q...) = %s, want %s", c.in, got, c.want)
		}
	}
	if _, err := ParseRate(strings.Repeat("x", 100000)); err == nil || len(err.Error()) > 200 {
		t.Errorf("an error of %d bytes", len(err.Error()))
	}
}

// A value below a unit's base (1bps, 1B) is written with an exponent, not
// as a decimal of 300 digits, and reads back as the same value; one that
// is not tiny keeps its plain decimals.
func TestTinyValuesReadable(t *testing.T) {
	for _, c := range []struct {
		v    float64
		kind algos.Kind
		want string
	}{
		{1e-300, algos.Rate, "1e-300bps"},
		{1e-5, algos.Bytes, "1e-05B"},
		{0.5, algos.Rate, "0.5bps"},
		{0.0001, algos.Bytes, "0.0001B"},
	} {
		got := Format(c.kind, c.v)
		back, err := Parse(c.kind, got)
		if got != c.want || err != nil || back != c.v {
			t.Errorf("Format(%g) = %q, read back as %g (%v); want %q", c.v, got, back, err, c.want)
		}
	}
}
