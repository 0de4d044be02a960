// Package outdir is an output directory that qcnlab writes into (--out) and
// the rules that keep a user's files safe there:
//
//   - Nothing outside the directory is touched: every path goes through an
//     os.Root, and qcnlab neither writes through nor deletes a symbolic link
//     (it refuses with an error that names it). Nothing is removed, renamed
//     or created through a link even inside the directory, which os.Root
//     would follow: each folder on the way is opened with O_NOFOLLOW
//     (nofollow.go), and an earlier run's file behind a link is left.
//   - An earlier run's output the user write-protected since is neither
//     removed nor replaced: Open refuses, naming it, before any run.
//   - Only what qcnlab wrote is deleted: a journal, .qcnlab-outputs, lists
//     the files and folders each run wrote and the temporary files it made,
//     each with its inode. An earlier run's file goes only if it is still a
//     regular file of the inode, size and modification time recorded, a
//     folder only if it is the one recorded and empty, and a killed run's
//     temporary only if it bears a temporary name of qcnlab's and is the
//     file (or folder) recorded; never the directory itself or the journal,
//     and nothing but a name qcnlab writes (OutputName): an entry naming
//     any other file, even a hard link to it, deletes nothing. Anything
//     else stays, whatever the journal says.
//   - A batch's outputs are never mixed with an earlier batch's:
//     CheckNames checks every name the batch will write before its runs,
//     and Begin (at the first commit, or sooner) removes the earlier
//     batch's files before the first new one is renamed into place, so that
//     wherever a batch stops (an error, Ctrl-C, a kill, a full disk) the
//     directory holds files of one batch.
//   - One run at a time: the directory and its journal are locked (flock)
//     for as long as the directory is open, so a second run into it refuses at once with a
//     clear message instead of deleting the first one's files; a lock dies
//     with its process, so a killed run never blocks the next.
//   - A file is replaced whole or not at all: written to a temporary file
//     beside it and renamed over it; and only a file qcnlab can prove it
//     wrote (CheckNames refuses any other at an output name).
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

	"golang.org/x/sys/unix"

	"qcnlab/experiments/userfile"
)

// JournalName is the file in an output directory that lists what qcnlab
// wrote there.
const JournalName = ".qcnlab-outputs"

// maxJournal bounds the journal read at open: beyond it the journal is not
// trusted and nothing of an earlier run is removed.
const maxJournal = 16 << 20

// MaxName is the longest file name (one element of a path, in bytes) a
// file of the directory may have: the 255 bytes of a name on Linux's file
// systems, less what the temporary file it is written through adds (a dot
// before, a dot, a random suffix and ".tmp" after).
const MaxName = 255 - len("..") - 2*suffixBytes - len(".tmp")

// outputFiles are the patterns (path.Match) of the names qcnlab writes in
// an output directory, and outputFolders those of the folders it makes:
// the only names an earlier run's journal can get removed. A writer of a
// new output adds its name here (a test checks every batch's).
var (
	outputFiles = []string{
		"experiment.toml", "summary.json", "results.csv", "timeseries.csv.gz", "ports.csv.gz", "flows.csv.gz", "fct.csv",
		"shard.json", "report.md", "report.json",
		"plots/*.png", "plots/*.svg", "plots/*.pdf",
	}
	outputFolders = []string{"plots", "runs", "runs/*"}
)

// OutputName reports whether rel, a path in an output directory, is one of
// the names qcnlab writes there: a file (or with folder, a folder) that
// the journal of an earlier run may have it remove.
func OutputName(rel string, folder bool) bool {
	patterns := outputFiles
	if folder {
		patterns = outputFolders
	}
	for _, p := range patterns {
		if ok, _ := path.Match(p, rel); ok {
			return true
		}
	}
	return false
}

// ErrBusy is the error of Open on a directory another process has open.
var ErrBusy = errors.New("in use by another qcnlab run")

// Refusal is an error of a directory, or a name in it, that qcnlab will not
// use: the user's to fix (exit status 2), not a failure of the run.
type Refusal struct{ Err error }

func (r *Refusal) Error() string { return r.Err.Error() }
func (r *Refusal) Unwrap() error { return r.Err }

// refuse wraps err, if any, as a Refusal.
func refuse(err error) error {
	if err == nil || errors.As(err, new(*Refusal)) {
		return err
	}
	return &Refusal{Err: err}
}

