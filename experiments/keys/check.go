package keys

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"qcnlab/algos"
	"qcnlab/model"
	"qcnlab/printable"
	"qcnlab/units"
)

// A Rule is a key's check of the values of a file, run by Validate on
// every file whose topology the key applies to: it reads the file through
// File and reports each problem through bad, under the key k. Rules that
// weigh keys against each other are the cross-key rules (cross.go); the
// checks that need the network built (a chain's sources, a fabric's
// routes, PFC's thresholds per port, a scheme's defaults, the cost) are
// Validate's and the topologies'.
type Rule func(k *Key, f File, bad Bad)

// Bad reports a problem with a key.
type Bad = func(key, format string, args ...any)

// File is an experiment file as a check reads it.
type File interface {
	// Value is the value of the key at path as the schema holds it
	// (units.Duration, units.Rate, units.Bytes, int, float64, string, a
	// slice of them); nil where the key is unset.
	Value(path string) any
	// Resolved is the value with the default written in where the key
	// has one that follows other keys (Key.Derived: the warm-up, a
	// chain's links, the accounting of PFC, the buffer model, the
	// pattern).
	Resolved(path string) any
	// Set reports whether the file, --set or a sweep set the key.
	Set(path string) bool
	// Overridden reports whether --set (or the workbench's editor) set
	// the key last, over the file: a rule weighing it against a key of
	// the file blames it, the user's key.
	Overridden(path string) bool
	// Len is the number of elements of an array of tables ("flows").
	Len(path string) int
	// Hosts is a fabric's hosts, from its size keys; 0 on a chain or
	// with sizes out of bounds.
	Hosts() int
	// Ports are the links a capacity change may name: a chain's links,
	// a fabric's switch egress ports.
	Ports() int
}

// Limits on frame sizes: Ethernet's minimum frame and a jumbo frame.
const (
	MinFrame = 64
	MaxFrame = 9216
)

// MaxFlows bounds the flows of a run: a fabric's pattern and [[flows]],
// and the short flows traffic.max_flows lets arrive.
const MaxFlows = 1_000_000

// MaxSamples bounds the samples of a run's time series.
const MaxSamples = 100_000_000

// MaxPhases bounds output.phases: each boundary copies every link's queue
// histogram and every source's counters, and the summary reports each phase.
const MaxPhases = 1000

// Run runs the rules of the keys that apply to a topology, in the
// registry's order. An unknown topology (reported as such) has its keys
// checked as a chain's, as the rest of Validate checks it.
func Run(topology string, f File, bad Bad) {
	if !IsTopology(topology) {
		topology = Chains()[0]
	}
	for i := range All {
		if k := &All[i]; k.Rule != nil && k.AppliesTo(topology) {
			k.Rule(k, f, bad)
		}
	}
}

func durationAt(f File, path string) algos.Time {
	d, _ := f.Value(path).(units.Duration)
	return algos.Time(d)
}

func bytesAt(f File, path string) units.Bytes {
	b, _ := f.Value(path).(units.Bytes)
	return b
}

func textAt(f File, path string) string {
	s, _ := f.Value(path).(string)
	return s
}

// whole reports whether a size is a whole number of bytes.
func whole(b units.Bytes) bool { return b == units.Bytes(math.Trunc(float64(b))) }

// oneOf refuses a word that is not one of the key's choices.
func oneOf(k *Key, f File, bad Bad) {
	if v := textAt(f, k.Path); !slices.Contains(k.Choices, v) {
		bad(k.Path, "%q is not available (available: %q)", v, k.Choices)
	}
}

// positiveFinite refuses a duration that is not positive and finite.
func positiveFinite(k *Key, f File, bad Bad) {
	if d := durationAt(f, k.Path); d <= 0 || d == algos.Never {
		bad(k.Path, "must be a positive, finite duration")
	}
}

// finite refuses a duration that is never.
func finite(k *Key, f File, bad Bad) {
	if durationAt(f, k.Path) == algos.Never {
		bad(k.Path, "must be finite")
	}
}

// minRate refuses a rate below units.MinRate, where one is set.
func minRate(k *Key, f File, bad Bad) {
	if r, ok := f.Value(k.Path).(units.Rate); ok && r < units.MinRate {
		bad(k.Path, "must be at least %s", units.FormatRate(units.MinRate))
	}
}

