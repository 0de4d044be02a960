// Package outdir is an output directory that qcnlab writes into (--out) and
// the rules that keep a user's files safe there:
//
//   - Nothing outside the directory is touched: every path goes through an
//     os.Root, and qcnlab neither writes through nor deletes a symbolic link
//     (it refuses with an error that names it).
//   - Only what qcnlab wrote is deleted: a journal, .qcnlab-outputs, lists
//     the files and folders each run wrote and the temporary files it made.
//     The next run removes an earlier run's file that it does not write
//     again only if it is still a regular file of the size and modification
//     time recorded; anything else stays.
//   - One run at a time: the journal is locked (flock) for as long as the
//     directory is open, so a second run into it refuses at once with a
//     clear message instead of deleting the first one's files; a lock dies
//     with its process, so a killed run never blocks the next.
//   - A file is replaced whole or not at all: written to a temporary file
//     beside it and renamed over it.
package outdir

import (
	"bufio"
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
)

// JournalName is the file in an output directory that lists what qcnlab
// wrote there.
const JournalName = ".qcnlab-outputs"

// maxJournal bounds the journal read at open: beyond it the journal is not
// trusted and nothing of an earlier run is removed.
const maxJournal = 16 << 20

// ErrBusy is the error of Open on a directory another process has open.
var ErrBusy = errors.New("in use by another qcnlab run")

// Dir is an open output directory. Its methods are safe for concurrent use.
type Dir struct {
	path    string
	root    *os.Root
	journal *os.File // locked while the directory is open

	mu      sync.Mutex
	earlier map[string]entry // what earlier runs wrote, by path
	wrote   map[string]entry // what this run wrote
	temps   map[string]bool  // temporaries this run made and has not removed
	closed  bool
}

// entry is one line of the journal.
type entry struct {
	Path  string `json:"path"`
	Kind  string `json:"kind"`            // "file", "dir", "temp" or "tempdir"
	Size  int64  `json:"size,omitempty"`  // a file's size
	MTime int64  `json:"mtime,omitempty"` // a file's modification time, ns
	Done  bool   `json:"done,omitempty"`  // a temporary removed or renamed
}

// Open makes the directory at dir if needed, locks it and reads what earlier
// runs wrote there. Temporary files left by a run that was killed are
// removed now.
func Open(dir string) (*Dir, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, err
	}
	d, err := open(dir, root)
	if err != nil {
		root.Close()
		return nil, err
	}
	return d, nil
}

// Check makes dir if needed and checks that qcnlab can write there: that it
// is a folder, can be locked and is not in use. A command that runs for
// minutes before it writes checks its --out first.
func Check(dir string) error {
	d, err := Open(dir)
	if err != nil {
		return err
	}
	return d.Close()
}

func open(dir string, root *os.Root) (*Dir, error) {
	if info, err := root.Lstat(JournalName); err == nil && !info.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: %w", filepath.Join(dir, JournalName), errNotRegular(info))
	}
	f, err := root.OpenFile(JournalName, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, fmt.Errorf("%s: %w: wait for it to finish, or choose another directory", dir, ErrBusy)
		}
		return nil, fmt.Errorf("%s: cannot lock %s: %w", dir, JournalName, err)
	}
	d := &Dir{path: dir, root: root, journal: f, earlier: map[string]entry{}, wrote: map[string]entry{}, temps: map[string]bool{}}
	// A journal that is not a plain file of ours (a hard link to a user's
	// file) is never rewritten.
	if info, err := f.Stat(); err != nil {
		d.unlock()
		return nil, err
	} else if st, ok := info.Sys().(*syscall.Stat_t); ok && st.Nlink != 1 {
		d.unlock()
		return nil, fmt.Errorf("%s: has other hard links; qcnlab keeps its list of outputs there and will not rewrite it", filepath.Join(dir, JournalName))
	}
	d.readJournal()
	return d, nil
}

// readJournal loads what earlier runs wrote and removes their temporaries.
func (d *Dir) readJournal() {
	data, err := io.ReadAll(io.LimitReader(d.journal, maxJournal+1))
	if err != nil || len(data) > maxJournal {
		return
	}
	temps := map[string]entry{}
	for line := range bytes.SplitSeq(data, []byte("\n")) {
		var e entry
		if len(bytes.TrimSpace(line)) == 0 || json.Unmarshal(line, &e) != nil || !local(e.Path) {
			continue // a torn last line of a killed run, or not ours
		}
		switch e.Kind {
		case "file", "dir":
			d.earlier[e.Path] = e
		case "temp", "tempdir":
			if e.Done {
				delete(temps, e.Path)
			} else {
				temps[e.Path] = e
			}
		}
	}
	for _, t := range temps {
		d.removeTemp(t.Path, t.Kind == "tempdir")
	}
	// The journal now holds only what is still there.
	d.rewriteJournal(d.earlierEntries())
}