// IsRefusal reports whether err is a refusal of an output directory or of a
// name in it.
func IsRefusal(err error) bool { return errors.As(err, new(*Refusal)) }

// TestHookBeforeRename, if set, is called before each rename that commits a
// file, with its path in the directory; an error it returns fails that
// commit as a failed rename would. Tests stop a batch with it at each of its
// commits.
var TestHookBeforeRename func(rel string) error

// Dir is an open output directory. Its methods are safe for concurrent use.
type Dir struct {
	path    string
	root    *os.Root
	journal *os.File // locked while the directory is open
	self    *os.File // the directory itself, locked too: removing the journal frees no lock

	// made is the outermost folder of the path that Open made, "" if the
	// directory was there, and newJournal whether the journal was made
	// too: Abandon removes what Open made.
	made       string
	newJournal bool

	begin    sync.Once // Begin's removal of the earlier batch's files
	beginErr error

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
	Ino   uint64 `json:"ino,omitempty"`   // its inode: which file or folder it was
	Size  int64  `json:"size,omitempty"`  // a file's size
	MTime int64  `json:"mtime,omitempty"` // a file's modification time, ns
	Done  bool   `json:"done,omitempty"`  // a temporary removed or renamed
	// Written without its owner's write bit (a umask of 0222): not
	// write-protected since, by the user (writeProtected).
	ReadOnly bool `json:"readonly,omitempty"`
}

// Open makes the directory at dir if needed, locks it and reads what earlier
// runs wrote there. Temporary files left by a run that was killed are
// removed now. Its errors are Refusals.
func Open(dir string) (*Dir, error) {
	if err := usableDir(dir); err != nil {
		return nil, refuse(err)
	}
	made := firstMissing(dir)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, refuse(mkdirError(dir, err))
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, refuse(fmt.Errorf("%s: %w", dir, unwrapPath(err)))
	}
	d, err := open(dir, root)
	if err != nil {
		root.Close()
		return nil, refuse(err)
	}
	d.made = made
	return d, nil
}

// usableDir refuses dir, naming it, if something other than a directory
// (or a symbolic link to one) is there.
func usableDir(dir string) error {
	info, err := os.Lstat(dir)
	if err != nil {
		return nil // nothing there: Open makes it
	}
	if info.Mode()&fs.ModeSymlink != 0 {
		target, _ := os.Readlink(dir)
		to, err := os.Stat(dir)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			return fmt.Errorf("%s: is a symbolic link to %s, which does not exist; name a directory", dir, target)
		case err != nil: // a loop of links, or a folder on the way that cannot be read
			return fmt.Errorf("%s: is a symbolic link to %s, which cannot be followed (%v); name a directory", dir, target, unwrapPath(err))
		case !to.IsDir():
			return fmt.Errorf("%s: is a symbolic link to %s, which is %s, not a directory", dir, target, userfile.Kind(to.Mode()))
		}
		return nil
	}
	if !info.IsDir() {
		return fmt.Errorf("%s: is %s, not a directory", dir, userfile.Kind(info.Mode()))
	}
	return nil
}

// mkdirError says why the directory dir could not be made: which folder
// on its way is not one, or could not be made.
func mkdirError(dir string, err error) error {
	var pe *fs.PathError
	if !errors.As(err, &pe) {
		return fmt.Errorf("%s: %w", dir, err)
	}
	if info, serr := os.Lstat(pe.Path); serr == nil && !info.IsDir() {
		if pe.Path == filepath.Clean(dir) {
			return fmt.Errorf("%s: is %s, not a directory", dir, userfile.Kind(info.Mode()))
		}
		return fmt.Errorf("%s: cannot make the directory: %s is %s, not a directory", dir, pe.Path, userfile.Kind(info.Mode()))
	}
	if pe.Path == filepath.Clean(dir) {
		return fmt.Errorf("%s: cannot make the directory: %w", dir, pe.Err)
	}
	return fmt.Errorf("%s: cannot make the directory: %s: %w", dir, pe.Path, pe.Err)
}

// firstMissing is the outermost folder of dir that does not exist yet, ""
// if dir does.
func firstMissing(dir string) string {
	missing := ""
	for p := filepath.Clean(dir); ; p = filepath.Dir(p) {
		if _, err := os.Lstat(p); !errors.Is(err, fs.ErrNotExist) {
			return missing
		}
		missing = p
		if filepath.Dir(p) == p {
			return missing
		}
	}
}

