package experiments

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"unicode/utf8"

	"qcnlab/algos"
	"qcnlab/experiments/keys"
	"qcnlab/model"
	"qcnlab/printable"
	"qcnlab/units"
)

// Topologies the experiment file accepts.
var Topologies = keys.Choices("network.topology")

// Limits on frame sizes: Ethernet's minimum frame and a jumbo frame.
const (
	minFrame = 64
	maxFrame = 9216
)

// Validate checks the whole experiment and reports every problem, each with
// the place its key was set.
func (e *Experiment) Validate() error {
	var errs []error
	bad := func(key, format string, args ...any) {
		errs = append(errs, &Error{Where: e.where(key), Key: key, Msg: fmt.Sprintf(format, args...)})
	}
	// badParams reports a failed Resolve under the key it blames.
	// A default that does not fit is placed at the buffer, the setting
	// most defaults derive from.
	badParams := func(name string, err error) {
		key, where := "params."+name, e.where("params."+name)
		if pe := (*algos.ParamError)(nil); errors.As(err, &pe) {
			key, err = key+"."+pe.Key, pe.Err
			if _, set := e.Params[name][pe.Key]; set {
				where = e.where(key)
			} else {
				where = e.where("network.buffer")
			}
		}
		errs = append(errs, &Error{Where: where, Key: key, Msg: err.Error()})
	}
	if e.Name == "" {
		bad("name", "must not be empty")
	}
	e.nameErrors(bad)
	if e.Duration <= 0 || algos.Time(e.Duration) == algos.Never {
		bad("duration", "must be a positive, finite duration")
	}
	if w := e.WarmupTime(); w >= algos.Time(e.Duration) {
		bad("warmup", "must be shorter than the duration (%s)", units.FormatDuration(algos.Time(e.Duration)))
	}
	if !slices.Contains(model.Models, e.Model) {
		bad("model", "%q is not available (available: %q)", e.Model, model.Models)
	}
	if len(e.Algorithms) == 0 {
		bad("algorithms", "name at least one algorithm (known: %q)", algos.Names())
	}
	for i, name := range e.Algorithms {
		if sc, err := algos.Lookup(name); err != nil {
			bad("algorithms", "%v", err)
		} else if slices.Index(e.Algorithms, name) != i {
			bad("algorithms", "%q is listed twice", name)
		} else if e.Model == "fluid" && !sc.Fluid {
			bad("algorithms", "%s has no fluid model; use model = \"packet\"", name)
		} else if e.Model == "convergence" && sc.Convergence == nil {
			bad("model", "seed 002's convergence model covers %q, not %s; use model = \"packet\"", convergenceSchemes(), name)
		}
	}

	n := e.Network
	if !slices.Contains(Topologies, n.Topology) {
		bad("network.topology", "%q is not available (available: %q)", n.Topology, Topologies)
	}
	e.scopeErrors(bad)
	if n.Capacity < units.MinRate {
		bad("network.capacity", "must be at least %s", units.FormatRate(units.MinRate))
	}
	if n.FrameSize < minFrame || n.FrameSize > maxFrame || n.FrameSize != units.Bytes(math.Trunc(float64(n.FrameSize))) {
		bad("network.frame_size", "must be a whole number of bytes from %dB to %dB", minFrame, maxFrame)
	}
	if n.Buffer < n.FrameSize || n.Buffer != units.Bytes(math.Trunc(float64(n.Buffer))) {
		bad("network.buffer", "must be a whole number of bytes holding at least one frame")
	}
	links := e.LinkCount()
	if e.IsFabric() {
		e.validateFabric(bad)
		links = e.fabricPorts()
	} else {
		e.validateChain(bad)
	}
	e.validateChanges(bad, links)
	e.validateTraffic(bad)

	o := e.Output
	if o.SampleInterval <= 0 || algos.Time(o.SampleInterval) == algos.Never {
		bad("output.sample_interval", "must be a positive, finite duration")
	} else if algos.Time(e.Duration)/algos.Time(o.SampleInterval) > 100_000_000 {
		bad("output.sample_interval", "gives more than 100 million samples; make it longer")
	}
	if o.RateWindow < o.SampleInterval || algos.Time(o.RateWindow) == algos.Never {
		bad("output.rate_window", "must be at least the sample interval (%s)", units.FormatDuration(algos.Time(o.SampleInterval)))
	}
	if len(o.Phases) > MaxPhases {
		bad("output.phases", "%d boundaries; the most is %d", len(o.Phases), MaxPhases)
	}
	for i, t := range o.Phases {
		switch {
		case t <= 0 || algos.Time(t) >= algos.Time(e.Duration):
			bad("output.phases", "boundary %s is not inside the run (0, %s)", units.FormatDuration(algos.Time(t)),
				units.FormatDuration(algos.Time(e.Duration)))
		case i > 0 && t <= o.Phases[i-1]:
			bad("output.phases", "boundaries must increase: %s after %s", units.FormatDuration(algos.Time(t)),
				units.FormatDuration(algos.Time(o.Phases[i-1])))
		}
	}
	if e.Model != "packet" && len(o.Phases) > 0 {
		bad("output.phases", "phases are measured by the packet model; use model = \"packet\"")
	}
	if !(o.FairnessThreshold > 0 && o.FairnessThreshold <= 1) {
		bad("output.fairness_threshold", "must be in (0, 1]")
	}

	e.validateClocks(bad)
	e.validateClasses(bad)
	if len(errs) == 0 && e.IsFabric() { // routes, and flows, need sound keys
		e.checkFabric(bad)
	}
	if len(errs) == 0 { // the thresholds need a sound network
		if e.IsFabric() {
			if cfg, err := e.fabricConfig(); err == nil {
				e.validatePFC(bad, cfg)
			}
		} else {
			e.validatePFC(bad, model.Config{FrameBytes: int(e.Network.FrameSize), Links: e.LinkConfigs(), Sources: e.SourceConfigs()})
		}
	} else if e.Network.PFC && e.Model == "fluid" {
		bad("network.pfc", "the fluid model has no PFC; use model = \"packet\"")
	}
	sound := len(errs) == 0 // the network is valid enough to derive defaults from
	for _, name := range e.Algorithms {
		// An algorithm without a [params] table still needs defaults that
		// fit this network; one with a table is checked below.
		if _, ok := e.Params[name]; !ok && sound {
			if sc, err := algos.Lookup(name); err == nil {
				if _, err := sc.Resolve(e.SchemeNetwork(), nil); err != nil {
					badParams(name, err)
				}
			}
		}
	}
	for _, name := range sortedKeys(e.Params) {
		sc, err := algos.Lookup(name)
		if err != nil {
			bad("params."+name, "%v", err)
			continue
		}
		ok := true
		for _, key := range sortedKeys(e.Params[name]) {
			p, known := sc.Param(key)
			if !known {
				bad("params."+name+"."+key, "%s has no parameter %q", name, key)
			} else if err := paramError(p, e.Params[name][key]); err != nil {
				bad("params."+name+"."+key, "%v", err)
			} else {
				continue
			}
			ok = false
		}
		if ok && sound {
			if _, err := sc.Resolve(e.SchemeNetwork(), e.Params[name]); err != nil {
				badParams(name, err)
			}
		}
	}
	if len(errs) == 0 {
		e.costErrors(bad)
	}
	if len(errs) == 0 {
		e.seriesErrors(bad)
	}
	if len(e.Sweep) > 0 && e.sweepErrors(bad) && len(errs) == 0 {
		if runs, err := e.Runs(); err != nil {
			errs = append(errs, err)
		} else {
			batchErrors(runs, bad)
		}
	}
	return joinErrors(errs)
}

