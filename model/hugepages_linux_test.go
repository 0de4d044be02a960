package model

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strings"
	"testing"
	"unsafe"

	"golang.org/x/sys/unix"

	"qcnlab/model/topo"
)

// GODEBUG=disablethp=1, the runtime's switch against huge pages, keeps
// qcnlab from asking for them too; other settings do not.
func TestHugePagesFollowGODEBUG(t *testing.T) {
	for godebug, off := range map[string]bool{
		"": false, "disablethp=1": true, "gctrace=1,disablethp=1": true,
		"disablethp=0": false, "xdisablethp=1": false, "gctrace=1": false,
	} {
		if got := hugePagesDisabled(godebug); got != off {
			t.Errorf("GODEBUG=%q: off %v, want %v", godebug, got, off)
		}
	}
}

// The mappings adviseHeap looks at: private, writable and anonymous ones,
// named by the process ("[anon: Go: heap]") or not; not files, stacks,
// the C library's heap or the kernel's pages.
func TestAnonymousMappings(t *testing.T) {
	maps := `00400000-00c3e000 r-xp 00000000 fe:01 1234567    /usr/bin/qcnlab
10000000-14000000 rw-p 00000000 00:00 0 
14000000-18000000 rw-p 00000000 00:00 0                                  [anon: Go: heap]
1c000000-1c021000 rw-p 00000000 00:00 0 
20000000-20200000 rw-p 00000000 fe:01 42    /tmp/data
30000000-30400000 r--p 00000000 00:00 0 
31000000-31400000 rw-s 00000000 00:01 7                                  /dev/zero (deleted)
32000000-32400000 rw-p 00000000 00:00 0                                  [heap]
7ffd4a1b-7ffd4a1d rw-p 00000000 00:00 0                                  [stack]
`
	got, err := anonymousMappings(strings.NewReader(maps))
	if err != nil {
		t.Fatal(err)
	}
	want := [][2]uintptr{{0x10000000, 0x14000000}, {0x14000000, 0x18000000}, {0x1c000000, 0x1c021000}}
	if !slices.Equal(got, want) {
		t.Errorf("got %x, want %x", got, want)
	}
	if _, err := anonymousMappings(strings.NewReader("zz-c0 rw-p 00000000 00:00 0\n")); err == nil {
		t.Error("a line that is not a range: no error")
	}
}

// adviseHeap moves memory in use into huge pages, and only memory mostly
// in use: 64 MB written whole are then in huge pages, 64 MB with a page
// written in each huge page's worth stay as they were, not filled out.
func TestAdviseHeapCollapsesDenseMemoryOnly(t *testing.T) {
	skipUnlessCollapsible(t)
	const size = 64 << 20
	dense, sparse := mapAnon(t, size), mapAnon(t, size)
	page := os.Getpagesize()
	for i := 0; i < size; i += page {
		dense[i] = 1
	}
	for i := 0; i < size; i += int(hugePage) {
		sparse[i] = 1
	}
	if h := smapsOf(t, dense, "AnonHugePages"); h != 0 {
		t.Fatalf("%d KB of the mapping in huge pages before any advice", h>>10)
	}
	err := adviseHeap(true)
	if h := smapsOf(t, dense, "AnonHugePages"); h < size-2*int(hugePage) {
		t.Errorf("%d MB of 64 MB written whole in huge pages after adviseHeap (%v)", h>>20, err)
	}
	if h, rss := smapsOf(t, sparse, "AnonHugePages"), smapsOf(t, sparse, "Rss"); h != 0 || rss > size/16 {
		t.Errorf("64 MB with a page used in each 2 MB: %d KB in huge pages, %d KB resident", h>>10, rss>>10)
	}
	// A run asks again only once Go's heap has grown by a quarter: memory
	// of its own, which is not Go's heap, waits for the next network built.
	// (A heap of 64 MB, which the test's own small allocations do not grow
	// by a quarter.)
	live := make([]byte, size)
	_ = adviseHeap(true)
	later := mapAnon(t, size)
	for i := 0; i < size; i += page {
		later[i] = 1
	}
	if _ = adviseHeap(false); smapsOf(t, later, "AnonHugePages") != 0 {
		t.Error("a run's advice, the heap not grown, collapsed memory")
	}
	if _ = adviseHeap(true); smapsOf(t, later, "AnonHugePages") < size-2*int(hugePage) {
		t.Error("a network built: the memory written since not collapsed")
	}
	runtime.KeepAlive(live)
}

