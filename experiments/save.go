package experiments

import (
	"bytes"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/BurntSushi/toml"

	"qcnlab/algos"
	"qcnlab/experiments/keys"
	"qcnlab/experiments/userfile"
	"qcnlab/units"
)

// Encode writes the complete experiment: every default explicit, and every
// parameter of every listed algorithm in [params.NAME] with its meaning as a
// comment. Reading it back gives the same runs.
func (e *Experiment) Encode(w io.Writer) error {
	r := e.resolvedForSave()
	var b bytes.Buffer
	b.WriteString("# qcnlab experiment\n")
	enc := toml.NewEncoder(&b)
	enc.Indent = ""
	if err := enc.Encode(r); err != nil {
		return err
	}
	text := dropWhatDoesNotApply(b.String(), r.Network.Topology)
	b.Reset()
	b.WriteString(text)
	if len(r.Sweep) > 0 {
		b.WriteString("\n[sweep]  # every combination of these values runs with every algorithm (params.NAME.KEY: with NAME only)\n")
		for _, a := range r.Sweep {
			fmt.Fprintf(&b, "%s = [%s]\n", quote(a.Key), strings.Join(a.Values, ", "))
		}
	}
	names := append([]string(nil), r.Algorithms...)
	for _, name := range sortedKeys(r.Params) {
		if !contains(names, name) {
			names = append(names, name)
		}
	}
	for _, name := range names {
		sc, err := algos.Lookup(name)
		if err != nil {
			return err
		}
		v := r.Params[name]
		if v == nil { // not resolvable (invalid): keep what was given
			v = e.Params[name]
		}
		fmt.Fprintf(&b, "\n[params.%s]  # %s: %s (source %s)\n", bareKey(name), sc.Display, sc.Summary, sc.Ref)
		for _, p := range sc.Params {
			x, ok := v[p.Key]
			if !ok {
				continue
			}
			fmt.Fprintf(&b, "%s = %s  # %s\n", p.Key, paramTOML(p, x), p.Doc)
		}
	}
	_, err := w.Write(b.Bytes())
	return err
}

// resolvedForSave is Resolved, except for defaults that depend on something
// the sweep varies (the delays on network.rtt, DSM's m on the delays, QCN-T's
// timer on sources.count, ...): written once they would pin every point of
// the sweep to the base point's value, so they stay for each point to derive.
func (e *Experiment) resolvedForSave() *Experiment {
	r := e.Resolved()
	if len(e.Sweep) == 0 {
		return r
	}
	runs, err := e.Runs()
	if err != nil {
		return r // an invalid sweep is saved as it stands
	}
	var last *Experiment
	for _, run := range runs {
		if run.Exp == last {
			continue // the algorithms of one point share its experiment
		}
		last = run.Exp
		p := run.Exp.Resolved()
		keepIfSame(&r.Warmup, e.Warmup, p.Warmup)
		keepIfSame(&r.Network.Links, e.Network.Links, p.Network.Links)
		keepIfSame(&r.Network.HopDelay, e.Network.HopDelay, p.Network.HopDelay)
		keepIfSame(&r.Sources.LineRate, e.Sources.LineRate, p.Sources.LineRate)
		keepIfSame(&r.Sources.InitialRate, e.Sources.InitialRate, p.Sources.InitialRate)
		keepIfSame(&r.Sources.ForwardDelay, e.Sources.ForwardDelay, p.Sources.ForwardDelay)
		keepIfSame(&r.Sources.BackwardDelay, e.Sources.BackwardDelay, p.Sources.BackwardDelay)
		if e.Sources.Path == nil && !slices.Equal(r.Sources.Path, p.Sources.Path) {
			r.Sources.Path = nil
		}
		for name, v := range r.Params {
			for key, x := range v {
				if _, given := e.Params[name][key]; !given && p.Params[name] != nil && p.Params[name][key] != x {
					delete(v, key)
				}
			}
		}
	}
	return r
}

// keepIfSame leaves a resolved default in place only if it was given, or
// if the sweep point derives the same value.
func keepIfSame[T comparable](resolved **T, given, point *T) {
	if given == nil && *resolved != nil && (point == nil || **resolved != *point) {
		*resolved = nil
	}
}

// dropWhatDoesNotApply removes from a saved experiment the keys and tables
// its topology does not read (the registry's Topologies: a fabric's
// [sources] and network.rtt), which the encoder writes for every
// experiment, and which loading it back would refuse.
func dropWhatDoesNotApply(text, topology string) string {
	applies := func(path string) bool {
		k, ok := keys.Lookup(path)
		return !ok || k.AppliesTo(topology)
	}
	var out []string
	skip, table := false, ""
	for _, line := range strings.SplitAfter(text, "\n") {
		t := strings.TrimSpace(line)
		switch key, _, isKey := strings.Cut(t, " ="); {
		case strings.HasPrefix(t, "["):
			table = strings.Trim(t, "[] ")
			skip = !applies(table)
		case isKey && table == "" && !applies(key), isKey && table != "" && !applies(table+"."+key):
			continue
		}
		if !skip {
			out = append(out, line)
		}
	}
	return strings.Join(out, "")
}

// paramTOML writes a parameter value as a TOML value of its kind.
func paramTOML(p algos.Param, x float64) string {
	kind := p.Kind
	switch kind {
	case algos.Choice:
		return quote(p.ChoiceName(x))
	case algos.Bytes, algos.Rate, algos.Duration:
		return quote(units.Format(kind, x))
	case algos.Number:
		s := units.Format(kind, x)
		if !strings.ContainsAny(s, ".eEn") { // keep it a TOML float
			s += ".0"
		}
		return s
	}
	return units.Format(kind, x)
}

func bareKey(k string) string {
	for _, r := range k {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-') {
			return quote(k)
		}
	}
	return k
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// Save writes the experiment to path through a temporary file in the same
// directory and a rename, so an existing file is replaced whole or not at
// all.
func (e *Experiment) Save(path string) error {
	var b bytes.Buffer
	if err := e.Encode(&b); err != nil {
		return err
	}
	return userfile.WriteAtomic(path, b.Bytes())
}
