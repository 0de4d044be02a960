package traffic

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"qcnlab/algos"
	"qcnlab/model"
	"qcnlab/model/topo"
	"qcnlab/units"
)

// A fabric's flows: a pattern of them between its hosts ([traffic]
// pattern), then the explicit [[flows]], then the short flows of
// [traffic]. model/fabric.go simulates them.

// KeyError is a problem with the flows blamed on a key.
type KeyError struct {
	Key string
	Err error
}

func (e *KeyError) Error() string { return e.Key + ": " + e.Err.Error() }

// PatternOf is traffic.pattern with its default: a permutation, or none
// when [[flows]] lists the flows (explicit of them).
func (t Traffic) PatternOf(explicit int) string {
	if t.Pattern != "" {
		return t.Pattern
	}
	if explicit > 0 {
		return "none"
	}
	return "permutation"
}

// IncastStartTime is when the incast's flows start.
func (t Traffic) IncastStartTime() algos.Time {
	if t.IncastStart == nil {
		return 0
	}
	return algos.Time(*t.IncastStart)
}

// Count is the number of flows the traffic keys make on hosts hosts with
// explicit [[flows]], from the keys alone, so that an absurd pattern is
// refused before it is listed.
func (t Traffic) Count(hosts, explicit int) float64 {
	h := float64(hosts)
	n := float64(explicit)
	switch t.PatternOf(explicit) {
	case "permutation":
		n += h
	case "all_to_all":
		n += h * (h - 1)
	case "incast":
		if len(t.IncastFrom) > 0 {
			n += float64(len(t.IncastFrom))
		} else if t.IncastSenders != nil {
			n += float64(*t.IncastSenders)
		}
	}
	return n
}

// FlowSize reads a flow size: "greedy" (0) or a whole number of bytes.
func FlowSize(s string) (int64, error) {
	t := strings.TrimSpace(s)
	if t == "" || t == "greedy" {
		return 0, nil
	}
	b, err := units.ParseBytes(t)
	if err != nil {
		return 0, fmt.Errorf("%q is not \"greedy\" or a size such as \"64KB\"", s)
	}
	if b < 1 || b != float64(int64(b)) || b > model.MaxFlowBytes {
		return 0, fmt.Errorf("%q: a flow's size is a whole number of bytes from 1B to %s", s, units.FormatBytes(model.MaxFlowBytes))
	}
	return int64(b), nil
}

// Flows lists a fabric's flows on topology t: the pattern's, then those of
// entries. An error names the key to blame (*KeyError).
func Flows(t *topo.Topology, tr Traffic, entries []FlowEntry, seed uint64) ([]model.Flow, error) {
	size, err := FlowSize(tr.FlowSize)
	if err != nil {
		return nil, &KeyError{"traffic.flow_size", err}
	}
	var flows []model.Flow
	hosts := len(t.Hosts)
	switch tr.PatternOf(len(entries)) {
	case "permutation":
		flows = model.Permutation(hosts, seed)
	case "all_to_all":
		flows = model.AllToAll(hosts)
	case "incast":
		to := 0
		if tr.IncastTo != nil {
			to = *tr.IncastTo
		}
		var jitter algos.Time
		if tr.IncastJitter != nil {
			jitter = algos.Time(*tr.IncastJitter)
		}
		if len(tr.IncastFrom) > 0 {
			flows, err = model.IncastFrom(to, tr.IncastFrom, size, tr.IncastStartTime(), jitter, seed)
		} else {
			senders := 0
			if tr.IncastSenders != nil {
				senders = *tr.IncastSenders
			}
			flows, err = model.Incast(t, to, senders, size, tr.IncastStartTime(), jitter, seed)
		}
		if err != nil {
			// The receiver is checked in range before: what is left is
			// the senders, listed or too many for the hosts away from it.
			key := "traffic.incast_senders"
			if len(tr.IncastFrom) > 0 {
				key = "traffic.incast_from"
			}
			return nil, &KeyError{key, err}
		}
		size = 0 // the incast's flows carry it
	}
	for i := range flows {
		if !flows[i].Incast {
			flows[i].Size = size
		}
	}
	for i, fe := range entries {
		s, err := FlowSize(fe.Size)
		if err != nil {
			return nil, &KeyError{fmt.Sprintf("flows[%d].size", i), err}
		}
		if fe.From == nil || fe.To == nil {
			return nil, &KeyError{fmt.Sprintf("flows[%d]", i), errors.New("a flow names its hosts, from and to")}
		}
		fl := model.Flow{From: *fe.From, To: *fe.To, Start: algos.Time(fe.Start), Size: s}
		if fe.Stop != nil {
			fl.Stop = algos.Time(*fe.Stop)
		}
		flows = append(flows, fl)
	}
	return flows, nil
}

// SetClasses gives the flows of fabric f their classes: the pattern's and
// the short flows traffic.class, those of entries (the last of f.Flows)
// their own or traffic.class.
func SetClasses(f *model.Fabric, tr Traffic, entries []FlowEntry) {
	explicit := len(f.Flows) - len(entries)
	for i := range f.Flows {
		f.Flows[i].Class = tr.ClassOf()
		if k := i - explicit; k >= 0 && entries[k].Class != nil {
			f.Flows[i].Class = *entries[k].Class
		}
	}
	if f.Short != nil {
		f.Short.Class = tr.ClassOf()
	}
}

// Watched is the order in which a fabric's time series follows its flows:
// those watch (output.watch) names, then the explicit [[flows]] (from
// index explicit on: the victims of an incast, say), then the others; nil
// for the flows in order.
func Watched(watch []any, t *topo.Topology, flows []model.Flow, explicit int) ([]int, error) {
	var out []int
	seen := map[int]bool{}
	add := func(i int) {
		if !seen[i] {
			seen[i] = true
			out = append(out, i)
		}
	}
	for _, w := range watch {
		i, err := watchIndex(w, flows, func(name string) (int, bool) {
			if n, err := strconv.Atoi(name); err == nil {
				return n, n >= 0 && n < len(t.Hosts)
			}
			for h := range t.Hosts {
				if t.HostName(h) == name {
					return h, true
				}
			}
			return 0, false
		})
		if err != nil {
			return nil, err
		}
		add(i)
	}
	for i := max(explicit, 0); i < len(flows); i++ {
		add(i)
	}
	if len(out) == len(flows) && slices.IsSorted(out) {
		return nil, nil // the flows in order: the default
	}
	return out, nil
}

// watchIndex resolves one output.watch entry: a flow's index, or
// "FROM->TO" with hosts host resolves.
func watchIndex(w any, flows []model.Flow, host func(string) (int, bool)) (int, error) {
	switch v := w.(type) {
	case int64:
		if v < 0 || v >= int64(len(flows)) {
			return 0, fmt.Errorf("flow %d is out of range: the fabric has flows 0 to %d", v, len(flows)-1)
		}
		return int(v), nil
	case string:
		a, b, ok := strings.Cut(v, "->")
		from, okFrom := host(strings.TrimSpace(a))
		to, okTo := host(strings.TrimSpace(b))
		if !ok || !okFrom || !okTo {
			return 0, fmt.Errorf("%q is not a flow's index or its hosts as \"20->1\" or \"h20->h1\"", v)
		}
		for i, fl := range flows {
			if fl.From == from && fl.To == to {
				return i, nil
			}
		}
		return 0, fmt.Errorf("no flow from %s to %s", a, b)
	}
	return 0, fmt.Errorf("%v is not a flow's index or its hosts as \"20->1\"", w)
}
