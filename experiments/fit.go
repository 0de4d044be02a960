package experiments

import (
	"fmt"
	"slices"
	"strings"

	"qcnlab/algos"
	"qcnlab/units"
)

// FitDuration adapts what the file set to a duration an override (--set,
// the workbench's editor) changed from old, and returns a warning for each
// adaptation, so that --set duration=100ms on a built-in runs at once
// rather than failing on its warm-up:
//
//   - a warm-up not shorter than the run, and a traffic.stop after its
//     end, are scaled to the share of the run they had (150 ms of 1 s
//     becomes 15 ms of 100 ms);
//   - phase boundaries and capacity changes at or after the new end, which
//     would never be reached, are dropped.
//
// What an override set itself is left as it is, and its error stands.
func (e *Experiment) FitDuration(old units.Duration) []string {
	d := algos.Time(e.Duration)
	if e.Duration == old || d <= 0 || old <= 0 {
		return nil
	}
	var notes []string
	byOverride := func(key string) bool { return e.origin[key] == "--set" }
	// scale keeps a time's share of the run (150 ms of 1 s is 15 ms of 100 ms).
	scale := func(key, what string, t **units.Duration, beyond bool) {
		if !beyond || byOverride(key) {
			return
		}
		w := units.Duration(float64(**t) * float64(e.Duration) / float64(old))
		w = max(units.Duration(algos.Picosecond), min(w, units.Duration(d-1)))
		notes = append(notes, fmt.Sprintf("duration %s: %s of %s is scaled to %s, the same share of the run (set %s to choose another)",
			units.FormatDuration(d), what, units.FormatDuration(algos.Time(**t)), units.FormatDuration(algos.Time(w)), key))
		*t = &w
	}
	scale("warmup", "the warm-up", &e.Warmup, e.Warmup != nil && algos.Time(*e.Warmup) >= d)
	scale("traffic.stop", "the short flows' stop (traffic.stop)", &e.Traffic.Stop, e.Traffic.Stop != nil && algos.Time(*e.Traffic.Stop) > d)
	if !byOverride("output.phases") {
		var kept, dropped []units.Duration
		for _, t := range e.Output.Phases {
			if algos.Time(t) < d {
				kept = append(kept, t)
			} else {
				dropped = append(dropped, t)
			}
		}
		if len(dropped) > 0 {
			notes = append(notes, fmt.Sprintf("duration %s: the phase boundaries at %s are dropped: the run ends before them",
				units.FormatDuration(d), durations(dropped)))
			e.Output.Phases = kept
		}
	}
	if !byOverride("network.changes") {
		var dropped []units.Duration
		e.Network.Changes = slices.DeleteFunc(e.Network.Changes, func(c Change) bool {
			if c.At != nil && algos.Time(*c.At) >= d {
				dropped = append(dropped, *c.At)
				return true
			}
			return false
		})
		if len(dropped) > 0 {
			notes = append(notes, fmt.Sprintf("duration %s: the capacity changes at %s are dropped: the run ends before them",
				units.FormatDuration(d), durations(dropped)))
		}
	}
	return notes
}

func durations(ds []units.Duration) string {
	s := make([]string, len(ds))
	for i, d := range ds {
		s[i] = units.FormatDuration(algos.Time(d))
	}
	return strings.Join(s, ", ")
}
