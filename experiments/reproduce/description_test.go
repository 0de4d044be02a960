package reproduce

import (
	"fmt"
	"math"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"qcnlab/algos"
	"qcnlab/experiments"
	"qcnlab/experiments/batch"
	"qcnlab/experiments/builtin"
	"qcnlab/units"
)

// The numbers in the built-ins' descriptions go stale when they are
// measurements. A description may quote the experiment's own settings,
// the paper's numbers (as the reproduce claims on the experiment quote
// them), numbers derived from those (each derivation below), and
// measurements only where a test measures them (the convergence model's,
// below); for everything else it points at the report (qcnlab reproduce
// ID) or at the command that measures it.

// references are not quantities: "figure 7", "eqs. 6-25", "seed 000",
// "802.1Qau", "v2.2", "[23]", "--set key=value" (an example to type).
var references = []*regexp.Regexp{
	regexp.MustCompile(`(?i)\b(seeds?|figures?|fig\.|eqs?\.|equations?|sections?|lines?|remark|assumptions?|stages?|propositions?|sources?|links?|items?|pods?)\s+[0-9IVX][0-9A-Za-z.()]*(\s*(,|and|to|-)\s*[0-9IVX][0-9A-Za-z.()]*)*`),
	regexp.MustCompile(`(SIGCOMM|CoNEXT) \d{4}|\b\d{3}-[\w()-]+|802\.1\w+|\bv\d+(\.\d+)*|\[\d+\]|--set\s+\S+|-bench(time)?\s+\S+|\bm\^2\+4m\+2|\(2m\+3\)|\bq\(k\)\s*-\s*q\(k-1\)|\bk\b|\(omega\+1\)|loop_delay_\w+|\w+_\w+`),
}

var number = regexp.MustCompile(`\d+(\.\d+)?`)

// numbersIn lists the quantities of a text, references left out, and
// digits inside a word ("F1", "H0").
func numbersIn(text string) []string {
	for _, re := range references {
		text = re.ReplaceAllString(text, " ")
	}
	var out []string
	for _, m := range number.FindAllStringIndex(text, -1) {
		if m[0] > 0 {
			if c := text[m[0]-1]; c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c == '^' {
				continue
			}
		}
		out = append(out, text[m[0]:m[1]])
	}
	return out
}