// where says where a key was last set: its file and line if it came from a
// file, the experiment's name for defaults.
func (e *Experiment) where(key string) string {
	for k := key; k != ""; {
		if w, ok := e.origin[k]; ok {
			return w
		}
		if i := lastDot(k); i >= 0 {
			k = k[:i]
		} else {
			break
		}
	}
	return "experiment " + safeName(e.Name) // a name that is refused must not reach the terminal raw
}

func lastDot(s string) int {
	for i := len(s) - 1; i >= 0; i-- {
		if s[i] == '.' {
			return i
		}
	}
	return -1
}

// sourceKey is the key that set a field for source i: its last override, or
// the [sources] table.
func (e *Experiment) sourceKey(i int, field string) string {
	for j := len(e.Sources.Override) - 1; j >= 0; j-- {
		if slices.Contains(e.Sources.Override[j].IDs, i) {
			return fmt.Sprintf("sources.override[%d].%s", j, field)
		}
	}
	return "sources." + field
}

// paramError checks a parameter value, naming its bounds with units.
func paramError(p algos.Param, v float64) error {
	if p.Validate(v) == nil {
		return nil
	}
	switch {
	case v < p.Min:
		return fmt.Errorf("%s is below the minimum %s", units.Format(p.Kind, v), units.Format(p.Kind, p.Min))
	case p.Max != 0 && v > p.Max:
		return fmt.Errorf("%s is above the maximum %s", units.Format(p.Kind, v), units.Format(p.Kind, p.Max))
	case p.Kind == algos.Count && v > algos.MaxCount:
		return fmt.Errorf("%s is above %d, the most a count parameter may be", units.Format(p.Kind, v), algos.MaxCount)
	}
	return p.Validate(v)
}

