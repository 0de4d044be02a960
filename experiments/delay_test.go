package experiments

import (
	"bytes"
	"strings"
	"testing"

	"qcnlab/algos"
)

func TestDelayErrorsNameFileLineKey(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"[sources]\nforward_delay = \"uniform(250us, 150us)\"\n", "bad.toml:2: sources.forward_delay: \"uniform(250us, 150us)\": the least value 250us is above the most 150us"},
		{"[sources]\ncount = 2\nbackward_delay = \"uniform(1us, -2us)\"\n", "bad.toml:3: sources.backward_delay:"},
		{"[network]\ntopology = \"parking_lot\"\nhop_delay = \"uniform(1us 2us)\"\n", "bad.toml:3: network.hop_delay:"},
		{"[sources]\ncount = 2\n[[sources.override]]\nids = [1]\nrtt = \"gauss(1us, 2us)\"\n", "bad.toml:5: sources.override[0].rtt: \"gauss(1us, 2us)\": unknown distribution"},
	} {
		_, err := Parse("bad.toml", []byte(c.text))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want %q", c.text, err, c.want)
		}
	}
}

const heterogeneous = `
seed = 7
[network]
topology = "parking_lot"
links = 4
hop_delay = "uniform(10us, 90us)"
[sources]
count = 6
forward_delay = "uniform(150us, 250us)"
backward_delay = "uniform(150us, 250us)"
[[sources.override]]
ids = [5]
rtt = "uniform(1ms, 2ms)"
`

func TestDrawnDelaysStayInRangeAndDiffer(t *testing.T) {
	e, err := Parse("het.toml", []byte(heterogeneous))
	if err != nil {
		t.Fatal(err)
	}
	lo, hi := 150*algos.Microsecond, 250*algos.Microsecond
	srcs := e.SourceConfigs()
	seen := map[algos.Time]bool{}
	for i, s := range srcs[:5] {
		for _, d := range []algos.Time{s.ForwardDelay, s.BackwardDelay} {
			if d < lo || d > hi {
				t.Errorf("source %d: delay %v outside [150us, 250us]", i, d)
			}
			seen[d] = true
		}
	}
	if len(seen) < 10 {
		t.Errorf("10 draws gave %d distinct delays: %v", len(seen), seen)
	}
	if rtt := srcs[5].ForwardDelay + srcs[5].BackwardDelay; rtt < algos.Millisecond || rtt > 2*algos.Millisecond ||
		srcs[5].BackwardDelay-srcs[5].ForwardDelay > 1 {
		t.Errorf("source 5: rtt override drew %v + %v", srcs[5].ForwardDelay, srcs[5].BackwardDelay)
	}
	links := e.LinkConfigs()
	if links[0].Delay == links[1].Delay || links[3].Delay != 0 {
		t.Errorf("hop delays %+v: want one draw per link, none after the last", links)
	}
	for j, l := range links[:3] {
		if l.Delay < 10*algos.Microsecond || l.Delay > 90*algos.Microsecond {
			t.Errorf("link %d: hop delay %v outside [10us, 90us]", j, l.Delay)
		}
	}
	// The same seed draws the same delays; another seed others; a source's
	// draws do not depend on how many sources there are.
	again, _ := Parse("het.toml", []byte(heterogeneous))
	if a, b := again.SourceConfigs(), srcs; a[3].ForwardDelay != b[3].ForwardDelay || a[3].BackwardDelay != b[3].BackwardDelay {
		t.Errorf("same seed, different draws: %+v %+v", a[3], b[3])
	}
	again.Sources.Count = 3
	if a := again.SourceConfigs(); a[2].ForwardDelay != srcs[2].ForwardDelay || a[2].BackwardDelay != srcs[2].BackwardDelay {
		t.Errorf("source 2's delays changed with the number of sources")
	}
	other, _ := Parse("het.toml", []byte(strings.Replace(heterogeneous, "seed = 7", "seed = 8", 1)))
	if other.SourceConfigs()[0].ForwardDelay == srcs[0].ForwardDelay {
		t.Errorf("seed 8 drew the same delay as seed 7")
	}
	// The distributions are what is saved, not one draw.
	var b bytes.Buffer
	if err := e.Encode(&b); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`forward_delay = "uniform(150us, 250us)"`, `hop_delay = "uniform(10us, 90us)"`, `rtt = "uniform(1ms, 2ms)"`} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("saved file lacks %s:\n%s", want, b.String())
		}
	}
	assertRoundTrip(t, e)
}

func TestScenarioKeyErrors(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"duration = \"10ms\"\n[network]\n[[network.changes]]\nat = \"10ms\"\ncapacity = \"1Gbps\"\n",
			"bad.toml:4: network.changes[0].at: 10ms is not before the end of the run (10ms)"},
		{"[[network.changes]]\nat = \"-1ms\"\ncapacity = \"1Gbps\"\n", "bad.toml:2: network.changes[0].at"},
		{"[[network.changes]]\nat = \"1ms\"\ncapacity = \"1Gbps\"\n[[network.changes]]\nat = \"2ms\"\ncapacity = \"0Gbps\"\n",
			"bad.toml:6: network.changes[1].capacity: must be positive"},
		{"[[network.changes]]\nat = \"1ms\"\ncapacity = \"1Gbps\"\nlink = 1\n", "bad.toml:4: network.changes[0].link: link 1 does not exist"},
		{"[[network.changes]]\ncapacity = \"1Gbps\"\n", "network.changes[0].at: missing"},
		{"[[network.changes]]\nat = \"1ms\"\n", "network.changes[0].capacity: missing"},
		{"[network]\nfeedback_latency = \"uniform(3us, 1us)\"\n", "bad.toml:2: network.feedback_latency:"},
		{"model = \"fluid\"\n[network]\nfeedback_latency = \"1us\"\n", "bad.toml:3: network.feedback_latency: the fluid model"},
		{"duration = \"10ms\"\n[output]\nphases = [\"5ms\", \"10ms\"]\n", "bad.toml:3: output.phases: boundary 10ms is not inside the run"},
		{"[output]\nphases = [\"5ms\", \"2ms\"]\n", "bad.toml:2: output.phases: boundaries must increase: 2ms after 5ms"},
		{"[output]\nphases = [\"soon\"]\n", "bad.toml:2"},
	} {
		_, err := Parse("bad.toml", []byte(c.text))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want %q", c.text, err, c.want)
		}
	}
}

const scenario = `
seed = 3
duration = "6ms"
warmup = "1ms"
algorithms = ["qcn", "dsm"]
[network]
feedback_latency = "uniform(10us, 30us)"
[[network.changes]]
at = "2ms"
capacity = "2Gbps"
[[network.changes]]
at = "4ms"
capacity = "10Gbps"
link = 0
[sources]
count = 3
forward_delay = "uniform(20us, 80us)"
[output]
phases = ["2ms", "4ms"]
[sweep]
seed = [3, 4]
`

func TestScenarioRoundTripAndDeterminism(t *testing.T) {
	e, err := Parse("scenario.toml", []byte(scenario))
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := e.Encode(&b); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`feedback_latency = "uniform(10us, 30us)"`, "[[network.changes]]", `at = "4ms"`,
		"link = 0", `phases = ["2ms", "4ms"]`} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("saved file lacks %s:\n%s", want, b.String())
		}
	}
	assertRoundTrip(t, e) // its batch: TestScenarioSameWhateverTheWorkers
}