// derived are numbers a description computes from settings or the paper,
// with the computation; each is checked here.
var derived = map[string]map[string]float64{
	"ap-n-aimd-2-sources": {
		"39.5": 100 * (1 - math.Pow(0.99, 50)), // feedbacks before packet 50 at 1% random sampling
		"0.99": 1 - 0.01,
		"64":   64,         // seed 003's page of 64 bytes (section 3.2), the other unit of Fb
		"100":  1 / 0.01,   // T = 1/p frames
		"50":   0.5 / 0.01, // T/2
	},
	"ap-n-aimd-20-sources": {"500": 10e3 / 20},                  // the fair share in Mbps
	"hpcc-vs-dcqcn-incast": {"5.12": 16 * 1e6 * 8 / 25e9 * 1e3}, // 16 MB at 25 Gbps, in ms
	"ack-clocked-fabric":   {"16": 4 * 4 * 4 / 4},               // k^3/4 hosts
	"qcn-incast-leaf-spine": {
		"80": 2 * 40,                                // two spines' 40 Gbps down to leaf 0
		"54": (10e9 - 100e6) / (10e6 / 55e-6) * 1e3, // DCQCN from min_rate to 10 Gbps at R_AI per rp_timer, in ms
	},
	"dsm-loop-delay":       {"80": 1e6 / (0.01 * 10e9 / 8000), "2": 10.0 / 5, "0.8": 10e3 * 80e-6, "10": 20.0 / 2, "20": 20e3 / 1e3},
	"dsm-qcn-adaptability": {},
	"dsm-qcn-delay-100g":   {"8": 1e6 / (0.01 * 100e9 / 8000), "0.08": 20e3 / (2 / 8e-6), "0.8": 0.8},
	"dsm-qcn-delay-10g":    {"80": 1e6 / (0.01 * 10e9 / 8000), "20": 20e3 / 1e3}, // T = 1/(pC) in us; V-A's H in kHz
	"dsm-qcn-mixed-flows": {
		"1.71": 1.71, "13.7": 1.71 * 8, // the web-search CDF's mean, interpolated (experiments TestWebSearchMean)
		"2.7": 200 * 13.7e6 / 1e9, "1.25": 10.0 / 8, // 200 flows/s of 13.7 Mbit; 10 Mbit in MB
		"20": 20, // the paper's "0% to 20% of the bottleneck bandwidth"
	},
	"dsm-qcn-parking-lot":    {"1.25": 100.0 / 80, "2.5": 200.0 / 80, "80": 1e6 / (0.01 * 10e9 / 8000)},
	"dsm-qcn-responsiveness": {"3.75": 300.0 / 80, "80": 1e6 / (0.01 * 10e9 / 8000), "0.2": 0.2}, // the phase at 200ms
	"dsm-reaching-gain": {"1.6": 0.8 * 2, "10": 20.0 / 2, "0.8": 10e3 * 80e-6, "20": 20e3 / 1e3,
		"2083": 1 / (6 * 80e-6), "1818": 20e3 / 11, "11": 2*4 + 3},
	"ecm-small-buffers": {"16": 16, "24": 16 * 1.5, "80": 80},
	"family-dumbbell":   {"23.4": 1500.0 / 64, "64": 64, "10": 10, "0.1": 0.1}, // 64-byte pages; ECM's alpha
	"qcn-capacity-drop": {},
	"qcn-t-fairness": {"2.4": 150e3 * 8 / 500e6 * 1e3, "75": 15 * 5, "5": 5, "31": math.Round(15 * 5 / 2.4),
		"43": 5*2.4 + (31-5)*1.2, "150": 150, "0.8": 0.8, "0.9": 0.9, "50": 50}, // --set network.rtt=50us, spelt out
	"qcn-convergence-model":    {"1.2": 150e3 * 8 / 1e9 * 1e3, "12.5": 15 / 1.2, "2.4": 2.4, "0.9": 0.9},
	"qcn-fluid-vs-packet":      {"2.5": 10.0 / 4, "100": 1 / 0.01},
	"ecmp-collisions-fat-tree": {"16": 4 * 4 * 4 / 4, "128": 8 * 8 * 8 / 4}, // k^3/4 hosts
	"dcqcn-vs-qcn":             {"0.2": 0.2},                                // the stability criterion std > 0.2 of the target
}

// settingNumbers are the numbers of an experiment's own settings: its TOML
// but the description, and the values its schemes take from them.
func settingNumbers(t *testing.T, name string, e *experiments.Experiment) map[string]bool {
	t.Helper()
	src, err := builtin.Source(name)
	if err != nil {
		t.Fatal(err)
	}
	text := string(src)
	if a := strings.Index(text, `description = """`); a >= 0 {
		if b := strings.Index(text[a+17:], `"""`); b >= 0 {
			text = text[:a] + text[a+17+b+3:]
		}
	}
	out := map[string]bool{}
	for _, x := range number.FindAllString(text, -1) {
		out[canon(x)] = true
	}
	for _, a := range e.Sweep {
		out[canon(fmt.Sprint(len(a.Values)))] = true
	}
	for _, alg := range e.Algorithms {
		cfg, err := e.Config(alg)
		if err != nil {
			continue
		}
		sc, _ := algos.Lookup(alg)
		for _, p := range sc.Params {
			v := cfg.Params[p.Key]
			for _, s := range []string{units.Format(p.Kind, v)} {
				for _, x := range number.FindAllString(s, -1) {
					out[canon(x)] = true
				}
			}
			if p.Kind == algos.Bytes && cfg.FrameBytes > 0 {
				out[canon(strconv.FormatFloat(v/float64(cfg.FrameBytes), 'f', -1, 64))] = true
			}
		}
	}
	return out
}

// canon writes a number so that 10 and 10.0 are the same.
func canon(x string) string {
	f, err := strconv.ParseFloat(x, 64)
	if err != nil {
		return x
	}
	return strconv.FormatFloat(f, 'f', -1, 64)
}