func open(dir string, root *os.Root) (*Dir, error) {
	if info, err := root.Lstat(JournalName); err == nil && !info.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: %w", filepath.Join(dir, JournalName), errNotRegular(info.Mode()))
	}
	busy := fmt.Errorf("%s: %w: wait for it to finish, or choose another directory", dir, ErrBusy)
	// The directory is locked as well as its journal, so that a journal
	// removed or renamed away while a run lives lets no second run in. A
	// file system that cannot lock a folder keeps the journal's lock.
	self, err := root.Open(".")
	if err != nil {
		return nil, fmt.Errorf("%s: %w", dir, unwrapPath(err))
	}
	if err := syscall.Flock(int(self.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); errors.Is(err, syscall.EWOULDBLOCK) {
		self.Close()
		return nil, busy
	}
	_, statErr := root.Lstat(JournalName)
	fd, err := unix.Openat(int(self.Fd()), JournalName, unix.O_RDWR|unix.O_CREAT|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0o644)
	if errors.Is(err, unix.ELOOP) {
		self.Close()
		return nil, fmt.Errorf("%s: %w", filepath.Join(dir, JournalName), errNotRegular(fs.ModeSymlink))
	}
	if err != nil {
		self.Close()
		if statErr == nil && errors.Is(err, fs.ErrPermission) {
			// The list is there but read-only (or another user's): the
			// directory itself may be writable.
			return nil, fmt.Errorf("%s: qcnlab's list of what it wrote there cannot be written (%v); make it writable (chmod u+w), or choose another --out",
				filepath.Join(dir, JournalName), unwrapPath(err))
		}
		// A read-only directory, or one of another user's.
		return nil, fmt.Errorf("%s: cannot write in this directory (%v); choose another --out", dir, unwrapPath(err))
	}
	f := os.NewFile(uintptr(fd), filepath.Join(dir, JournalName))
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		self.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, busy
		}
		return nil, fmt.Errorf("%s: cannot lock %s: %w", dir, JournalName, err)
	}
	d := &Dir{path: dir, root: root, journal: f, self: self, earlier: map[string]entry{}, wrote: map[string]entry{}, temps: map[string]bool{},
		newJournal: errors.Is(statErr, fs.ErrNotExist)}
	// A journal that is not a plain file of ours (a hard link to a user's
	// file) is never rewritten.
	if info, err := f.Stat(); err != nil {
		d.unlock()
		return nil, err
	} else if !info.Mode().IsRegular() {
		d.unlock()
		return nil, fmt.Errorf("%s: %w", filepath.Join(dir, JournalName), errNotRegular(info.Mode()))
	} else if st, ok := info.Sys().(*syscall.Stat_t); ok && st.Nlink != 1 {
		d.unlock()
		return nil, fmt.Errorf("%s: has other hard links; qcnlab keeps its list of outputs there and will not rewrite it", filepath.Join(dir, JournalName))
	}
	d.readJournal()
	if protected := d.writeProtected(); len(protected) > 0 {
		d.unlock()
		return nil, protectedError(dir, protected)
	}
	return d, nil
}

// readJournal loads what earlier runs wrote and removes their temporaries.
func (d *Dir) readJournal() {
	data, err := io.ReadAll(io.LimitReader(d.journal, maxJournal+1))
	if err != nil || len(data) > maxJournal {
		return
	}
	var temps map[string]entry
	d.earlier, temps = parseJournal(data)
	for _, t := range temps {
		d.removeKilledTemp(t)
	}
	// The journal now holds only what is still there.
	d.rewriteJournal(d.earlierEntries())
}

// parseJournal reads a journal's entries that may name something qcnlab
// wrote: the files and folders of earlier runs, and the temporaries of a
// killed run (made and never done), by path.
func parseJournal(data []byte) (earlier, temps map[string]entry) {
	earlier, temps = map[string]entry{}, map[string]entry{}
	for line := range bytes.SplitSeq(data, []byte("\n")) {
		var e entry
		if len(bytes.TrimSpace(line)) == 0 || json.Unmarshal(line, &e) != nil || !ours(e) {
			continue // a torn last line of a killed run, or not ours
		}
		switch e.Kind {
		case "file", "dir":
			earlier[e.Path] = e
		case "temp", "tempdir":
			if e.Done {
				delete(temps, e.Path)
			} else {
				temps[e.Path] = e
			}
		}
	}
	return earlier, temps
}

// earlierEntries lists the earlier runs' files and folders in path order.
func (d *Dir) earlierEntries() []entry {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.earlierEntriesLocked()
}

