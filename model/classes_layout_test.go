package model

import (
	"testing"
	"unsafe"
)

// A port's classes lie each on whole cache lines, and what a frame of a
// class reads as it arrives and departs in its first three, the lines
// split as classQueue says; a port's class set reads its first line
// only.
func TestClassQueueLayout(t *testing.T) {
	skipUnless64Bit(t)
	var q classQueue
	if n := unsafe.Sizeof(q); n%64 != 0 {
		t.Errorf("a class queue is %d bytes, not a whole number of cache lines", n)
	}
	line := func(off uintptr) uintptr { return off / 64 }
	for _, f := range []struct {
		name      string
		off, size uintptr
		want      uintptr
	}{
		{"bytes", unsafe.Offsetof(q.bytes), unsafe.Sizeof(q.bytes), 0},
		{"sent", unsafe.Offsetof(q.sent), unsafe.Sizeof(q.sent), 0},
		{"cp", unsafe.Offsetof(q.cp), unsafe.Sizeof(q.cp), 0},
		{"level's last, level, sum and max", unsafe.Offsetof(q.level), unsafe.Offsetof(q.level.from), 0},
		{"buffer", unsafe.Offsetof(q.buffer), unsafe.Sizeof(q.buffer), 1},
		{"wait", unsafe.Offsetof(q.wait), unsafe.Sizeof(q.wait), 1},
		{"onward", unsafe.Offsetof(q.onward), unsafe.Sizeof(q.onward), 2},
	} {
		if a, b := line(f.off), line(f.off+f.size-1); a != f.want || b != f.want {
			t.Errorf("classQueue.%s on lines %d-%d, want %d", f.name, a, b, f.want)
		}
	}
	var cs classSet
	if end := unsafe.Offsetof(cs.watch) + 1; end > 64 || unsafe.Sizeof(cs) > 128 || unsafe.Sizeof(cs) <= 64 {
		t.Errorf("a class set's hot fields end at %d, its size %d: not the first line of a 128-byte object", end, unsafe.Sizeof(cs))
	}
}