// Every number in a built-in's description is a setting, the paper's (as
// a claim on the experiment quotes it), derived (and checked above) or
// measured by a test.
func TestDescriptionNumbersAreAccountedFor(t *testing.T) {
	for _, name := range experiments.BuiltinNames() {
		e, err := experiments.Builtin(name)
		if err != nil {
			t.Fatal(err)
		}
		if stray := strayNumbers(t, name, e, e.Description); len(stray) > 0 {
			t.Errorf("%s: numbers in the description that are neither settings, the paper's, derived nor measured by a test: %s",
				name, strings.Join(stray, ", "))
		}
	}
	// A measurement quoted without a test is caught.
	e, _ := experiments.Builtin("qcn-dumbbell")
	if stray := strayNumbers(t, "qcn-dumbbell", e, e.Description+" Measured: utilization 0.973, queue 31.8 KB."); strings.Join(stray, " ") != "0.973 31.8" {
		t.Errorf("a measured number slips through: %v", stray)
	}
}

// strayNumbers lists the numbers of a description of built-in name that
// nothing accounts for.
func strayNumbers(t *testing.T, name string, e *experiments.Experiment, description string) []string {
	claimText := ""
	for _, c := range Claims() {
		for _, p := range c.parts() {
			if p.Experiment == name {
				claimText += " " + c.Text
			}
		}
	}
	ok := settingNumbers(t, name, e)
	for _, x := range numbersIn(claimText) {
		ok[canon(x)] = true
	}
	for text, v := range derived[name] {
		if want := canon(text); math.Abs(v-mustFloat(t, text)) > 0.06*math.Abs(mustFloat(t, text))+1e-9 {
			t.Errorf("%s: the description's %s is computed as %g", name, want, v)
		}
		ok[canon(text)] = true
	}
	for _, m := range measuredInDescriptions[name] {
		ok[canon(m)] = true
	}
	var stray []string
	for _, x := range numbersIn(description) {
		if !ok[canon(x)] && !slices.Contains(stray, x) {
			stray = append(stray, x)
		}
	}
	return stray
}