// earlierEntriesLocked is earlierEntries with d.mu held.
func (d *Dir) earlierEntriesLocked() []entry {
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

// ours reports whether a journal entry may name something qcnlab wrote: a
// path below the directory, not the directory itself nor a journal, a file
// or folder by one of the names qcnlab writes, and a temporary by one of
// qcnlab's temporary names, with the inode it was made with. (Whether the file there is still that one is checked when it would
// be removed.)
func ours(e entry) bool {
	if !local(e.Path) || e.Path == "." || path.Base(e.Path) == JournalName {
		return false
	}
	switch e.Kind {
	case "temp":
		return tempName(path.Base(e.Path)) && (e.Done || e.Ino != 0)
	case "tempdir":
		return !strings.Contains(e.Path, "/") && tempDirName(e.Path) && (e.Done || e.Ino != 0)
	case "file", "dir":
		// An entry naming a file of the user's, even with its inode, size
		// and time (a hard link gives them), must not get it removed.
		return OutputName(e.Path, e.Kind == "dir")
	}
	return false
}

// tempName reports whether name is one CreateTemp makes: .BASE.SUFFIX.tmp.
func tempName(name string) bool {
	rest, ok := strings.CutSuffix(name, ".tmp")
	if !ok || !strings.HasPrefix(rest, ".") {
		return false
	}
	i := strings.LastIndexByte(rest, '.')
	return i > 1 && randomName(rest[i+1:])
}

// tempDirName reports whether name is one MkdirTemp makes: .BASE-SUFFIX.
func tempDirName(name string) bool {
	i := strings.LastIndexByte(name, '-')
	return strings.HasPrefix(name, ".") && i > 1 && randomName(name[i+1:])
}

// randomName reports whether s is a suffix of randomSuffix.
func randomName(s string) bool {
	if len(s) != 2*suffixBytes {
		return false
	}
	_, err := hex.DecodeString(s)
	return err == nil && strings.ToLower(s) == s
}

// inode is the inode number of info's file, 0 if unknown.
func inode(info fs.FileInfo) uint64 {
	if st, ok := info.Sys().(*syscall.Stat_t); ok {
		return st.Ino
	}
	return 0
}

func errNotRegular(m fs.FileMode) error {
	return &Refusal{Err: notRegular(m)}
}

func notRegular(m fs.FileMode) error {
	what := "not a regular file"
	switch {
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
// followed (each is opened with O_NOFOLLOW, and made relative to its
// parent so opened).
func (d *Dir) mkdirs(rel string) error {
	if rel == "." || rel == "" {
		return nil
	}
	f, err := d.top().open(".")
	if err != nil {
		return fmt.Errorf("%s: %w", d.path, err)
	}
	parts := strings.Split(rel, "/")
	for i, name := range parts {
		p := strings.Join(parts[:i+1], "/")
		next, err := f.open(name)
		if errors.Is(err, fs.ErrNotExist) {
			if err := unix.Mkdirat(int(f), name, 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
				f.close()
				return fmt.Errorf("%s: %w", d.Join(p), err)
			}
			if next, err = f.open(name); err == nil {
				if st, serr := next.stat(); serr == nil {
					d.record(entry{Path: p, Kind: "dir", Ino: st.Ino})
				}
			}
		}
		if err != nil {
			if st, serr := f.lstat(name); serr == nil && !isDir(&st) {
				err = errNotRegular(fileMode(&st))
			}
			f.close()
			return fmt.Errorf("%s: %w", d.Join(p), err)
		}
		f.close()
		f = next
	}
	f.close()
	return nil
}

// MkdirAll makes the folder rel and its parents, each a real folder; a
// symbolic link on the way is refused. Writers call it up front, so that a
// folder they cannot use is reported before minutes of runs, not after.
func (d *Dir) MkdirAll(rel string) error {
	if !local(rel) {
		return refuse(fmt.Errorf("%s: not a path inside %s", rel, d.path))
	}
	return d.mkdirs(rel)
}

// checkTarget refuses to replace anything but a regular file at rel.
func (d *Dir) checkTarget(rel string) error {
	if !local(rel) || path.Base(rel) == JournalName {
		return refuse(fmt.Errorf("%s: not a path inside %s that qcnlab may write", rel, d.path))
	}
	st, err := d.lstat(rel)
	if err == nil && !isRegular(&st) {
		return fmt.Errorf("%s: %w", d.Join(rel), errNotRegular(fileMode(&st)))
	}
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("%s: %w", d.Join(rel), unwrapPath(err))
	}
	if err == nil && !d.provenOurs(rel) {
		// Replaced only at the batch's end, it would sit beside the new
		// batch's first files if the batch were killed in between; and it
		// may be the user's.
		return refuse(fmt.Errorf("%s: there is a file here that qcnlab cannot tell it wrote (%s does not list it, or it changed since): move it away or choose another --out",
			d.Join(rel), JournalName))
	}
	return nil
}

// provenOurs reports whether the file at rel is one this run wrote, or one
// an earlier run wrote and nobody changed since.
func (d *Dir) provenOurs(rel string) bool {
	d.mu.Lock()
	_, wrote := d.wrote[rel]
	e, earlier := d.earlier[rel]
	d.mu.Unlock()
	return wrote || (earlier && e.Kind == "file" && d.unchanged(e))
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
		return fmt.Errorf("%s: %w", d.Join(rel), unwrapPath(err)) // the file's name, not its temporary's
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
	final := path.Join(dir, base)
	if err := nameLength(final); err != nil {
		return nil, fmt.Errorf("%s: %w", d.Join(final), err)
	}
	if err := d.mkdirs(dir); err != nil {
		return nil, err
	}
	folder, err := d.top().open(dir)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", d.Join(dir), err)
	}
	defer folder.close()
	for {
		tmp := "." + base + "." + randomSuffix() + ".tmp"
		name := path.Join(dir, tmp)
		fd, err := unix.Openat(int(folder), tmp, unix.O_RDWR|unix.O_CREAT|unix.O_EXCL|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0o644)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			// Named by the file it was for, in the directory.
			return nil, fmt.Errorf("%s: %w", d.Join(final), err)
		}
		f := os.NewFile(uintptr(fd), d.Join(name))
		// Journalled once made, with its inode: the proof a later run
		// needs to remove it if this one is killed. (A kill between the
		// two leaves a hidden temporary that no one removes.)
		info, err := f.Stat()
		if err != nil {
			f.Close()
			unix.Unlinkat(int(folder), tmp, 0)
			return nil, fmt.Errorf("%s: %w", d.Join(final), unwrapPath(err))
		}
		d.journalTemp(entry{Path: name, Kind: "temp", Ino: inode(info)})
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
		err = d.mkdirs(path.Dir(rel)) // names a link on the way
	}
	if err == nil {
		err = d.checkTarget(rel) // names what it refuses
	}
	if err == nil {
		err = d.Begin()
	}
	if err == nil && TestHookBeforeRename != nil {
		if err = TestHookBeforeRename(rel); err != nil {
			err = fmt.Errorf("%s: %w", d.Join(rel), err)
		}
	}
	if err == nil {
		if err = d.rename(tmp, rel); err != nil {
			err = fmt.Errorf("%s: %w", d.Join(rel), err)
		}
	}
	if err != nil {
		d.removeIf(tmp, false, lonely)
		d.tempDone(tmp)
		return err
	}
	d.tempDone(tmp)
	st, err := d.lstat(rel)
	if err != nil {
		return fmt.Errorf("%s: %w", d.Join(rel), err)
	}
	d.record(entry{Path: rel, Kind: "file", Ino: st.Ino, Size: st.Size, MTime: st.Mtim.Nano(), ReadOnly: st.Mode&0o200 == 0})
	return nil
}

