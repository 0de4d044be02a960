package model

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"runtime/metrics"
	"slices"
	"strings"
	"sync"
	"unsafe"

	"golang.org/x/sys/unix"
)

const hugePage = 2 << 20

// adviseHugePages asks the kernel to back the whole 2 MB pages within the
// n bytes at p with huge pages, where transparent huge pages are on for
// memory that asks (the usual setting): a large fabric's hot arrays are
// read at random, and a TLB entry then covers 2 MB instead of 4 KB. Memory
// fresh from the system gets them at its first touch; memory Go recycles
// is as it was (adviseHeap collapses it). It is a hint, and changes no
// result. GODEBUG=disablethp=1, the Go runtime's own switch against huge
// pages, turns it off.
func adviseHugePages(p unsafe.Pointer, n uintptr) {
	if !hugePagesDisabled(os.Getenv("GODEBUG")) {
		_ = madviseHuge(uintptr(p), uintptr(p)+n, false)
	}
}

// hugePagesDisabled says whether a GODEBUG setting turns huge pages off.
func hugePagesDisabled(godebug string) bool {
	return slices.Contains(strings.Split(godebug, ","), "disablethp=1")
}

// madviseHuge advises huge pages for the whole 2 MB pages in [lo, hi) and,
// with collapse, has the kernel move what is already there into them
// (MADV_COLLAPSE, Linux 6.1 on; a hint like the other, which it takes
// whatever the system's setting but "never").
func madviseHuge(lo, hi uintptr, collapse bool) error {
	beg, end := (lo+hugePage-1)&^(hugePage-1), hi&^(hugePage-1)
	if end <= beg {
		return nil
	}
	if _, _, e := unix.Syscall(unix.SYS_MADVISE, beg, end-beg, unix.MADV_HUGEPAGE); e != 0 {
		return e
	}
	if collapse {
		if _, _, e := unix.Syscall(unix.SYS_MADVISE, beg, end-beg, unix.MADV_COLLAPSE); e != 0 {
			return e
		}
	}
	return nil
}

// heapLargerThanTLB is the heap's size past which a run asks for huge
// pages under all of it: the second-level TLB's reach in 4 KB pages
// (2,048 entries on the build machine's cores, 8 MB). A k = 8 fat-tree's
// state is below it (4 MB at its peak), k = 16's above (13 MB built).
const heapLargerThanTLB = 8 << 20

var heapAdvice struct {
	sync.Mutex
	done uint64 // the heap's size when it was last advised
}

// adviseHeap asks for huge pages under the whole of Go's heap once a
// large network's state is in it, and has the pages already in use moved
// into them: on a fabric far beyond the caches every hop reads a dozen
// lines at random from tens of megabytes (ports, rings, flows,
// histograms, the agenda), and in 4 KB pages each read misses the TLB as
// well. Go's runtime asks for none (its heap grows by mappings of its
// own), so qcnlab advises every private anonymous mapping of the process
// that holds whole 2 MB pages, once the heap has grown past what was
// advised by a quarter (a sweep builds many networks at once). It changes
// no result; GODEBUG=disablethp=1 turns it off. It returns the first
// refusal, which the run ignores.
func adviseHeap() error {
	if hugePagesDisabled(os.Getenv("GODEBUG")) {
		return nil
	}
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(sample)
	heap := sample[0].Value.Uint64()
	heapAdvice.Lock()
	defer heapAdvice.Unlock()
	if heap < heapLargerThanTLB || heap < heapAdvice.done+heapAdvice.done/4 {
		return nil
	}
	heapAdvice.done = heap
	maps, err := os.Open("/proc/self/maps")
	if err != nil {
		return err
	}
	defer maps.Close()
	ranges, err := anonymousMappings(maps)
	var first error
	for _, r := range ranges {
		if e := madviseHuge(r[0], r[1], true); e != nil && first == nil {
			first = e
		}
	}
	if first == nil {
		first = err
	}
	return first
}

// anonymousMappings lists the private, writable, anonymous mappings in a
// /proc/PID/maps listing: no file, no name ([stack], [vdso] and the like).
func anonymousMappings(maps io.Reader) ([][2]uintptr, error) {
	var out [][2]uintptr
	sc := bufio.NewScanner(maps)
	for sc.Scan() {
		// start-end perms offset dev inode [path]
		f := strings.Fields(sc.Text())
		if len(f) != 5 || f[1] != "rw-p" || f[4] != "0" {
			continue
		}
		var lo, hi uintptr
		if _, err := fmt.Sscanf(f[0], "%x-%x", &lo, &hi); err != nil {
			return out, fmt.Errorf("a line of the mappings, %q: %w", sc.Text(), err)
		}
		out = append(out, [2]uintptr{lo, hi})
	}
	return out, sc.Err()
}
