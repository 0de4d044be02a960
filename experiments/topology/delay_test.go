package topology

import (
	"testing"

	"qcnlab/algos"
	"qcnlab/model"
)

func TestParseDelay(t *testing.T) {
	for _, c := range []struct {
		text string
		want model.Dist
	}{
		{"200us", model.FixedDist(200 * algos.Microsecond)},
		{"uniform(150us, 250us)", model.UniformDist(150*algos.Microsecond, 250*algos.Microsecond)},
		{" uniform( 0s ,1ms ) ", model.UniformDist(0, algos.Millisecond)},
		{"uniform(5us, 5us)", model.UniformDist(5*algos.Microsecond, 5*algos.Microsecond)},
	} {
		got, err := ParseDelay(c.text)
		if err != nil || got != c.want {
			t.Errorf("ParseDelay(%q) = %+v, %v; want %+v", c.text, got, err, c.want)
		}
		// Written back, it reads the same.
		if back, err := ParseDelay(FormatDelay(got)); err != nil || back != got {
			t.Errorf("%q: written as %q, read back as %+v, %v", c.text, FormatDelay(got), back, err)
		}
	}
	for _, text := range []string{"uniform(250us, 150us)", "uniform(-1us, 5us)", "uniform(1us)", "uniform(1us, 2us",
		"normal(1us, 2us)", "uniform(1us, never)", "never", "-5us", "5", ""} {
		if _, err := ParseDelay(text); err == nil {
			t.Errorf("ParseDelay(%q) accepted", text)
		}
	}
}
