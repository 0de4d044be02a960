package experiments

import (
	"bytes"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/BurntSushi/toml"

	"qcnlab/algos"
	"qcnlab/experiments/keys"
	"qcnlab/experiments/tomlstruct"
	"qcnlab/experiments/tomltext"
	"qcnlab/experiments/topology"
	"qcnlab/experiments/userfile"
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
	if err := enc.Encode(encoded(r)); err != nil {
		return err
	}
	text := keys.DropWhatDoesNotApply(b.String(), r.Network.Topology)
	b.Reset()
	b.WriteString(text)
	if len(r.Sweep) > 0 {
		b.WriteString("\n[sweep]  # every combination of these values runs with every algorithm (params.NAME.KEY: with NAME only)\n")
		for _, a := range r.Sweep {
			fmt.Fprintf(&b, "%s = [%s]\n", quote(a.Key), strings.Join(a.Values, ", "))
		}
	}
	names := append([]string(nil), r.Algorithms...)
	for _, name := range slices.Sorted(maps.Keys(r.Params)) {
		if !slices.Contains(names, name) {
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
		fmt.Fprintf(&b, "\n[params.%s]  # %s: %s (source %s)\n", tomltext.BareKey(name), sc.Display, sc.Summary, sc.Ref)
		for _, p := range sc.Params {
			x, ok := v[p.Key]
			if !ok {
				continue
			}
			fmt.Fprintf(&b, "%s = %s  # %s\n", p.Key, tomltext.ParamValue(p, x), p.Doc)
		}
	}
	if b.Len() > MaxFileBytes { // it could not be loaded back
		key, msg := tomltext.Oversize(b.String(), MaxFileBytes)
		return &Error{Where: e.where(key), Key: key, Msg: msg}
	}
	_, err := w.Write(b.Bytes())
	return err
}

// encoded is r as the TOML encoder writes it: its network with its
// topology's own keys among the others (Network.Encoded).
func encoded(r *Experiment) any { return tomlstruct.WithField(r, "Network", r.Network.Encoded()) }

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
		topology.KeepDerivedIfSame(&r.Network, e.Network, p.Network)
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