// Three quarters of a huge page's worth in use is dense enough to
// collapse; a page less is not.
func TestAdviseHeapDensityThreshold(t *testing.T) {
	skipUnlessCollapsible(t)
	pages := int(hugePage) / os.Getpagesize()
	for used, want := range map[int]bool{3 * pages / 4: true, 3*pages/4 - 1: false} {
		m := mapAnon(t, 2*int(hugePage))
		beg := int((uintptr(unsafe.Pointer(&m[0]))+hugePage-1)&^(hugePage-1) - uintptr(unsafe.Pointer(&m[0])))
		for i := range used {
			m[beg+i*os.Getpagesize()] = 1
		}
		_ = adviseHeap(true)
		if got := smapsOf(t, m, "AnonHugePages") > 0; got != want {
			t.Errorf("%d of %d pages in use: collapsed %v, want %v", used, pages, got, want)
		}
	}
}

// With huge pages turned off (GODEBUG=disablethp=1, or the system's
// "never"), nothing is collapsed.
func TestAdviseHeapOff(t *testing.T) {
	skipUnlessCollapsible(t)
	m := mapAnon(t, 16<<20)
	for i := 0; i < len(m); i += os.Getpagesize() {
		m[i] = 1
	}
	hugePagesOff = true
	defer func() { hugePagesOff = false }()
	if _ = adviseHeap(true); smapsOf(t, m, "AnonHugePages") != 0 {
		t.Error("huge pages turned off, and memory collapsed")
	}
}

// A large network built has its state in huge pages, and the rings'
// first slots, which no frame has reached yet, are in use whole (written
// through as they are made), so that they are collapsed with the rest.
// In a process of its own, whose memory no earlier test has touched.
func TestLargeNetworkBuiltInHugePages(t *testing.T) {
	if os.Getenv("QCNLAB_HUGE_CHILD") == "" {
		skipUnlessCollapsible(t)
		cmd := exec.Command(os.Args[0], "-test.run=^TestLargeNetworkBuiltInHugePages$", "-test.v")
		cmd.Env = append(os.Environ(), "QCNLAB_HUGE_CHILD=1")
		out, err := cmd.CombinedOutput()
		if err != nil || !strings.Contains(string(out), "--- PASS") {
			t.Fatalf("%v\n%s", err, out)
		}
		return
	}
	ft, err := topo.FatTree(16, 10e9, 150e3, topo.Uniform(us))
	if err != nil {
		t.Fatal(err)
	}
	sim, err := NewPacket(fabric(noneScheme(t), ft, Permutation(len(ft.Hosts), 1)))
	if err != nil {
		t.Fatal(err)
	}
	// The links' first slots: one array, ringMin a crossed port, from the
	// first crossed port's on.
	var first *frame
	crossed := 0
	for j := range sim.portStore {
		if b := sim.portStore[j].link.buf; cap(b) == ringMin {
			if crossed++; first == nil {
				first = &b[0]
			}
		}
	}
	slots := unsafe.Slice(first, crossed*ringMin)
	page := uintptr(os.Getpagesize())
	beg := (uintptr(unsafe.Pointer(&slots[0])) + page - 1) &^ (page - 1)
	end := (uintptr(unsafe.Pointer(&slots[len(slots)-1]))) &^ (page - 1)
	resident := make([]byte, (end-beg)/page)
	if _, _, e := unix.Syscall(unix.SYS_MINCORE, beg, end-beg, uintptr(unsafe.Pointer(&resident[0]))); e != 0 {
		t.Fatal(e)
	}
	in := 0
	for _, r := range resident {
		in += int(r & 1)
	}
	if in < len(resident)*9/10 {
		t.Errorf("the links' first slots: %d of %d pages in use before any frame", in, len(resident))
	}
	ports := unsafe.Slice((*byte)(unsafe.Pointer(&sim.portStore[0])), len(sim.portStore)*int(unsafe.Sizeof(port{})))
	if h := smapsOf(t, ports, "AnonHugePages"); h < int(hugePage) {
		t.Errorf("the mapping holding the ports has %d KB in huge pages", h>>10)
	}
}