// earlierEntries lists the earlier runs' files and folders in path order.
func (d *Dir) earlierEntries() []entry {
	out := make([]entry, 0, len(d.earlier))
	for _, e := range d.earlier {
		out = append(out, e)
	}
	sortEntries(out)
	return out
}

// Path is the directory as it was given.
func (d *Dir) Path() string { return d.path }

// Join names a file of the directory for messages.
func (d *Dir) Join(rel string) string { return filepath.Join(d.path, filepath.FromSlash(rel)) }

// local reports whether rel is a relative, clean path that stays below the
// directory.
func local(rel string) bool {
	return rel != "" && filepath.IsLocal(filepath.FromSlash(rel)) && path.Clean(rel) == rel
}

func errNotRegular(info fs.FileInfo) error {
	what := "not a regular file"
	switch m := info.Mode(); {
	case m&fs.ModeSymlink != 0:
		what = "a symbolic link"
	case m.IsDir():
		what = "a directory"
	case m&fs.ModeNamedPipe != 0:
		what = "a FIFO"
	case m&fs.ModeDevice != 0:
		what = "a device"
	case m&fs.ModeSocket != 0:
		what = "a socket"
	}
	return fmt.Errorf("is %s; qcnlab writes only regular files and real folders it can check there: move it away or choose another directory", what)
}

// mkdirs makes the folders of rel (rel itself included when it names a
// folder), each a real folder: a symbolic link on the way is refused, not
// followed.
func (d *Dir) mkdirs(rel string) error {
	if rel == "." || rel == "" {
		return nil
	}
	parts := strings.Split(rel, "/")
	for i := range parts {
		p := strings.Join(parts[:i+1], "/")
		info, err := d.root.Lstat(p)
		switch {
		case err == nil && info.IsDir():
			continue
		case err == nil:
			return fmt.Errorf("%s: %w", d.Join(p), errNotRegular(info))
		case !errors.Is(err, fs.ErrNotExist):
			return err
		}
		if err := d.root.Mkdir(p, 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
			return err
		}
		d.record(entry{Path: p, Kind: "dir"})
	}
	return nil
}

// MkdirAll makes the folder rel and its parents, each a real folder; a
// symbolic link on the way is refused. Writers call it up front, so that a
// folder they cannot use is reported before minutes of runs, not after.
func (d *Dir) MkdirAll(rel string) error {
	if !local(rel) {
		return fmt.Errorf("%s: not a path inside %s", rel, d.path)
	}
	return d.mkdirs(rel)
}

// checkTarget refuses to replace anything but a regular file at rel.
func (d *Dir) checkTarget(rel string) error {
	if !local(rel) {
		return fmt.Errorf("%s: not a path inside %s", rel, d.path)
	}
	info, err := d.root.Lstat(rel)
	if err == nil && !info.Mode().IsRegular() {
		return fmt.Errorf("%s: %w", d.Join(rel), errNotRegular(info))
	}
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}

// WriteFile writes data to rel through a temporary file and a rename, making
// its folders; it refuses to replace anything but a regular file.
func (d *Dir) WriteFile(rel string, data []byte) error {
	f, err := d.CreateTemp(path.Dir(rel), path.Base(rel))
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		d.Discard(f)
		return fmt.Errorf("%s: %w", d.Join(rel), err)
	}
	return d.Commit(f, rel)
}

// Temp is a temporary file of CreateTemp, to be committed under its final
// name or discarded.
type Temp struct {
	*os.File
	rel string // its path in the directory
}

// CreateTemp makes a temporary file in the folder dir (made if needed),
// named after base, for a file to be committed under a final name later.
func (d *Dir) CreateTemp(dir, base string) (*Temp, error) {
	if dir != "." && !local(dir) {
		return nil, fmt.Errorf("%s: not a path inside %s", dir, d.path)
	}
	if err := d.mkdirs(dir); err != nil {
		return nil, err
	}
	for {
		name := path.Join(dir, "."+base+"."+randomSuffix()+".tmp")
		d.journalTemp(entry{Path: name, Kind: "temp"})
		f, err := d.root.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o644)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			d.tempDone(name)
			return nil, err
		}
		return &Temp{File: f, rel: name}, nil
	}
}