// rename renames tmp to rel, each reached through folders opened without
// following a link: a folder swapped for one since the check is not
// followed, and a link at rel itself is replaced, never written through.
func (d *Dir) rename(tmp, rel string) error {
	from, fromName, err := d.top().parent(tmp)
	if err != nil {
		return err
	}
	defer from.close()
	to, toName, err := d.top().parent(rel)
	if err != nil {
		return err
	}
	defer to.close()
	return unix.Renameat(int(from), fromName, int(to), toName)
}

// Discard closes and removes f, a file of CreateTemp.
func (d *Dir) Discard(f *Temp) {
	tmp := f.rel
	f.Close()
	d.removeIf(tmp, false, lonely)
	d.tempDone(tmp)
}

// MkdirTemp makes a temporary folder named after base for files of this run
// only (CreateIn); Close removes it and what this run put in it.
func (d *Dir) MkdirTemp(base string) (string, error) {
	for {
		name := "." + base + "-" + randomSuffix()
		err := d.root.Mkdir(name, 0o755)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return "", fmt.Errorf("%s: cannot make a temporary folder: %w", d.path, unwrapPath(err))
		}
		info, err := d.root.Lstat(name)
		if err != nil {
			d.root.Remove(name)
			return "", fmt.Errorf("%s: %w", d.Join(name), unwrapPath(err))
		}
		d.journalTemp(entry{Path: name, Kind: "tempdir", Ino: inode(info)})
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
	folder, err := d.top().open(dir)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", d.Join(dir+"/"+name), err)
	}
	defer folder.close()
	fd, err := unix.Openat(int(folder), name, unix.O_RDWR|unix.O_CREAT|unix.O_TRUNC|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0o644)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", d.Join(dir+"/"+name), err)
	}
	return os.NewFile(uintptr(fd), d.Join(dir+"/"+name)), nil
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
		return nil, refuse(fmt.Errorf("%s: not a path inside %s", rel, d.path))
	}
	if err := d.mkdirs(rel); err != nil {
		return nil, refuse(err)
	}
	root, err := d.openRoot(rel, nil)
	if err != nil {
		return nil, refuse(fmt.Errorf("%s: %w", d.Join(rel), err))
	}
	sub, err := open(d.Join(rel), root)
	if err != nil {
		root.Close()
		return nil, refuse(err)
	}
	return sub, nil
}

