// Package sources is a chain's sources: the [sources] table and its
// [[sources.override]] entries, the model's sources they make, and their
// checks against the chain's links.
package sources

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"

	"qcnlab/algos"
	"qcnlab/experiments/topology"
	"qcnlab/model"
	"qcnlab/units"
)

// Sources is the [sources] table.
type Sources struct {
	Count         int             `toml:"count"`
	LineRate      *units.Rate     `toml:"line_rate"`      // default: network.capacity
	InitialRate   *units.Rate     `toml:"initial_rate"`   // default: the line rate (seed 000 section II)
	ForwardDelay  *topology.Delay `toml:"forward_delay"`  // default: network.rtt / 2; a distribution is drawn per source
	BackwardDelay *topology.Delay `toml:"backward_delay"` // default: network.rtt / 2
	Start         units.Duration  `toml:"start"`
	Stop          units.Duration  `toml:"stop"`
	Path          []int           `toml:"path"` // links crossed; default: all of them
	Override      []Override      `toml:"override"`
}

// Override is a [[sources.override]] entry: settings for some sources.
type Override struct {
	IDs           []int           `toml:"ids"`
	LineRate      *units.Rate     `toml:"line_rate"`
	InitialRate   *units.Rate     `toml:"initial_rate"`
	RTT           *topology.Delay `toml:"rtt"` // sets both delays to half of it (one draw per source)
	ForwardDelay  *topology.Delay `toml:"forward_delay"`
	BackwardDelay *topology.Delay `toml:"backward_delay"`
	Start         *units.Duration `toml:"start"`
	Stop          *units.Duration `toml:"stop"`
	Path          []int           `toml:"path"`
}

// Configs lists every source with the [sources] table's settings and its
// overrides applied, in base units, on network n whose links path crosses
// by default, with the traffic class class. A delay given as a distribution is
// drawn for each source from its own stream of the experiment seed, in the
// order the settings apply: the [sources] delays, then each override's.
func Configs(s Sources, n topology.Network, path []int, seed uint64, class int) []model.SourceConfig {
	base := model.SourceConfig{
		LineRate: float64(n.Capacity),
		Start:    algos.Time(s.Start),
		Stop:     algos.Time(s.Stop),
		Class:    class,
	}
	half := topology.FixedDelay(algos.Time(n.RTT) / 2)
	fwd, bwd := half, topology.FixedDelay(algos.Time(n.RTT)-algos.Time(n.RTT)/2)
	if s.ForwardDelay != nil {
		fwd = *s.ForwardDelay
	}
	if s.BackwardDelay != nil {
		bwd = *s.BackwardDelay
	}
	if s.LineRate != nil {
		base.LineRate = float64(*s.LineRate)
	}
	base.InitialRate = base.LineRate
	if s.InitialRate != nil {
		base.InitialRate = float64(*s.InitialRate)
	}
	base.Path = s.Path
	if base.Path == nil {
		base.Path = path
	}
	// An invalid count (Validate reports it) must not allocate.
	out := make([]model.SourceConfig, min(max(0, s.Count), model.MaxSources))
	draws := make([]*rand.Rand, len(out))
	for i := range out {
		out[i] = base
		draws[i] = model.DelayRand(seed, model.StreamSourceDelays+uint64(i))
		out[i].ForwardDelay = fwd.Dist().Draw(draws[i])
		out[i].BackwardDelay = bwd.Dist().Draw(draws[i])
	}
	for _, o := range s.Override {
		for _, id := range o.IDs {
			if id < 0 || id >= len(out) {
				continue // reported by Validate
			}
			c, r := &out[id], draws[id]
			lineChanged := o.LineRate != nil
			if lineChanged {
				// An overridden line rate carries the default initial rate with it.
				if c.InitialRate == c.LineRate && s.InitialRate == nil {
					c.InitialRate = float64(*o.LineRate)
				}
				c.LineRate = float64(*o.LineRate)
			}
			if o.InitialRate != nil {
				c.InitialRate = float64(*o.InitialRate)
			}
			if o.RTT != nil {
				rtt := o.RTT.Dist().Draw(r)
				c.ForwardDelay = rtt / 2
				c.BackwardDelay = rtt - c.ForwardDelay
			}
			if o.ForwardDelay != nil {
				c.ForwardDelay = o.ForwardDelay.Dist().Draw(r)
			}
			if o.BackwardDelay != nil {
				c.BackwardDelay = o.BackwardDelay.Dist().Draw(r)
			}
			if o.Start != nil {
				c.Start = algos.Time(*o.Start)
			}
			if o.Stop != nil {
				c.Stop = algos.Time(*o.Stop)
			}
			if o.Path != nil {
				c.Path = o.Path
			}
		}
	}
	return out
}

// Key is the key that set a field for source i: its last override, or
// the [sources] table.
func Key(s Sources, i int, field string) string {
	for j := len(s.Override) - 1; j >= 0; j-- {
		if slices.Contains(s.Override[j].IDs, i) {
			return fmt.Sprintf("sources.override[%d].%s", j, field)
		}
	}
	return "sources." + field
}