func mustFloat(t *testing.T, s string) float64 {
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// measuredInDescriptions are the measurements descriptions quote, each
// checked by a test that measures it (TestConvergenceModelDescription).
var measuredInDescriptions = map[string][]string{}

func init() {
	// The fabric and DCQCN built-ins' measurements, each checked by its
	// test in experiments/fabric_builtins_test.go, which runs the built-in.
	measuredInDescriptions["qcn-incast-leaf-spine"] = []string{"28.7", "1372", "3.51", "5.40", "1144", "0.54", "0.76", "5", "29.5",
		"912", "2.01", "2.43", "9.81", "9.83", "27", "1.64", "1.67", "9.77", "31.1", "1359", "5.39", "5.46"}
	measuredInDescriptions["ecmp-collisions-fat-tree"] = []string{"7.01", "4.68", "0.69", "9.45", "9.01", "0.892", "0.769", "0.997", "0.994", "2.84", "0.92", "8.23", "9.04"}
	measuredInDescriptions["pfc-spreading-fat-tree"] = []string{"3.25", "68", "7.30", "5"}
	measuredInDescriptions["dcqcn-vs-qcn"] = []string{"213", "215", "0.685", "0.999", "16", "58", "0.98", "1.0", "71", "0.969", "0.939",
		"73", "0.925", "43", "1.000", "165", "41"}
	measuredInDescriptions["dcqcn-incast"] = []string{"1264", "764", "71", "16242", "6668", "2015", "25.6", "29.3", "6"}
	// The ACK-clocked schemes' built-ins, each checked by its test in
	// experiments/transport_builtins_test.go.
	measuredInDescriptions["dctcp-two-bottlenecks"] = []string{"48.3", "475.4", "51.7", "0.999", "100", "99.9"}
	measuredInDescriptions["hpcc-vs-dcqcn-incast"] = []string{"91.3", "2.39", "54.6", "7.10", "9", "128", "5.63", "7.54"}
	measuredInDescriptions["ack-clocked-fabric"] = []string{"70", "41", "17", "1.31", "3.70", "1.69", "35.4", "1.35", "3.85", "1.38", "3.93",
		"1.54", "4.84", "3.69", "2.38", "2.80", "2.75", "2.40", "251", "22.1"}
	for _, c := range convergenceChecks {
		measuredInDescriptions["qcn-convergence-model"] = append(measuredInDescriptions["qcn-convergence-model"], c.want...)
	}
	// Figure 4's inputs, R_1 in Mbps, which its check sweeps.
	measuredInDescriptions["qcn-convergence-model"] = append(measuredInDescriptions["qcn-convergence-model"], "550", "600", "700", "800", "900", "950")
}

// convergenceChecks are the numbers qcn-convergence-model's description
// quotes: the sets that measure them, the metric, and the values as
// written, in order.
var convergenceChecks = []struct {
	what string
	sets []string
	axis *experiments.Axis
	read func(rs []batch.RunSummary) []float64
	prec int
	want []string
}{
	{what: "time to fairness of QCN, QCN-TIMER, QCN-AIMD, QCN-T", prec: 1, want: []string{"13.5", "12.4", "9.5", "3.0"},
		read: func(rs []batch.RunSummary) []float64 { return ttfs(rs) }},
	{what: "p[Fb>0] of QCN, least and largest", sets: []string{`algorithms=["qcn"]`}, prec: 2, want: []string{"0.17", "0.21"},
		read: func(rs []batch.RunSummary) []float64 {
			return []float64{rs[0].Convergence.PFbMin, rs[0].Convergence.PFbMax}
		}},
	{what: "figure 4: from R_1 = 550 to 950 Mbps", sets: []string{`algorithms=["qcn"]`}, prec: 1, want: []string{"2.5", "5.2", "8.2", "10.6", "13.5", "15.8"},
		axis: &experiments.Axis{Key: "sources.override", Values: func() []string {
			var vs []string
			for _, r1 := range []int{550, 600, 700, 800, 900, 950} {
				vs = append(vs, fmt.Sprintf(`[{ids=[0],initial_rate="%dMbps"},{ids=[1],initial_rate="%dMbps"}]`, r1, 1000-r1))
			}
			return vs
		}()},
		read: func(rs []batch.RunSummary) []float64 { return ttfs(rs) }},
	{what: "figure 9: bc_limit 75, 150, 300 KB", sets: []string{`algorithms=["qcn"]`}, prec: 1, want: []string{"6.2", "13.5", "28.2"},
		axis: &experiments.Axis{Key: "params.qcn.bc_limit", Values: []string{`"75KB"`, `"150KB"`, `"300KB"`}},
		read: func(rs []batch.RunSummary) []float64 { return ttfs(rs) }},
	{what: "QCN-TIMER at 15 ms", sets: []string{`algorithms=["qcn-timer"]`, "params.qcn-timer.timer_period=15ms"}, prec: 1, want: []string{"18.5"},
		read: func(rs []batch.RunSummary) []float64 { return ttfs(rs) }},
}

func ttfs(rs []batch.RunSummary) []float64 {
	var out []float64
	for _, r := range rs {
		if r.TimeToFairness == nil {
			out = append(out, math.NaN())
			continue
		}
		out = append(out, *r.TimeToFairness)
	}
	return out
}

// TestConvergenceModelDescription runs the convergence model (a second of
// computing) for every number its description quotes, and finds each in
// the description as the model gives it.
func TestConvergenceModelDescription(t *testing.T) {
	e0, err := experiments.Builtin("qcn-convergence-model")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range convergenceChecks {
		e := e0.Clone()
		for _, s := range c.sets {
			if err := e.Set(s); err != nil {
				t.Fatal(err)
			}
		}
		if c.axis != nil {
			e.Sweep = []experiments.Axis{*c.axis}
		}
		runs, err := e.Runs()
		if err != nil {
			t.Fatal(err)
		}
		sums, err := batch.Runs(t.Context(), runs, batch.Options{})
		if err != nil {
			t.Fatal(err)
		}
		var rs []batch.RunSummary
		for _, s := range sums {
			rs = append(rs, *s)
		}
		var got []string
		for _, x := range c.read(rs) {
			got = append(got, strconv.FormatFloat(x, 'f', c.prec, 64))
		}
		if strings.Join(got, ", ") != strings.Join(c.want, ", ") {
			t.Errorf("%s: the model gives %s, the description says %s", c.what, strings.Join(got, ", "), strings.Join(c.want, ", "))
		}
		for _, w := range c.want {
			if !strings.Contains(e0.Description, w) {
				t.Errorf("%s: %s is not in the description", c.what, w)
			}
		}
	}
}

// The reference filter leaves quantities and drops references.
func TestNumbersIn(t *testing.T) {
	got := numbersIn(`Seed 000 figure 7 (section III-B, eqs. 6-25): 2 sources at 10 Gbps, 802.1Qau v2.2 [23], figures 1, 5 and 12, --set network.rtt=50us, 13.5 s`)
	if strings.Join(got, " ") != "2 10 13.5" {
		t.Errorf("%q", got)
	}
}

// readmeBuiltins are the rows of the README's table of built-in
// experiments: the names in the first cell, the rest of the row.
func readmeBuiltins(t *testing.T) map[string]string {
	t.Helper()
	data, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	a := strings.Index(text, "\n## Built-in experiments")
	if a < 0 {
		t.Fatal("README: no section Built-in experiments")
	}
	text = text[a+1:]
	if b := strings.Index(text, "\n## "); b >= 0 {
		text = text[:b]
	}
	rows := map[string]string{}
	for _, line := range strings.Split(text, "\n") {
		cells := strings.Split(line, " | ")
		if !strings.HasPrefix(line, "| `") || len(cells) < 3 {
			continue
		}
		rows[cells[0]] = strings.Join(cells[1:], " | ")
	}
	return rows
}

// claimNumbers are numbers of the claims' own rules the README quotes, by
// the built-in the claim runs: taken from the claims, so that they cannot
// disagree.
var claimNumbers = map[string][]string{
	"qcn-t-fairness": {strconv.Itoa(len(fig1Seeds)), strconv.FormatFloat(fairHold, 'g', -1, 64)},
}

// The README's table of built-ins quotes no measurement of a built-in a
// claim runs: such a row may quote the built-in's settings, the paper's
// numbers (as its claims quote them), numbers derived from those, the
// claims' own (claimNumbers), and what the built-in's description quotes
// (each of which TestDescriptionNumbersAreAccountedFor accounts for); what a
// claim measures it leaves to the report. Each verdict it quotes, as
// "`qcnlab reproduce ID` (verdict)", is the one the claim records.
func TestReadmeBuiltinNumbersAreAccountedFor(t *testing.T) {
	rows := readmeBuiltins(t)
	if len(rows) < 10 {
		t.Fatalf("README: %d rows in the table of built-ins", len(rows))
	}
	claimed := map[string]bool{}
	found := map[string]string{}
	for _, c := range Claims() {
		found[c.ID] = c.Found
		for _, p := range c.parts() {
			claimed[p.Experiment] = true
		}
	}
	name := regexp.MustCompile("`([a-z0-9-]+)`")
	verdict := regexp.MustCompile("`qcnlab reproduce ([a-z0-9 -]+)` \\(([a-z ]+)")
	checked := 0
	for first, rest := range rows {
		var names []string
		for _, m := range name.FindAllStringSubmatch(first, -1) {
			names = append(names, m[1])
		}
		if !slices.ContainsFunc(names, func(n string) bool { return claimed[n] }) {
			continue
		}
		checked++
		for _, m := range verdict.FindAllStringSubmatch(rest, -1) {
			ids, v := strings.Fields(m[1]), strings.TrimSuffix(m[2], " each")
			if len(ids) == 1 && found[ids[0]] != v {
				t.Errorf("README, %s: %s quoted as %q, the claim records %q", first, ids[0], v, found[ids[0]])
			}
		}
		var stray []string
		for _, x := range numbersIn(rest) {
			accounted := false
			for _, n := range names {
				if slices.Contains(claimNumbers[n], x) {
					accounted = true
				}
				e, err := experiments.Builtin(n)
				if err != nil {
					t.Fatalf("README names %q: %v", n, err)
				}
				quoted := slices.Contains(numbersIn(e.Description), x)
				if quoted || len(strayNumbers(t, n, e, x)) == 0 {
					accounted = true
				}
			}
			if !accounted && !slices.Contains(stray, x) {
				stray = append(stray, x)
			}
		}
		if len(stray) > 0 {
			t.Errorf("README, %s: numbers that are neither settings, the paper's, derived nor quoted by the description: %s", first, strings.Join(stray, ", "))
		}
	}
	if checked < 10 {
		t.Errorf("README: %d rows of built-ins that claims run", checked)
	}
	// How 002-fig1 is judged, in the claim's own numbers.
	data, _ := os.ReadFile("../../README.md")
	readme := strings.Join(strings.Fields(string(data)), " ")
	if want := fmt.Sprintf("first reached and held for %s, over %d seeds", readableDuration(fairHold), len(fig1Seeds)); !strings.Contains(readme, want) {
		t.Errorf("README does not say how 002-fig1 is judged: %q", want)
	}
}
