// Package keys is the registry of an experiment file's keys, as algos.Param
// is the registry of a scheme's parameters: one entry per key, with its
// kind, unit, how its default is derived, its doc line, where it applies
// (topologies, models), the spacing of its values, what it costs and the
// rule its values keep (check.go). The loader's suggestions, --set's and a
// sweep's units, the errors for keys that do not apply, validation, the
// workbench's parameter pane, qcnlab help keys and the README's key table
// are all read from it.
//
// Package experiments reads each key's value and default from its schema,
// and a test there keeps the registry and the schema equal, key for key.
package keys

import (
	"fmt"
	"slices"
	"strings"

	"qcnlab/algos"
	"qcnlab/model"
)

// Kind is what a key holds.
type Kind int

const (
	Text     Kind = iota // free text
	Choice               // one of a few words (Key.Choices)
	Switch               // true or false
	Count                // a whole number
	Number               // a real number
	Rate                 // "10Gbps"
	Bytes                // "150KB"
	Duration             // "100us", or "never"
	Delay                // a duration, or a distribution of them drawn per element
	List                 // an array
	Table                // a table: its keys are its own entries
	Tables               // an array of tables ([[flows]]): its keys are its own entries, named with the element ("flows[2].to")
)

func (k Kind) String() string {
	return [...]string{"text", "choice", "switch", "count", "number", "rate", "size", "duration", "delay", "list", "table", "array of tables"}[k]
}

// Numeric is the unit family of a key that holds one number, as a sweep, a
// stability search and results.csv's columns read it; false for the others.
func (k Kind) Numeric() (algos.Kind, bool) {
	switch k {
	case Count:
		return algos.Count, true
	case Number:
		return algos.Number, true
	case Rate:
		return algos.Rate, true
	case Bytes:
		return algos.Bytes, true
	case Duration, Delay: // a delay varied is a fixed one
		return algos.Duration, true
	}
	return 0, false
}

// Key is one key of an experiment file.
type Key struct {
	Path string // dotted, as --set takes it; an array of tables' keys under its name: "network.link.capacity"
	Kind Kind
	// Unit is what a value is written in, for a list what each element is.
	Unit    string
	Choices []string // a Choice's words
	// Derived says how the default follows other keys when it is not a
	// fixed value ("network.rtt / 2"); the fixed defaults are the schema's.
	Derived string
	Doc     string // one line
	// FabricDoc is the doc line on a fabric, where the key means something
	// else than on a chain; empty when it means the same.
	FabricDoc string
	// Topologies and Models are where the key applies, nil for all: set
	// elsewhere it is an error, never silently ignored. A topology is
	// named, or its family is (OnChains, OnFabrics: every topology of
	// the family, however many are registered).
	Topologies []string
	Models     []string
	// Step is the spacing of a whole-number key's values when only every
	// step-th number is one (a fat-tree's k is even); 0 for 1.
	Step int
	Cost string // what a larger value costs, where it is the run's size
	// Rule is the key's check of a file's values (check.go), nil when its
	// kind says all: run on every file whose topology it applies to.
	Rule Rule
}

// Lookup returns the key at path; an element's index ("flows[2].to") is
// ignored.
func Lookup(path string) (*Key, bool) {
	path = Plain(path)
	i := slices.IndexFunc(All, func(k Key) bool { return k.Path == path })
	if i < 0 {
		return nil, false
	}
	return &All[i], true
}

// Plain is path without the index of an element of an array of tables.
func Plain(path string) string {
	if !strings.Contains(path, "[") {
		return path
	}
	var b strings.Builder
	skip := false
	for _, r := range path {
		switch {
		case r == '[':
			skip = true
		case r == ']':
			skip = false
		case !skip:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// Choices are the words of the Choice key at path; it panics on another
// path, a mistake in the program.
func Choices(path string) []string {
	k, ok := Lookup(path)
	if !ok || k.Kind != Choice {
		panic("keys: " + path + " is not a choice")
	}
	return k.Choices
}

// Repeated lists the arrays of tables.
func Repeated() []string {
	var out []string
	for _, k := range All {
		if k.Kind == Tables {
			out = append(out, k.Path)
		}
	}
	return out
}

// InRepeated reports whether path is a key inside an array of tables,
// which one path does not name (the element does).
func InRepeated(path string) bool {
	return slices.ContainsFunc(Repeated(), func(t string) bool { return strings.HasPrefix(path, t+".") })
}

// Paths lists every key's path, in the registry's order.
func Paths() []string {
	out := make([]string, len(All))
	for i, k := range All {
		out[i] = k.Path
	}
	return out
}

// StepOf is the spacing of the values of the key at path: 1 unless only
// multiples of a step are values.
func StepOf(path string) int {
	if k, ok := Lookup(path); ok && k.Step > 1 {
		return k.Step
	}
	return 1
}

// AppliesTo reports whether the key applies to a topology.
func (k *Key) AppliesTo(topology string) bool {
	return k.Topologies == nil || slices.Contains(Named(k.Topologies), topology)
}

// DocFor is the key's doc line on a topology.
func (k *Key) DocFor(topology string) string {
	if k.FabricDoc != "" && IsFabric(topology) {
		return k.FabricDoc
	}
	return k.Doc
}

// Where says where the key applies: "all", or its topologies (a family
// by its word: "fabrics") and models.
func (k *Key) Where() string {
	var parts []string
	if k.Topologies != nil {
		parts = append(parts, strings.Join(k.Topologies, ", "))
	}
	if k.Models != nil {
		parts = append(parts, "model "+strings.Join(k.Models, ", "))
	}
	if len(parts) == 0 {
		return "all"
	}
	return strings.Join(parts, "; ")
}

// Check is an error for an entry that cannot be right: a choice without
// words, a step on a key that is not a count, an unknown topology.
func (k *Key) Check() error {
	switch {
	case k.Path == "" || k.Doc == "":
		return fmt.Errorf("%q: a key needs a path and a doc line", k.Path)
	case (k.Kind == Choice) != (len(k.Choices) > 0):
		return fmt.Errorf("%s: a choice and only a choice has words", k.Path)
	case k.Step > 1 && k.Kind != Count:
		return fmt.Errorf("%s: only a count has a step", k.Path)
	}
	for _, m := range k.Models {
		if !slices.Contains(model.Models, m) {
			return fmt.Errorf("%s: unknown model %q", k.Path, m)
		}
	}
	for _, t := range k.Topologies {
		if t != OnChains && t != OnFabrics && !IsTopology(t) {
			return fmt.Errorf("%s: unknown topology %q", k.Path, t)
		}
	}
	return nil
}