// skipUnlessCollapsible skips a test where memory collapsed into huge
// pages could not be told from memory that was not: transparent huge
// pages not in madvise mode (always: all memory may be huge at once;
// never: nothing is asked), or a kernel that collapses none (before Linux
// 6.1, or no huge page free).
func skipUnlessCollapsible(t *testing.T) {
	if hugePagesOff {
		t.Skip("huge pages turned off")
	}
	mode, err := os.ReadFile("/sys/kernel/mm/transparent_hugepage/enabled")
	if err != nil || !strings.Contains(string(mode), "[madvise]") {
		t.Skip("transparent huge pages not in madvise mode: memory could not be told apart")
	}
	probeCollapse(t)
}

// probeCollapse skips the test where the kernel cannot collapse memory
// into huge pages (before Linux 6.1) or has none free.
func probeCollapse(t *testing.T) {
	m := mapAnon(t, 2*int(hugePage))
	for i := range m {
		m[i] = 1
	}
	beg := (uintptr(unsafe.Pointer(&m[0])) + hugePage - 1) &^ (hugePage - 1)
	if _, _, e := unix.Syscall(unix.SYS_MADVISE, beg, hugePage, unix.MADV_COLLAPSE); e != 0 {
		if errors.Is(e, unix.EINVAL) || errors.Is(e, unix.EAGAIN) || errors.Is(e, unix.ENOMEM) {
			t.Skipf("the kernel collapses no memory here (%v)", e)
		}
		t.Fatal(e)
	}
}

// mapAnon maps n bytes of private anonymous memory for the test, between
// two unmapped huge pages' worth (PROT_NONE), so that the kernel keeps it
// a mapping of its own, which /proc/self/smaps reports alone.
func mapAnon(t *testing.T, n int) []byte {
	g := int(hugePage)
	r, err := unix.Mmap(-1, 0, n+2*g, unix.PROT_NONE, unix.MAP_PRIVATE|unix.MAP_ANON)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = unix.Munmap(r) })
	m := r[g : g+n]
	if err := unix.Mprotect(m, unix.PROT_READ|unix.PROT_WRITE); err != nil {
		t.Fatal(err)
	}
	return m
}

// smapsOf is a field of /proc/self/smaps, in bytes, for the mapping m.
func smapsOf(t *testing.T, m []byte, field string) int {
	smaps, err := os.ReadFile("/proc/self/smaps")
	if err != nil {
		t.Skip(err)
	}
	addr := uintptr(unsafe.Pointer(&m[0]))
	in := false
	for _, line := range strings.Split(string(smaps), "\n") {
		var lo, hi uintptr
		if n, _ := fmt.Sscanf(line, "%x-%x", &lo, &hi); n == 2 && strings.Contains(line, " ") {
			in = lo <= addr && addr < hi
			continue
		}
		var kb int
		if in {
			if n, _ := fmt.Sscanf(line, field+": %d kB", &kb); n == 1 {
				return kb << 10
			}
		}
	}
	t.Fatalf("no mapping holds %x", addr)
	return 0
}
