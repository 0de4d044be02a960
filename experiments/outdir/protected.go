package outdir

import (
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"golang.org/x/sys/unix"
)

// writeProtected lists the earlier outputs of the directory that are still
// what qcnlab wrote but that the user has made write-protected since
// (chmod a-w, as one keeps results; rm asks before removing such a file),
// or whose folder this process can no longer write.
// Every one would be replaced or removed by this batch, so Open refuses
// them all up front. Those of the folders that were output directories of
// their own (reproduce's runs/NN, begun with the directory) count too.
func (d *Dir) writeProtected() []string {
	d.mu.Lock()
	earlier := d.earlierEntriesLocked()
	d.mu.Unlock()
	top, err := d.top().open(".")
	if err != nil {
		return nil
	}
	defer top.close()
	var out []string
	protectedIn(top, "", earlier, &out)
	return out
}

// protectedIn adds to out, by path below the directory (prefix is that of
// f), the write-protected files among f's earlier entries, and those of
// the folders among them that have a journal of their own.
func protectedIn(f folder, prefix string, entries []entry, out *[]string) {
	for _, e := range entries {
		switch e.Kind {
		case "file":
			p, base, err := f.parent(e.Path)
			if err != nil {
				continue // behind a link, or gone: not removed
			}
			st, err := p.lstat(base)
			// A file whose folder this process cannot write (chmod a-w on
			// the folder, or a read-only file system) cannot be removed
			// either: refused up front too, or Begin would remove the
			// files before it and then fail on it.
			locked := err == nil && unix.Faccessat(int(p), ".", unix.W_OK|unix.X_OK, unix.AT_EACCESS) != nil
			p.close()
			if err == nil && sameFile(e)(&st) && (st.Mode&0o200 == 0 && !e.ReadOnly || locked) {
				*out = append(*out, path.Join(prefix, e.Path))
			}
		case "dir":
			sub, err := f.open(e.Path)
			if err != nil {
				continue
			}
			if st, err := sub.stat(); err == nil && sameFolder(e)(&st) {
				if earlier := subJournal(sub); len(earlier) > 0 {
					protectedIn(sub, path.Join(prefix, e.Path), earlier, out)
				}
			}
			sub.close()
		}
	}
}

// subJournal reads the earlier entries of the journal in f, if it has one.
func subJournal(f folder) []entry {
	fd, err := unix.Openat(int(f), JournalName, unix.O_RDONLY|unix.O_NOFOLLOW|unix.O_CLOEXEC|unix.O_NONBLOCK, 0)
	if err != nil {
		return nil
	}
	file := os.NewFile(uintptr(fd), JournalName)
	defer file.Close()
	if info, err := file.Stat(); err != nil || !info.Mode().IsRegular() {
		return nil
	}
	data, err := io.ReadAll(io.LimitReader(file, maxJournal+1))
	if err != nil || len(data) > maxJournal {
		return nil
	}
	earlier, _ := parseJournal(data)
	out := make([]entry, 0, len(earlier))
	for _, e := range earlier {
		out = append(out, e)
	}
	sortEntries(out)
	return out
}

// protectedError refuses a batch over write-protected earlier outputs,
// naming them (the first few, and how many more) and saying how to go on.
func protectedError(dir string, protected []string) error {
	sort.Strings(protected)
	const named = 3
	names := make([]string, 0, named)
	for _, p := range protected[:min(named, len(protected))] {
		names = append(names, filepath.Join(dir, filepath.FromSlash(p)))
	}
	if len(protected) == 1 {
		return &Refusal{Err: fmt.Errorf("%s: an earlier batch's output that was write-protected since, or whose folder was; this batch would replace or remove it: to keep it, move it elsewhere; to let it go, make it and its folder writable (chmod u+w %s); or choose another --out",
			names[0], names[0])}
	}
	list := strings.Join(names, ", ")
	if n := len(protected) - named; n > 0 {
		list += fmt.Sprintf(" and %d more", n)
	}
	return &Refusal{Err: fmt.Errorf("%s: an earlier batch's outputs that were write-protected since, or whose folders were; this batch would replace or remove them: to keep them, move them elsewhere; to let them go, make them and their folders writable (chmod u+w); or choose another --out",
		list)}
}