// Commit closes f, a file of CreateTemp, and renames it to rel.
func (d *Dir) Commit(f *Temp, rel string) error {
	tmp := f.rel
	err := f.Sync()
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		err = fmt.Errorf("%s: %w", d.Join(rel), unwrapPath(err))
	}
	if err == nil {
		err = d.checkTarget(rel) // names what it refuses
	}
	if err == nil {
		err = d.mkdirs(path.Dir(rel))
	}
	if err == nil {
		if err = d.root.Rename(tmp, rel); err != nil {
			err = fmt.Errorf("%s: %w", d.Join(rel), unwrapPath(err))
		}
	}
	if err != nil {
		d.root.Remove(tmp)
		d.tempDone(tmp)
		return err
	}
	d.tempDone(tmp)
	info, err := d.root.Lstat(rel)
	if err != nil {
		return err
	}
	d.record(entry{Path: rel, Kind: "file", Size: info.Size(), MTime: info.ModTime().UnixNano()})
	return nil
}

// Discard closes and removes f, a file of CreateTemp.
func (d *Dir) Discard(f *Temp) {
	tmp := f.rel
	f.Close()
	d.root.Remove(tmp)
	d.tempDone(tmp)
}

// MkdirTemp makes a temporary folder named after base for files of this run
// only (CreateIn); Close removes it and what this run put in it.
func (d *Dir) MkdirTemp(base string) (string, error) {
	for {
		name := "." + base + "-" + randomSuffix()
		d.journalTemp(entry{Path: name, Kind: "tempdir"})
		err := d.root.Mkdir(name, 0o755)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			d.tempDone(name)
			return "", err
		}
		return name, nil
	}
}

// CreateIn creates the file name in the temporary folder dir of MkdirTemp.
func (d *Dir) CreateIn(dir, name string) (*os.File, error) {
	d.mu.Lock()
	ok := d.temps[dir]
	d.mu.Unlock()
	if !ok || !local(name) || strings.Contains(name, "/") {
		return nil, fmt.Errorf("%s/%s: not a file of this run's temporary folder", dir, name)
	}
	return d.root.OpenFile(dir+"/"+name, os.O_RDWR|os.O_CREATE|os.O_TRUNC, 0o644)
}

// Open opens rel for reading, inside the directory.
func (d *Dir) Open(rel string) (*os.File, error) {
	if !local(rel) {
		return nil, fmt.Errorf("%s: not a path inside %s", rel, d.path)
	}
	return d.root.Open(rel)
}

// ReadDir lists the folder rel, inside the directory.
func (d *Dir) ReadDir(rel string) ([]fs.DirEntry, error) {
	return fs.ReadDir(d.root.FS(), rel)
}

// Sub opens the folder rel of the directory as an output directory of its
// own (made if needed, its own lock and journal), refusing a symbolic link
// anywhere on the way.
func (d *Dir) Sub(rel string) (*Dir, error) {
	if !local(rel) {
		return nil, fmt.Errorf("%s: not a path inside %s", rel, d.path)
	}
	if err := d.mkdirs(rel); err != nil {
		return nil, err
	}
	root, err := d.root.OpenRoot(rel)
	if err != nil {
		return nil, err
	}
	sub, err := open(d.Join(rel), root)
	if err != nil {
		root.Close()
		return nil, err
	}
	return sub, nil
}

// Finish removes what earlier runs wrote and this one did not write again
// (if it is still what they wrote), then closes the directory.
func (d *Dir) Finish() error {
	d.mu.Lock()
	var stale []entry
	for p, e := range d.earlier {
		if _, again := d.wrote[p]; !again {
			stale = append(stale, e)
		}
	}
	d.mu.Unlock()
	sortEntries(stale)
	// Files first, then folders deepest first: a folder goes only if empty.
	for _, e := range stale {
		if e.Kind == "file" && d.unchanged(e) {
			if err := d.root.Remove(e.Path); err == nil || errors.Is(err, fs.ErrNotExist) {
				d.forget(e.Path)
			}
		} else if e.Kind == "file" {
			d.forget(e.Path) // changed since: the user's now
		}
	}
	for i := len(stale) - 1; i >= 0; i-- {
		if e := stale[i]; e.Kind == "dir" {
			if info, err := d.root.Lstat(e.Path); err != nil || !info.IsDir() {
				d.forget(e.Path)
			} else if d.root.Remove(e.Path) == nil {
				d.forget(e.Path)
			}
		}
	}
	return d.Close()
}