// errMoved is the error of openRoot when the folder is not the one checked.
var errMoved = errors.New("replaced while qcnlab opened it (by a symbolic link or another folder); run again")

// openRoot opens the folder rel as an os.Root, if it is a real folder all
// the way (opened with O_NOFOLLOW) and, with ok, the one ok wants. os.Root
// would follow a link inside the directory: the Root is kept only if it is
// the very folder so opened (same device and inode).
func (d *Dir) openRoot(rel string, ok func(*unix.Stat_t) bool) (*os.Root, error) {
	f, err := d.top().open(rel)
	if err != nil {
		return nil, err
	}
	st, err := f.stat()
	f.close()
	if err != nil {
		return nil, err
	}
	if ok != nil && !ok(&st) {
		return nil, errMoved
	}
	root, err := d.root.OpenRoot(rel)
	if err != nil {
		return nil, unwrapPath(err)
	}
	if info, err := root.Stat("."); err != nil {
		root.Close()
		return nil, unwrapPath(err)
	} else if s, isStat := info.Sys().(*syscall.Stat_t); !isStat || s.Ino != st.Ino || uint64(s.Dev) != uint64(st.Dev) {
		root.Close()
		return nil, errMoved
	}
	return root, nil
}

// CheckNames refuses, naming it, what a batch could not write at each of
// names: anything but a regular file (or nothing) there, or a folder on the
// way that is not a real folder. A name may be a pattern of path.Match for
// the files of a folder (plots/queue-cdf*.png). A batch checks every name
// it will write before its runs, so that a refusal comes before them, not
// after.
func (d *Dir) CheckNames(names ...string) error {
	for _, name := range names {
		if err := d.checkName(name); err != nil {
			return err
		}
	}
	return nil
}