// Check checks the sources of a chain of links links, configs as Configs
// makes them: the paths, the overrides' sources and each source's rates,
// times and delays, under the key that set them.
func Check(s Sources, links int, configs []model.SourceConfig, bad func(key, format string, args ...any)) {
	checkPath := func(key string, path []int) {
		if path == nil {
			return
		}
		for k, j := range path {
			if j < 0 || j >= links || (k > 0 && j != path[k-1]+1) {
				bad(key, "%s is not a run of consecutive links from 0 to %d", pathText(path), links-1)
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
		named := map[int]int{} // each id's errors once, however often it is named
		for _, id := range o.IDs {
			switch named[id]++; {
			case named[id] == 1 && (id < 0 || id >= s.Count):
				bad(key+".ids", "source %d does not exist (sources are 0 to %d)", id, s.Count-1)
			case named[id] == 2 && id >= 0 && id < s.Count:
				bad(key+".ids", "names source %d twice", id)
			}
		}
	}
	checkConflicts(s.Override, bad)
	// Sources that share a key and a fault share one error: --set
	// sources.stop=0 is one mistake, not one per source.
	type fault struct{ key, msg string }
	var faults []fault
	ids := map[fault][]int{}
	add := func(i int, key, format string, args ...any) {
		f := fault{key, fmt.Sprintf(format, args...)}
		if _, seen := ids[f]; !seen {
			faults = append(faults, f)
		}
		ids[f] = append(ids[f], i)
	}
	for i, c := range configs {
		switch {
		case c.InitialRate <= 0 || c.LineRate <= 0:
			// reported above
		case c.LineRate < units.MinRate || c.InitialRate < units.MinRate:
			add(i, Key(s, i, "line_rate"), "rates must be at least %s", units.FormatRate(units.MinRate))
		case c.InitialRate > c.LineRate:
			add(i, Key(s, i, "initial_rate"), "initial rate %s is above the line rate %s",
				units.FormatRate(c.InitialRate), units.FormatRate(c.LineRate))
		case c.Stop <= c.Start:
			add(i, Key(s, i, "stop"), "stop %s is not after start %s",
				units.FormatDuration(c.Stop), units.FormatDuration(c.Start))
		case c.ForwardDelay == algos.Never || c.BackwardDelay == algos.Never:
			add(i, Key(s, i, "forward_delay"), "delays must be finite")
		}
	}
	for _, f := range faults {
		bad(f.key, "%s: %s", sourceList(ids[f]), f.msg)
	}
}

// checkConflicts refuses two overrides that set one key of one source:
// the last would win without a word, as a key repeated in a table would.
// rtt sets both delays, so it meets forward_delay and backward_delay too.
func checkConflicts(overrides []Override, bad func(key, format string, args ...any)) {
	type setter struct {
		override int
		key      string
	}
	type conflict struct{ earlier, later setter }
	setBy := map[int]map[string]setter{} // source, then field: the override that set it
	var conflicts []conflict
	ids := map[conflict][]int{}
	for j, o := range overrides {
		for _, key := range o.keys() {
			fields := []string{key}
			if key == "rtt" {
				fields = []string{"forward_delay", "backward_delay"}
			}
			for _, id := range slices.Compact(slices.Sorted(slices.Values(o.IDs))) {
				if setBy[id] == nil {
					setBy[id] = map[string]setter{}
				}
				for _, f := range fields {
					if earlier, ok := setBy[id][f]; ok && earlier.override != j {
						c := conflict{earlier, setter{j, key}}
						if _, seen := ids[c]; !seen {
							conflicts = append(conflicts, c)
						}
						if list := ids[c]; len(list) == 0 || list[len(list)-1] != id {
							ids[c] = append(list, id)
						}
					}
					setBy[id][f] = setter{j, key}
				}
			}
		}
	}
	for _, c := range conflicts {
		bad(fmt.Sprintf("sources.override[%d].%s", c.later.override, c.later.key),
			"%s: sources.override[%d].%s sets it too; set each source's key in one override",
			sourceList(ids[c]), c.earlier.override, c.earlier.key)
	}
}

// keys lists the keys an override sets, ids aside, as the file writes them.
func (o Override) keys() []string {
	var keys []string
	for key, set := range map[string]bool{
		"line_rate": o.LineRate != nil, "initial_rate": o.InitialRate != nil, "rtt": o.RTT != nil,
		"forward_delay": o.ForwardDelay != nil, "backward_delay": o.BackwardDelay != nil,
		"start": o.Start != nil, "stop": o.Stop != nil, "path": o.Path != nil,
	} {
		if set {
			keys = append(keys, key)
		}
	}
	slices.Sort(keys)
	return keys
}

// pathText writes a path as %v does, its first links only: a path of
// 100,000 links must not make an error of 200 KB.
func pathText(path []int) string {
	const shown = 10
	if len(path) <= shown {
		return fmt.Sprint(path)
	}
	return fmt.Sprintf("%v ... (%d more)]", strings.TrimSuffix(fmt.Sprint(path[:shown]), "]"), len(path)-shown)
}

// sourceList names sources by their ids, in order: "source 2",
// "sources 0-3", "sources 1, 4-6".
func sourceList(ids []int) string {
	if len(ids) == 1 {
		return fmt.Sprintf("source %d", ids[0])
	}
	var b strings.Builder
	for i := 0; i < len(ids); {
		j := i
		for j+1 < len(ids) && ids[j+1] == ids[j]+1 {
			j++
		}
		if i > 0 {
			b.WriteString(", ")
		}
		if j > i {
			fmt.Fprintf(&b, "%d-%d", ids[i], ids[j])
		} else {
			fmt.Fprintf(&b, "%d", ids[i])
		}
		i = j + 1
	}
	return "sources " + b.String()
}