// unchanged reports whether e is still the regular file an earlier run wrote.
func (d *Dir) unchanged(e entry) bool {
	info, err := d.root.Lstat(e.Path)
	return err == nil && info.Mode().IsRegular() && info.Size() == e.Size && info.ModTime().UnixNano() == e.MTime
}

func (d *Dir) forget(p string) {
	d.mu.Lock()
	delete(d.earlier, p)
	d.mu.Unlock()
}

// Close removes this run's temporaries, writes the journal (what earlier
// runs wrote and is still theirs, and what this run wrote) and unlocks the
// directory.
func (d *Dir) Close() error {
	d.mu.Lock()
	if d.closed {
		d.mu.Unlock()
		return nil
	}
	d.closed = true
	temps := make([]string, 0, len(d.temps))
	for t := range d.temps {
		temps = append(temps, t)
	}
	d.mu.Unlock()
	for _, t := range temps {
		d.removeTemp(t, !strings.HasSuffix(t, ".tmp"))
	}
	d.mu.Lock()
	for p, e := range d.wrote {
		d.earlier[p] = e
	}
	d.mu.Unlock()
	all := d.earlierEntries()
	err := d.rewriteJournal(all)
	d.unlock()
	return err
}

func (d *Dir) unlock() {
	syscall.Flock(int(d.journal.Fd()), syscall.LOCK_UN)
	d.journal.Close()
	d.root.Close()
}

// removeTemp removes a temporary file, or a temporary folder and the
// regular files in it, and nothing else.
func (d *Dir) removeTemp(name string, folder bool) {
	if folder {
		if entries, err := fs.ReadDir(d.root.FS(), name); err == nil {
			for _, e := range entries {
				if e.Type().IsRegular() {
					d.root.Remove(name + "/" + e.Name())
				}
			}
		}
		if info, err := d.root.Lstat(name); err == nil && info.IsDir() {
			d.root.Remove(name)
		}
	} else if info, err := d.root.Lstat(name); err == nil && info.Mode().IsRegular() {
		d.root.Remove(name)
	}
	d.tempDone(name)
}

// record notes a file or folder this run wrote, in the journal at once, so
// that a run killed later still leaves a list of its files.
func (d *Dir) record(e entry) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if old, seen := d.wrote[e.Path]; seen && old.Kind == "dir" && e.Kind == "dir" {
		return
	}
	d.wrote[e.Path] = e
	d.appendJournal(e)
}

func (d *Dir) journalTemp(e entry) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.temps[e.Path] = true
	d.appendJournal(e)
}

func (d *Dir) tempDone(name string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if !d.temps[name] {
		return
	}
	delete(d.temps, name)
	kind := "temp"
	if !strings.HasSuffix(name, ".tmp") {
		kind = "tempdir"
	}
	d.appendJournal(entry{Path: name, Kind: kind, Done: true})
}

// appendJournal adds a line to the journal; d.mu is held. A journal that
// cannot be written only costs the next run its clean-up.
func (d *Dir) appendJournal(e entry) {
	line, _ := json.Marshal(e)
	if _, err := d.journal.Seek(0, io.SeekEnd); err == nil {
		d.journal.Write(append(line, '\n'))
	}
}

// rewriteJournal replaces the journal's contents with entries.
func (d *Dir) rewriteJournal(entries []entry) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	var b bytes.Buffer
	w := bufio.NewWriter(&b)
	for _, e := range entries {
		line, _ := json.Marshal(e)
		w.Write(append(line, '\n'))
	}
	w.Flush()
	if err := d.journal.Truncate(0); err != nil {
		return err
	}
	if _, err := d.journal.WriteAt(b.Bytes(), 0); err != nil {
		return err
	}
	return nil
}

func sortEntries(es []entry) {
	// Parents sort before their children.
	slices.SortFunc(es, func(a, b entry) int { return strings.Compare(a.Path, b.Path) })
}

func randomSuffix() string {
	var b [6]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// unwrapPath drops the temporary file's name from an error about it.
func unwrapPath(err error) error {
	var pe *fs.PathError
	var le *os.LinkError
	switch {
	case errors.As(err, &pe):
		return pe.Err
	case errors.As(err, &le):
		return le.Err
	}
	return err
}