func (d *Dir) checkName(name string) error {
	if !local(name) || path.Base(name) == JournalName {
		return refuse(fmt.Errorf("%s: not a path inside %s that qcnlab may write", name, d.path))
	}
	if err := nameLength(name); err != nil {
		return refuse(fmt.Errorf("%s: %w", d.Join(name), err))
	}
	parts := strings.Split(name, "/")
	for i := range parts[:len(parts)-1] {
		p := strings.Join(parts[:i+1], "/")
		info, err := d.root.Lstat(p)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			return nil // nothing below it yet
		case err != nil:
			return refuse(fmt.Errorf("%s: %w", d.Join(p), unwrapPath(err)))
		case !info.IsDir():
			return fmt.Errorf("%s: %w", d.Join(p), errNotRegular(info.Mode()))
		}
	}
	base := parts[len(parts)-1]
	if !strings.ContainsAny(base, `*?[\`) {
		return d.checkTarget(name)
	}
	folder := path.Dir(name)
	entries, err := fs.ReadDir(d.root.FS(), folder)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return refuse(fmt.Errorf("%s: %w", d.Join(folder), unwrapPath(err)))
	}
	for _, e := range entries {
		if ok, _ := path.Match(base, e.Name()); ok {
			if err := d.checkTarget(path.Join(folder, e.Name())); err != nil {
				return err
			}
		}
	}
	return nil
}

// nameLength refuses a path whose file name is longer than MaxName bytes
// (its folders' than the file system's 255): its file could not be written.
// A pattern of path.Match is not a name and passes.
func nameLength(rel string) error {
	parts := strings.Split(rel, "/")
	for i, p := range parts {
		limit := MaxName
		if i < len(parts)-1 {
			limit = 255
		} else if strings.ContainsAny(p, `*?[\`) {
			continue
		}
		if len(p) > limit {
			return fmt.Errorf("a name of %d bytes, more than the %d a file name may have here (the file system's 255, less what a temporary name adds)", len(p), limit)
		}
	}
	return nil
}

// Begin starts a batch: it removes the files earlier runs wrote (each only
// if it is still what they wrote), so that from the batch's first file on
// the directory never holds two batches' files, wherever the batch stops.
// The first commit of a file calls it; a writer calls it sooner when its
// first file comes long after its first output elsewhere (reproduce's
// report, after its runs' folders). A file it cannot remove is an error:
// the batch does not begin beside it.
func (d *Dir) Begin() error {
	d.begin.Do(func() {
		d.mu.Lock()
		var earlier []entry
		for p, e := range d.earlier {
			if _, again := d.wrote[p]; !again && e.Kind == "file" {
				earlier = append(earlier, e)
			}
		}
		d.mu.Unlock()
		sortEntries(earlier)
		var errs []error
		for _, e := range earlier {
			// Changed since, gone, or behind a link now (the user moved
			// it): not ours, and left.
			if _, err := d.removeIf(e.Path, false, sameFile(e)); err != nil {
				errs = append(errs, fmt.Errorf("%s: cannot remove the earlier batch's file: %w", d.Join(e.Path), err))
				continue
			}
			d.forget(e.Path)
		}
		// The folders of an earlier batch that are output directories of
		// their own (reproduce's runs/NN-x) are begun too.
		d.mu.Lock()
		var folders []entry
		for p, e := range d.earlier {
			if _, again := d.wrote[p]; !again && e.Kind == "dir" {
				folders = append(folders, e)
			}
		}
		d.mu.Unlock()
		sortEntries(folders)
		for _, e := range folders {
			if err := d.beginSub(e); err != nil {
				errs = append(errs, err)
			}
		}
		if err := errors.Join(errs...); err != nil {
			d.beginErr = refuse(err)
			return
		}
		// The journal lists only what is still there.
		d.mu.Lock()
		all := make([]entry, 0, len(d.earlier)+len(d.wrote))
		for _, e := range d.earlier {
			all = append(all, e)
		}
		for p, e := range d.wrote {
			if _, dup := d.earlier[p]; !dup {
				all = append(all, e)
			}
		}
		for t := range d.temps {
			all = append(all, d.tempEntry(t))
		}
		d.mu.Unlock()
		sortEntries(all)
		d.rewriteJournal(all)
	})
	return d.beginErr
}

// beginSub begins the folder e of an earlier batch if it is an output
// directory of its own (its own journal): its earlier files go too, and
// its journal with them if nothing else is left in it (the folder then
// goes at Finish, as any empty folder of an earlier batch). A folder open
// elsewhere (this run's own, or another run's) is left alone.
func (d *Dir) beginSub(e entry) error {
	if j, err := d.lstat(e.Path + "/" + JournalName); err != nil || !isRegular(&j) {
		return nil
	}
	root, err := d.openRoot(e.Path, sameFolder(e))
	if err != nil {
		return nil // gone, moved, or behind a link: the user's now
	}
	sub, err := open(d.Join(e.Path), root)
	if err != nil {
		root.Close()
		if errors.Is(err, ErrBusy) {
			return nil
		}
		return err
	}
	if err := sub.Begin(); err != nil {
		sub.Close()
		return err
	}
	sub.removeStale()
	sub.mu.Lock()
	empty := len(sub.earlier) == 0
	sub.mu.Unlock()
	if entries, err := sub.ReadDir("."); err == nil && empty && len(entries) == 1 && entries[0].Name() == JournalName {
		sub.mu.Lock()
		sub.closed = true
		sub.mu.Unlock()
		sub.removeIf(JournalName, false, isRegular)
		sub.unlock()
		return nil
	}
	return sub.Close()
}

// Abandon closes the directory after a failure that came before the batch
// wrote a file: as Close, and if Open made the journal, it also removes
// the folders this run made (if empty) and the journal, and the directory
// if Open made it, so that a command that failed leaves nothing behind.
func (d *Dir) Abandon() error {
	d.mu.Lock()
	kept := !d.newJournal || d.closed || len(d.earlier) > 0
	var dirs []entry
	for _, e := range d.wrote {
		if e.Kind != "dir" {
			kept = true
		}
		dirs = append(dirs, e)
	}
	temps := make([]string, 0, len(d.temps))
	for t := range d.temps {
		temps = append(temps, t)
	}
	d.mu.Unlock()
	if kept {
		return d.Close()
	}
	for _, t := range temps {
		d.removeTemp(t, !strings.HasSuffix(t, ".tmp"))
	}
	sortEntries(dirs)
	for i := len(dirs) - 1; i >= 0; i-- {
		d.removeIf(dirs[i].Path, true, sameFolder(dirs[i])) // only if empty
	}
	d.mu.Lock()
	d.closed = true
	d.mu.Unlock()
	d.removeIf(JournalName, false, isRegular)
	d.unlock()
	if d.made == "" {
		return nil
	}
	// The folders Open made, innermost first, each only if empty; a
	// symbolic link put in one's place is not followed (rmdir fails).
	for p := filepath.Clean(d.path); ; p = filepath.Dir(p) {
		if syscall.Rmdir(p) != nil || p == d.made || filepath.Dir(p) == p {
			break
		}
	}
	return nil
}

// Finish removes what earlier runs wrote and this one did not write again
// (if it is still what they wrote), then closes the directory.
func (d *Dir) Finish() error {
	d.removeStale()
	return d.Close()
}

// removeStale removes what earlier runs wrote and this one did not write
// again, if it is still what they wrote: files, then empty folders.
func (d *Dir) removeStale() {
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
	// Changed since, or behind a link now: the user's, left and forgotten.
	for _, e := range stale {
		if e.Kind == "file" {
			if _, err := d.removeIf(e.Path, false, sameFile(e)); err == nil {
				d.forget(e.Path)
			}
		}
	}
	for i := len(stale) - 1; i >= 0; i-- {
		if e := stale[i]; e.Kind == "dir" {
			if found, err := d.removeIf(e.Path, true, sameFolder(e)); !found || err == nil {
				d.forget(e.Path)
			}
		}
	}
}

// unchanged reports whether e is still the regular file an earlier run
// wrote: its inode (if recorded), size and modification time.
func (d *Dir) unchanged(e entry) bool {
	st, err := d.lstat(e.Path)
	return err == nil && sameFile(e)(&st)
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
	d.self.Close() // its lock goes with it
	d.root.Close()
}

// removeKilledTemp removes a temporary that a killed run journalled, if it
// is still the file or folder it made (ours has checked its name).
func (d *Dir) removeKilledTemp(e entry) {
	st, err := d.lstat(e.Path)
	if err != nil || st.Ino != e.Ino {
		return
	}
	folder := e.Kind == "tempdir"
	if folder && !isDir(&st) || !folder && !lonely(&st) {
		return
	}
	d.mu.Lock()
	d.temps[e.Path] = true // removeTemp journals it done
	d.mu.Unlock()
	d.removeTemp(e.Path, folder)
}

// removeTemp removes a temporary file, or a temporary folder and the
// regular files in it (each with no other link), and nothing else.
func (d *Dir) removeTemp(name string, folder bool) {
	if folder {
		if f, err := d.top().open(name); err == nil {
			dir := os.NewFile(uintptr(f), d.Join(name)) // closes f
			names, _ := dir.Readdirnames(-1)
			for _, n := range names {
				if st, err := f.lstat(n); err == nil && lonely(&st) {
					unix.Unlinkat(int(f), n, 0)
				}
			}
			dir.Close()
		}
		d.removeIf(name, true, isDir)
	} else {
		d.removeIf(name, false, lonely)
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

// tempEntry is the journal entry of a temporary this run made; d.mu is held.
func (d *Dir) tempEntry(name string) entry {
	kind := "temp"
	if !strings.HasSuffix(name, ".tmp") {
		kind = "tempdir"
	}
	var ino uint64
	if info, err := d.root.Lstat(name); err == nil {
		ino = inode(info)
	}
	return entry{Path: name, Kind: kind, Ino: ino}
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

// suffixBytes is the random bytes in a temporary name.
const suffixBytes = 6

func randomSuffix() string {
	var b [suffixBytes]byte
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