// printableName refuses a name that would reach a terminal raw (a control
// character: an escape sequence blanks a screen or retitles it) or, for
// a name files are named after, a path (a separator or "..").
func printableName(path, name string, makesPaths bool, bad Bad) {
	switch {
	case printable.Text(name) != name: // control characters, bidirectional overrides, bytes not UTF-8
		bad(path, "%q holds a control character; a name is printable text", name)
	case makesPaths && (strings.ContainsAny(name, `/\`) || strings.Contains(name, "..")):
		bad(path, "%q holds a path separator or \"..\"; the name makes file names", name)
	}
}

// PrintableName refuses a name that would reach a terminal raw: a control
// character.
func PrintableName(path, name string, bad Bad) { printableName(path, name, false, bad) }

func checkName(_ *Key, f File, bad Bad) {
	name := textAt(f, "name")
	if name == "" {
		bad("name", "must not be empty")
	}
	printableName("name", name, true, bad)
}

func checkDescription(_ *Key, f File, bad Bad) {
	if d := strings.NewReplacer("\n", "", "\t", "").Replace(textAt(f, "description")); printable.Text(d) != d {
		bad("description", "holds a control character other than a line break or a tab")
	}
}

func checkWarmup(_ *Key, f File, bad Bad) {
	w, _ := f.Resolved("warmup").(units.Duration)
	// A duration that is no duration has its own error; the warmup is
	// not wrong for it.
	switch d := durationAt(f, "duration"); {
	case d <= 0 || algos.Time(w) < d:
	case f.Overridden("duration") && !f.Overridden("warmup"):
		bad("duration", "must be longer than the warm-up (%s), however short the file's is scaled (set warmup = \"0s\" for none)", units.FormatDuration(algos.Time(w)))
	default:
		bad("warmup", "must be shorter than the duration (%s)", units.FormatDuration(d))
	}
}

func checkFrameSize(_ *Key, f File, bad Bad) {
	if n := bytesAt(f, "network.frame_size"); n < MinFrame || n > MaxFrame || !whole(n) {
		bad("network.frame_size", "must be a whole number of bytes from %dB to %dB", MinFrame, MaxFrame)
	}
}

func checkBuffer(_ *Key, f File, bad Bad) {
	b, frame := bytesAt(f, "network.buffer"), bytesAt(f, "network.frame_size")
	switch {
	case !whole(b):
		bad("network.buffer", "must be a whole number of bytes holding at least one frame")
	case b >= frame:
	case frame > MaxFrame || frame < MinFrame || !whole(frame):
		// A frame size that is no frame size has its own error; the
		// buffer is not wrong for it.
	case f.Overridden("network.frame_size") && !f.Overridden("network.buffer"):
		bad("network.frame_size", "must fit in the buffer (%s)", units.FormatBytes(float64(b)))
	default:
		bad("network.buffer", "must be a whole number of bytes holding at least one frame")
	}
}

func checkSourceCount(_ *Key, f File, bad Bad) {
	count, _ := f.Value("sources.count").(int)
	links, _ := f.Resolved("network.links").(int)
	most := model.MaxSources - max(1, links) // a slot of the event tree for every source and link
	switch {
	case count < 1:
		bad("sources.count", "must be at least 1")
	case count > most:
		bad("sources.count", "must be at most %d, the simulator's limit with %s", most, plural(links, "link"))
	}
}

func checkSampleInterval(_ *Key, f File, bad Bad) {
	s, d := durationAt(f, "output.sample_interval"), durationAt(f, "duration")
	switch {
	case s <= 0 || s == algos.Never:
		bad("output.sample_interval", "must be a positive, finite duration")
	case d <= 0 || d >= algos.Never:
		// a duration that is no duration has its own error
	case d/s > MaxSamples && (!f.Set("output.sample_interval") || f.Overridden("duration") && !f.Overridden("output.sample_interval")):
		bad("duration", "%s gives more than 100 million samples at output.sample_interval = %s; make it shorter, or the sample interval longer",
			units.FormatDuration(d), units.FormatDuration(s))
	case d/s > MaxSamples:
		bad("output.sample_interval", "gives more than 100 million samples; make it longer")
	}
}

func checkRateWindow(_ *Key, f File, bad Bad) {
	s, w := durationAt(f, "output.sample_interval"), durationAt(f, "output.rate_window")
	switch {
	case w == algos.Never:
		bad("output.rate_window", "must be finite")
	case s <= 0 || s == algos.Never:
		// a sample interval that is none has its own error
	case w < s && f.Overridden("output.sample_interval") && !f.Overridden("output.rate_window"):
		bad("output.sample_interval", "must be at most output.rate_window (%s)", units.FormatDuration(w))
	case w < s:
		bad("output.rate_window", "must be at least the sample interval (%s)", units.FormatDuration(s))
	}
}

func checkPhases(_ *Key, f File, bad Bad) {
	phases, _ := f.Value("output.phases").([]units.Duration)
	d := durationAt(f, "duration")
	if len(phases) > MaxPhases {
		bad("output.phases", "%d boundaries; the most is %d", len(phases), MaxPhases)
	}
	for i, t := range phases {
		switch {
		case t <= 0 || algos.Time(t) >= d:
			bad("output.phases", "boundary %s is not inside the run (0, %s)", units.FormatDuration(algos.Time(t)), units.FormatDuration(d))
		case i > 0 && t <= phases[i-1]:
			bad("output.phases", "boundaries must increase: %s after %s", units.FormatDuration(algos.Time(t)),
				units.FormatDuration(algos.Time(phases[i-1])))
		}
	}
	if textAt(f, "model") != "packet" && len(phases) > 0 {
		bad("output.phases", "phases are measured by the packet model; use model = \"packet\"")
	}
}

func checkFairnessThreshold(_ *Key, f File, bad Bad) {
	if x, _ := f.Value("output.fairness_threshold").(float64); !(x > 0 && x <= 1) {
		bad("output.fairness_threshold", "must be in (0, 1]")
	}
}

// plural is n and noun, with an s unless n is 1.
func plural(n int, noun string) string {
	if n == 1 {
		return fmt.Sprintf("1 %s", noun)
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

func checkLongFlows(_ *Key, f File, bad Bad) {
	if n, _ := f.Value("traffic.long_flows").(int); n < 0 || n > 1000 {
		bad("traffic.long_flows", "must be from 0 to 1000")
	}
}

func checkShortFlowRate(_ *Key, f File, bad Bad) {
	if r, _ := f.Value("traffic.short_flow_rate").(float64); !(r >= 0) || r > 1e9 {
		bad("traffic.short_flow_rate", "must be from 0 to 1e9 flows per second")
	}
}

// checkTrafficStop bounds when the short flows stop arriving, and refuses a
// stop (or a most) for short flows there are none of.
func checkTrafficStop(_ *Key, f File, bad Bad) {
	stop, stops := f.Value("traffic.stop").(units.Duration)
	if stops && (stop <= 0 || algos.Time(stop) > durationAt(f, "duration")) {
		bad("traffic.stop", "must be in (0, duration]: when the short flows stop arriving")
	}
	rate, _ := f.Value("traffic.short_flow_rate").(float64)
	load, _ := f.Value("traffic.load").(float64)
	if (stops || f.Value("traffic.max_flows") != nil) && rate == 0 && load == 0 {
		bad("traffic.stop", "stops the short flows' arrivals: give traffic.load or traffic.short_flow_rate")
	}
}

func checkMaxFlows(_ *Key, f File, bad Bad) {
	if n, ok := f.Value("traffic.max_flows").(int64); ok && (n < 1 || n > MaxFlows) {
		bad("traffic.max_flows", "must be from 1 to %d flows", MaxFlows)
	}
}

func checkClockPPM(_ *Key, f File, bad Bad) {
	if p, ok := f.Value("network.clock_ppm").(float64); ok && !(p >= 0 && p <= model.MaxClockPPM) {
		bad("network.clock_ppm", "must be within 0 and %d ppm (Ethernet allows 100)", model.MaxClockPPM)
	}
}

func checkSwitchJitter(_ *Key, f File, bad Bad) {
	if j, ok := f.Value("network.switch_jitter").(units.Duration); ok && (j < 0 || algos.Time(j) > model.MaxSwitchJitter) {
		bad("network.switch_jitter", "must be within 0 and %g us", model.MaxSwitchJitter.Seconds()*1e6)
	}
}

// setOneOf refuses a word, where one is set, that is not one of the key's
// choices.
func setOneOf(k *Key, f File, bad Bad) {
	if v := textAt(f, k.Path); v != "" && !slices.Contains(k.Choices, v) {
		bad(k.Path, "%q is not one of %q", v, k.Choices)
	}
}

func checkSpray(k *Key, f File, bad Bad) {
	switch v := textAt(f, k.Path); {
	case v != "" && !slices.Contains(k.Choices, v):
		setOneOf(k, f, bad)
	case v != "" && textAt(f, "network.routing") != "spray":
		bad(k.Path, "applies with network.routing = \"spray\"")
	}
}

// watched refuses a time series that follows none of a fabric's ports or
// flows (output.watch_ports, output.watch_flows).
func watched(k *Key, f File, bad Bad) {
	if n, ok := f.Value(k.Path).(int); ok && n < 1 {
		what := strings.TrimPrefix(k.Path, "output.watch_")
		bad(k.Path, "%d: the time series follows at least 1 of the %s (leave the key out for the default)", n, what)
	}
}

// classes is network.classes with its default, and whether it is in
// bounds: the other class keys are checked against a sound count only.
func classes(f File) (int, bool) {
	n, _ := f.Resolved("network.classes").(int)
	return n, n >= 1 && n <= model.MaxClasses
}

// several refuses a class key on ports of one class.
func several(k *Key, n int, bad Bad) bool {
	if n < 2 {
		bad(k.Path, "applies with network.classes of 2 or more")
		return false
	}
	return true
}

func checkClasses(k *Key, f File, bad Bad) {
	n, ok := classes(f)
	switch {
	case !ok:
		bad(k.Path, "%d: from 1 to %d (802.1Q's priorities)", n, model.MaxClasses)
	case n > 1 && textAt(f, "model") != "packet":
		bad(k.Path, "classes are the packet model's; use model = \"packet\"")
	}
}

func checkScheduler(k *Key, f File, bad Bad) {
	n, ok := classes(f)
	switch s := textAt(f, k.Path); {
	case !ok || s == "":
	case s != "strict" && s != "dwrr":
		bad(k.Path, "%q: must be \"strict\" or \"dwrr\"", s)
	default:
		several(k, n, bad)
	}
}

func checkStrictClasses(k *Key, f File, bad Bad) {
	n, ok := classes(f)
	sc, set := f.Value(k.Path).(int)
	switch {
	case !ok || !set:
	case textAt(f, "network.scheduler") != "dwrr":
		bad(k.Path, "set network.scheduler = \"dwrr\" for it to apply (with \"strict\" every class is)")
	case sc < 0 || sc > n:
		bad(k.Path, "%d: from 0 to the %d classes", sc, n)
	}
}

func checkClassWeights(k *Key, f File, bad Bad) {
	n, ok := classes(f)
	w, _ := f.Value(k.Path).([]int)
	if !ok || w == nil || !several(k, n, bad) {
		return
	}
	if len(w) != n {
		bad(k.Path, "%d weights for %d classes: give one per class", len(w), n)
	}
	for i, x := range w {
		if x < 1 || x > 1<<16 {
			bad(k.Path, "class %d's weight %d: a whole number from 1 to 65536", i, x)
		}
	}
}

func checkDWRRQuantum(k *Key, f File, bad Bad) {
	n, ok := classes(f)
	q, set := f.Value(k.Path).(units.Bytes)
	if ok && set && several(k, n, bad) && (q < 1 || q > 1<<24 || !whole(q)) {
		bad(k.Path, "must be a whole number of bytes from 1 B to 16 MiB")
	}
}

// ClassError is what is wrong with a flow's traffic class c on ports of n
// classes; "" when nothing is.
func ClassError(c, n int) string {
	if c < 0 || c >= n {
		return fmt.Sprintf("class %d is not one of the %d classes (0 to %d; network.classes)", c, n, n-1)
	}
	return ""
}

func checkTrafficClass(k *Key, f File, bad Bad) {
	n, ok := classes(f)
	if c, set := f.Value(k.Path).(int); ok && set {
		if msg := ClassError(c, n); msg != "" {
			bad(k.Path, "%s", msg)
		}
	}
}

// checkAlgorithms refuses an empty list, an unknown or repeated scheme, and
// a scheme the model has no law for.
func checkAlgorithms(k *Key, f File, bad Bad) {
	names, _ := f.Value(k.Path).([]string)
	if len(names) == 0 {
		bad(k.Path, "name at least one algorithm (known: %q)", algos.Names())
	}
	m := textAt(f, "model")
	for i, name := range names {
		if sc, err := algos.Lookup(name); err != nil {
			bad(k.Path, "%v", err)
		} else if slices.Index(names, name) != i {
			bad(k.Path, "%q is listed twice", name)
		} else if m == "fluid" && !sc.Fluid {
			bad(k.Path, "%s has no fluid model; use model = \"packet\"", name)
		} else if m == "convergence" && sc.Convergence == nil {
			bad("model", "seed 002's convergence model covers %q, not %s; use model = \"packet\"", convergenceSchemes(), name)
		}
	}
}

// convergenceSchemes lists the schemes seed 002's convergence model covers:
// those that give it their law.
func convergenceSchemes() []string {
	var names []string
	for _, name := range algos.Names() {
		if sc, _ := algos.Lookup(name); sc.Convergence != nil {
			names = append(names, name)
		}
	}
	return names
}

func checkAckEvery(k *Key, f File, bad Bad) {
	if a, set := f.Value(k.Path).(units.Bytes); set && !(a >= 1 && whole(a)) {
		bad(k.Path, "must be a whole number of bytes, at least 1 (1 B: every frame)")
	}
}

func checkRecovery(k *Key, f File, bad Bad) {
	if r := textAt(f, k.Path); r != "" && !slices.Contains(k.Choices, r) {
		bad(k.Path, "%q: must be one of %q", r, k.Choices)
	}
}

// setPositiveFinite refuses a duration, where one is set, that is not
// positive and finite.
func setPositiveFinite(k *Key, f File, bad Bad) {
	if d, set := f.Value(k.Path).(units.Duration); set && !(d > 0 && algos.Time(d) < algos.Never) {
		bad(k.Path, "must be a positive, finite duration")
	}
}
