package model

import (
	"errors"
	"fmt"
	"os"
	"runtime"
	"slices"
	"strings"
	"testing"
	"unsafe"

	"golang.org/x/sys/unix"
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

// The mappings adviseHeap advises: private, writable and anonymous ones
// only, not files, stacks or the kernel's pages.
func TestAnonymousMappings(t *testing.T) {
	maps := `00400000-00c3e000 r-xp 00000000 fe:01 1234567    /usr/bin/qcnlab
c000000000-c004000000 rw-p 00000000 00:00 0 
7f3a1c000000-7f3a1c021000 rw-p 00000000 00:00 0 
7f3a20000000-7f3a20200000 rw-p 00000000 fe:01 42    /tmp/data
7f3a30000000-7f3a30400000 r--p 00000000 00:00 0 
7ffd4a1b2000-7ffd4a1d3000 rw-p 00000000 00:00 0                          [stack]
ffffffffff600000-ffffffffff601000 --xp 00000000 00:00 0                  [vsyscall]
`
	got, err := anonymousMappings(strings.NewReader(maps))
	if err != nil {
		t.Fatal(err)
	}
	want := [][2]uintptr{{0xc000000000, 0xc004000000}, {0x7f3a1c000000, 0x7f3a1c021000}}
	if !slices.Equal(got, want) {
		t.Errorf("got %x, want %x", got, want)
	}
	if _, err := anonymousMappings(strings.NewReader("zz-c0 rw-p 00000000 00:00 0\n")); err == nil {
		t.Error("a line that is not a range: no error")
	}
}

// adviseHeap moves a large heap's pages in use into huge pages: 64 MB
// written in 4 KB pages are then mostly in 2 MB ones (where the kernel
// can: not with transparent huge pages "never", nor before Linux 6.1).
func TestAdviseHeapCollapsesTheHeap(t *testing.T) {
	if hugePagesDisabled(os.Getenv("GODEBUG")) {
		t.Skip("GODEBUG=disablethp=1")
	}
	if on, err := os.ReadFile("/sys/kernel/mm/transparent_hugepage/enabled"); err != nil || strings.Contains(string(on), "[never]") {
		t.Skip("no transparent huge pages here")
	}
	buf := make([]byte, 64<<20)
	for i := 0; i < len(buf); i += 4096 {
		buf[i] = 1
	}
	addr := uintptr(unsafe.Pointer(&buf[0]))
	heapAdvice.Lock()
	heapAdvice.done = 0
	heapAdvice.Unlock()
	err := adviseHeap()
	huge := hugeBytesAt(t, addr)
	runtime.KeepAlive(buf)
	if huge >= 32<<20 {
		return
	}
	if errors.Is(err, unix.EINVAL) || errors.Is(err, unix.EAGAIN) || errors.Is(err, unix.ENOMEM) {
		t.Skipf("the kernel declined (%v)", err)
	}
	t.Fatalf("%d MB of the 64 MB in huge pages after adviseHeap (%v)", huge>>20, err)
}

// hugeBytesAt is the AnonHugePages of the mapping holding addr.
func hugeBytesAt(t *testing.T, addr uintptr) int {
	smaps, err := os.ReadFile("/proc/self/smaps")
	if err != nil {
		t.Skip(err)
	}
	in := false
	for _, line := range strings.Split(string(smaps), "\n") {
		var lo, hi uintptr
		if n, _ := fmt.Sscanf(line, "%x-%x", &lo, &hi); n == 2 && strings.Contains(line, " ") {
			in = lo <= addr && addr < hi
			continue
		}
		var kb int
		if in {
			if n, _ := fmt.Sscanf(line, "AnonHugePages: %d kB", &kb); n == 1 {
				return kb << 10
			}
		}
	}
	t.Fatalf("no mapping holds %x", addr)
	return 0
}
