package metrics

import (
	"reflect"
	"strings"
	"testing"

	"qcnlab/model"
)

// reportedApart are the summary's groups of numbers that the registry does
// not list one by one, each with the outputs that carry it.
var reportedApart = map[string]string{
	"bottlenecks.queue_quantiles_bytes.": "results.csv (swN_queue_quantiles_bytes_pNN), the queue CDF figure",
	"convergence.":                       "seed 002's model: results.csv (convergence_...), the text summary",
	"flows.by_size.":                     "fct.csv (one row per size bucket), the FCT figure, results.csv (flows_by_size...)",
	"pfc_deadlock.":                      "the cycle of pauses that stopped a run: stderr, results.csv (pfc_deadlock_...)",
	"watched.":                           "the time series' column names (the ports and flows it follows)",
	"bottlenecks.classes.":               "summary.json only: a port's traffic classes, when it has several",
}

// identity are the numbers that name a run or an element, not measure it.
var identity = map[string]bool{"seed": true, "sources.id": true, "phases.sources.id": true}

// Every number of the summary is a metric of the registry, or in a group
// reportedApart lists: a field added to model.Summary fails here until it
// is registered (and so in summary.json, results.csv, the figures' and the
// stability criteria's choice of metrics), or said where it is reported.
func TestEverySummaryNumberIsRegistered(t *testing.T) {
	registered := map[string]bool{}
	for _, m := range All {
		switch {
		case m.Scope == Bottleneck:
			registered["bottlenecks."+m.Name] = true
		case m.Scope == Source:
			registered["sources."+m.Name] = true
		case m.Scope == Tier:
			registered["tiers."+m.Name] = true
		case m.Scope == Phase:
			registered["phases."+m.Name] = true
		case strings.HasPrefix(m.Name, "flows_"):
			registered["flows."+strings.TrimPrefix(m.Name, "flows_")] = true
		default:
			registered[m.Name] = true
		}
	}
	var walk func(prefix string, t reflect.Type)
	walk = func(prefix string, typ reflect.Type) {
		for i := 0; i < typ.NumField(); i++ {
			f := typ.Field(i)
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			if name == "" || name == "-" {
				continue
			}
			path, ft := prefix+name, f.Type
			for ft.Kind() == reflect.Pointer || ft.Kind() == reflect.Slice {
				ft = ft.Elem()
			}
			apart := false
			for group := range reportedApart {
				apart = apart || strings.HasPrefix(path+".", group) || strings.HasPrefix(path+".", "phases."+group)
			}
			switch {
			case apart || identity[path]:
			case ft.Kind() == reflect.Struct:
				walk(path+".", ft)
			case ft.Kind() == reflect.String, ft.Kind() == reflect.Bool:
			case !registered[path] && !registered[strings.TrimPrefix(path, "phases.")]: // a phase's own, or the run's metrics over it (InPhase)
				t.Errorf("%s: a number of the summary that no metric registers (experiments/metrics)", path)
			}
		}
	}
	walk("", reflect.TypeOf(model.Summary{}))
}