// validateConvergence rejects what seed 002's convergence model cannot
// honour: its two sources send greedily from start to end (the third stage
// of section III) through a queue that never fills (assumption 4).
func (e *Experiment) validateConvergence(bad func(key, format string, args ...any)) {
	during := func(t units.Duration) bool { return t > 0 && algos.Time(t) < algos.Time(e.Duration) }
	moves := e.Sources.Start != 0 || during(e.Sources.Stop)
	for _, o := range e.Sources.Override {
		moves = moves || (o.Start != nil && *o.Start != 0) || (o.Stop != nil && during(*o.Stop))
	}
	if moves {
		bad("model", "seed 002's convergence model has both sources sending throughout (sources.start, sources.stop); use model = \"packet\"")
	}
	if !e.Traffic.classic() {
		bad("model", "seed 002's convergence model has one greedy flow per source (traffic); use model = \"packet\"")
	}
	if e.Network.PFC {
		bad("model", "seed 002's convergence model has no PFC, its queue never fills (network.pfc); use model = \"packet\"")
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

// validateChain checks the keys of a dumbbell or a parking lot: its links,
// its sources and their overrides.
func (e *Experiment) validateChain(bad func(key, format string, args ...any)) {
	n := e.Network
	if algos.Time(n.RTT) == algos.Never {
		bad("network.rtt", "must be finite")
	}
	links := e.LinkCount()
	t := chainNamed(n.Topology)
	oneLink := t != nil && t.MaxLinks() == 1 // a dumbbell
	switch {
	case oneLink && links != 1:
		bad("network.links", "a %s has one congestible link; use topology = \"parking_lot\" for a chain", n.Topology)
	case oneLink && n.HopDelay != nil && *n.HopDelay != FixedDelay(algos.Time(n.RTT)/2):
		// Files saved before dumbbells stopped writing it hold rtt/2, which
		// changes nothing; any other value would be silently ignored.
		bad("network.hop_delay", "a %s has no hop between switches: its delays are network.rtt's and the sources' ([[sources.override]] rtt)", n.Topology)
	case links < 1 || links > maxChainLinks:
		bad("network.links", "must be from 1 to %d", maxChainLinks)
	case e.Model == "fluid" && links > 1:
		bad("network.links", "the fluid model has one bottleneck; use model = \"packet\" for a parking lot")
	case e.Model == "convergence" && links > 1:
		bad("model", "seed 002's convergence model has one bottleneck; use model = \"packet\" for a parking lot")
	}
	if e.Model == "convergence" && e.Sources.Count != 2 {
		bad("model", "seed 002's convergence model is for 2 sources, not %d (sources.count)", e.Sources.Count)
	}
	if e.Model == "convergence" {
		e.validateConvergence(bad)
	}

	s := e.Sources
	if s.Count < 1 {
		bad("sources.count", "must be at least 1")
	} else if s.Count > sourcesLimit(links) {
		bad("sources.count", "must be at most %d, the simulator's limit with %s", sourcesLimit(links), pluralize(links, "link"))
	}
	if s.LineRate != nil && *s.LineRate < units.MinRate {
		bad("sources.line_rate", "must be at least %s", units.FormatRate(units.MinRate))
	}
	if s.InitialRate != nil && *s.InitialRate < units.MinRate {
		bad("sources.initial_rate", "must be at least %s", units.FormatRate(units.MinRate))
	}
	checkPath := func(key string, path []int) {
		if path == nil {
			return
		}
		for k, j := range path {
			if j < 0 || j >= links || (k > 0 && j != path[k-1]+1) {
				bad(key, "%v is not a run of consecutive links from 0 to %d", path, links-1)
				return
			}
		}
		if len(path) == 0 {
			bad(key, "a path crosses at least one link")
		}
	}
	checkPath("sources.path", s.Path)
	for i, o := range s.Override {
		key := fmt.Sprintf("sources.override[%d]", i)
		checkPath(key+".path", o.Path)
		if len(o.IDs) == 0 {
			bad(key+".ids", "name the sources this override applies to")
		}
		for _, id := range o.IDs {
			if id < 0 || id >= s.Count {
				bad(key+".ids", "source %d does not exist (sources are 0 to %d)", id, s.Count-1)
			}
		}
	}
	for i, c := range e.SourceConfigs() {
		key := fmt.Sprintf("source %d", i)
		switch {
		case c.InitialRate <= 0 || c.LineRate <= 0:
			// reported above
		case c.LineRate < units.MinRate || c.InitialRate < units.MinRate:
			bad(e.sourceKey(i, "line_rate"), "%s: rates must be at least %s", key, units.FormatRate(units.MinRate))
		case c.InitialRate > c.LineRate:
			bad(e.sourceKey(i, "initial_rate"), "%s: initial rate %s is above its line rate %s", key,
				units.FormatRate(c.InitialRate), units.FormatRate(c.LineRate))
		case c.Stop <= c.Start:
			bad(e.sourceKey(i, "stop"), "%s: stops at %s, not after it starts at %s", key,
				units.FormatDuration(c.Stop), units.FormatDuration(c.Start))
		case c.ForwardDelay == algos.Never || c.BackwardDelay == algos.Never:
			bad(e.sourceKey(i, "forward_delay"), "%s: delays must be finite", key)
		}
	}

}

// validateChanges checks [[network.changes]] against links, the ports a
// change may name.
func (e *Experiment) validateChanges(bad func(key, format string, args ...any), links int) {
	n := e.Network
	if e.Model != "packet" && (len(n.Changes) > 0 || n.FeedbackLatency != FixedDelay(0)) {
		key := "network.changes"
		if len(n.Changes) == 0 {
			key = "network.feedback_latency"
		}
		bad(key, "the %s model has a fixed capacity and no feedback latency; use model = \"packet\"", e.Model)
	}
	for i, c := range n.Changes {
		key := fmt.Sprintf("network.changes[%d]", i)
		switch {
		case c.At == nil:
			bad(key+".at", "missing: when the capacity changes, e.g. at = \"100ms\"")
		case algos.Time(*c.At) >= algos.Time(e.Duration):
			bad(key+".at", "%s is not before the end of the run (%s)", units.FormatDuration(algos.Time(*c.At)),
				units.FormatDuration(algos.Time(e.Duration)))
		}
		switch {
		case c.Capacity == nil:
			bad(key+".capacity", "missing: the rate served from then on, e.g. capacity = \"5Gbps\"")
		case !(*c.Capacity > 0):
			bad(key+".capacity", "must be positive")
		}
		if c.Link != nil && (*c.Link < 0 || *c.Link >= links) {
			what := "links"
			if e.IsFabric() {
				what = "a fabric's switch egress ports, in topology order,"
			}
			bad(key+".link", "link %d does not exist (%s are 0 to %d)", *c.Link, what, links-1)
		}
	}

}

// nameErrors refuses names that would reach a terminal or a path raw: a
// control character (an escape sequence blanks a screen or retitles it)
// in any name, and a path separator or ".." in the experiment's name, which
// the workbench makes its default save path from.
func (e *Experiment) nameErrors(bad func(key, format string, args ...any)) {
	check := func(key, name string, path bool) {
		switch {
		case printable.Text(name) != name: // control characters, bidirectional overrides, bytes not UTF-8
			bad(key, "%q holds a control character; a name is printable text", name)
		case path && (strings.ContainsAny(name, `/\`) || strings.Contains(name, "..")):
			bad(key, "%q holds a path separator or \"..\"; the name makes file names", name)
		}
	}
	check("name", e.Name, true)
	if d := strings.NewReplacer("\n", "", "\t", "").Replace(e.Description); printable.Text(d) != d {
		bad("description", "holds a control character other than a line break or a tab")
	}
	for i, n := range e.Network.Nodes {
		check(fmt.Sprintf("network.node[%d].name", i), n.Name, false)
		check(fmt.Sprintf("network.node[%d].tier", i), n.Tier, false)
	}
	for i, l := range e.Network.FabricLinks {
		check(fmt.Sprintf("network.link[%d].a", i), l.A, false)
		check(fmt.Sprintf("network.link[%d].b", i), l.B, false)
	}
}

// safeName is a name derived from a file's, with what nameErrors refuses
// replaced by "_".
func safeName(name string) string {
	name = strings.Map(func(r rune) rune {
		if r == '/' || r == '\\' || r == utf8.RuneError || printable.Text(string(r)) != string(r) {
			return '_'
		}
		return r
	}, name)
	return strings.ReplaceAll(name, "..", "__")
}
