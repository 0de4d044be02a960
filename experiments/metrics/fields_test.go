package metrics

import (
	"reflect"
	"strings"
	"testing"

	"qcnlab/model"
)

// reportedApart are the summary's groups of numbers that neither a metric
// nor a Group of results.csv lists, each with the outputs that carry it.
var reportedApart = map[string]string{}

// identity are the numbers that name a run or an element, not measure it.
var identity = map[string]bool{"seed": true, "sources.id": true, "phases.sources.id": true}

// Every number of the summary is a metric of the registry, or in one of
// its Groups: a field added to model.Summary fails here until it is
// registered (and so in summary.json, results.csv, the figures' and the
// stability criteria's choice of metrics), or placed in a group of
// results.csv's columns.
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
	scopes := map[Scope]string{Run: "", Bottleneck: "bottlenecks.", Source: "sources.", Tier: "tiers.", Phase: "phases."}
	for _, g := range Groups {
		reportedApart[scopes[g.Scope]+g.Name+"."] = "results.csv: " + g.Doc
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
