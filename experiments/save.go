package experiments

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/BurntSushi/toml"

	"qcnlab/algos"
	"qcnlab/experiments/keys"
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
	return WriteFileAtomic(path, b.Bytes())
}

// CheckSaveTarget reports whether path can be saved to, before anything is
// written or asked: only a regular file, or a new file in a folder that
// exists. A directory, a FIFO, a device or a socket is never replaced by a
// file (as root, saving onto /dev/null must not replace it). A symbolic
// link that leads nowhere is refused too: replacing it would lose the
// link, and writing through it would create a file where the link points,
// which the one saving may not have looked at.
func CheckSaveTarget(path string) error {
	info, err := os.Stat(path)
	if err == nil && !info.Mode().IsRegular() {
		return &fs.PathError{Op: "save", Path: path, Err: errors.New("is " + fileKind(info.Mode()) + ", not a regular file")}
	}
	if li, lerr := os.Lstat(path); err != nil && lerr == nil && li.Mode()&fs.ModeSymlink != 0 {
		dest, _ := os.Readlink(path)
		why := "which does not exist"
		if !errors.Is(err, fs.ErrNotExist) {
			why = "which cannot be followed"
		}
		return &fs.PathError{Op: "save", Path: path, Err: fmt.Errorf("is a link to %s, %s: save to that path itself, or remove the link", dest, why)}
	}
	dir := filepath.Dir(path)
	if info, err := os.Stat(dir); err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return &fs.PathError{Op: "save", Path: path, Err: fmt.Errorf("folder %s: %w", dir, err)}
	} else if !info.IsDir() {
		return &fs.PathError{Op: "save", Path: path, Err: fmt.Errorf("%s is not a folder", dir)}
	}
	return nil
}

// fileKind names what a file that is not a regular file is.
func fileKind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO"
	case m&fs.ModeCharDevice != 0, m&fs.ModeDevice != 0:
		return "a device"
	case m&fs.ModeSocket != 0:
		return "a socket"
	}
	return "not a regular file"
}

// WriteFileAtomic writes data to path through a temporary file and a rename.
// A path that is a symbolic link to a file is written where the link points,
// as editors do, so the link stays. Its errors name path, not the temporary
// file.
func WriteFileAtomic(path string, data []byte) (err error) {
	if err := CheckSaveTarget(path); err != nil {
		return err
	}
	if target, err := filepath.EvalSymlinks(path); err == nil {
		path = target
	}
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	defer func() {
		var pe *fs.PathError
		var le *os.LinkError
		switch {
		case errors.As(err, &pe):
			err = &fs.PathError{Op: "save", Path: path, Err: pe.Err}
		case errors.As(err, &le):
			err = &fs.PathError{Op: "save", Path: path, Err: le.Err}
		}
	}()
	tmp, err := os.CreateTemp(dir, "."+base+".*.tmp")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if _, err = tmp.Write(data); err != nil {
		return err
	}
	if err = tmp.Sync(); err != nil {
		return err
	}
	if err = tmp.Close(); err != nil {
		return err
	}
	if info, statErr := os.Stat(path); statErr == nil {
		os.Chmod(tmp.Name(), info.Mode().Perm()) // keep the mode of the file it replaces
	} else {
		os.Chmod(tmp.Name(), 0o644)
	}
	return os.Rename(tmp.Name(), path)
}
