package model

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"runtime/metrics"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unsafe"

	"golang.org/x/sys/unix"
)

// hugePage is the size of a transparent huge page: 2 MB on x86-64, as the
// kernel says (on arm64 with 64 KB pages, 512 MB).
var hugePage = func() uintptr {
	b, err := os.ReadFile("/sys/kernel/mm/transparent_hugepage/hpage_pmd_size")
	if n, perr := strconv.ParseUint(strings.TrimSpace(string(b)), 10, 64); err == nil && perr == nil && n > 0 && n&(n-1) == 0 {
		return uintptr(n)
	}
	return 2 << 20
}()

// hugePagesDisabled says whether a GODEBUG setting turns huge pages off.
func hugePagesDisabled(godebug string) bool {
	return slices.Contains(strings.Split(godebug, ","), "disablethp=1")
}

// hugePagesOff: the system or the user turns huge pages off
// (transparent huge pages "never", which a collapse would override;
// GODEBUG=disablethp=1, the Go runtime's own switch against them).
var hugePagesOff = hugePagesDisabled(os.Getenv("GODEBUG")) || thpNever()

// thpNever says whether the system's transparent huge pages are "never".
func thpNever() bool {
	mode, err := os.ReadFile("/sys/kernel/mm/transparent_hugepage/enabled")
	return err == nil && strings.Contains(string(mode), "[never]")
}

// heapAdvice is what adviseHeap did last: the heap's size then, and the
// sample it reads it into.
var heapAdvice struct {
	sync.Mutex
	done   uint64
	sample [1]metrics.Sample
}

// adviseHeap moves the heap's densely used memory into huge pages: on a
// fabric far beyond the caches every hop reads a dozen lines at random
// from tens of megabytes (ports, rings, flows, histograms, the agenda),
// and in 4 KB pages each read misses the TLB as well. Go's runtime asks
// for no huge pages, so qcnlab has the kernel collapse (MADV_COLLAPSE,
// Linux 6.1 on) every huge page's worth of the process's private
// anonymous memory that is at least three quarters in use (denseRegion):
// one collapse, not a mark on the mapping, so that memory the runtime
// later gives back stays given back, and a sparse region, which a
// collapse would fill, is left as it is. A network just built (built)
// has it done; a run, again only once the heap has grown by a quarter
// since it was last done (its state grows as its queues do). It changes
// no result (hugePagesOff turns it off). It returns the first refusal,
// which a run ignores.
//
// Memory the runtime later gives back out of a huge page leaves the
// process's RSS at once but stays the kernel's page until the kernel
// splits it, under memory pressure: after a k = 24 run, some 10 MB.
func adviseHeap(built bool) error {
	if hugePagesOff {
		return nil
	}
	heapAdvice.Lock()
	sample := heapAdvice.sample[:]
	sample[0].Name = "/memory/classes/heap/objects:bytes"
	metrics.Read(sample)
	heap := sample[0].Value.Uint64()
	grown := built || heap >= heapAdvice.done+heapAdvice.done/4
	if grown {
		heapAdvice.done = heap
	}
	heapAdvice.Unlock()
	if !grown {
		return nil
	}
	maps, err := os.Open("/proc/self/maps")
	if err != nil {
		return err
	}
	defer maps.Close()
	ranges, first := anonymousMappings(maps)
	resident := make([]byte, hugePage/uintptr(os.Getpagesize()))
	for _, r := range ranges {
		for beg := (r[0] + hugePage - 1) &^ (hugePage - 1); beg+hugePage <= r[1]; beg += hugePage {
			if !denseRegion(beg, resident) {
				continue
			}
			if _, _, e := unix.Syscall(unix.SYS_MADVISE, beg, hugePage, unix.MADV_COLLAPSE); e != 0 && first == nil {
				first = e
			}
		}
	}
	return first
}

// denseRegion says whether at least three quarters of the huge page's
// worth of memory at beg is resident (mincore; resident has a byte a
// page).
func denseRegion(beg uintptr, resident []byte) bool {
	if _, _, e := unix.Syscall(unix.SYS_MINCORE, beg, hugePage, uintptr(unsafe.Pointer(&resident[0]))); e != 0 {
		return false
	}
	n := 0
	for _, r := range resident {
		n += int(r & 1)
	}
	return 4*n >= 3*len(resident)
}

// anonymousMappings lists the private, writable, anonymous mappings in a
// /proc/PID/maps listing: those with no name, or a name the process gave
// an anonymous mapping ("[anon: Go: heap]", where the kernel keeps such
// names), not a file, [stack], [heap] (the C library's) or the kernel's.
func anonymousMappings(maps io.Reader) ([][2]uintptr, error) {
	var out [][2]uintptr
	sc := bufio.NewScanner(maps)
	for sc.Scan() {
		// start-end perms offset dev inode [name]
		f := strings.Fields(sc.Text())
		if len(f) < 5 || f[1] != "rw-p" || f[4] != "0" || len(f) > 5 && !strings.HasPrefix(f[5], "[anon:") {
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
