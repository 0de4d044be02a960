package model

import (
	"reflect"
	"testing"
	"unsafe"
)

// TestFrameLayout pins the frame record at 32 bytes: two fill a cache line
// exactly, so that in a ring's buffer (a power of two of them, on a line
// boundary) none crosses a line, nor does any field.
func TestFrameLayout(t *testing.T) {
	skipUnless64Bit(t)
	const line = 64
	size := unsafe.Sizeof(frame{})
	if size != 32 || 2*size != line {
		t.Errorf("a frame record is %d bytes: two do not fill a %d-byte line", size, line)
	}
	ft := reflect.TypeOf(frame{})
	for i := range ft.NumField() {
		f := ft.Field(i)
		if end := f.Offset + f.Type.Size() - 1; f.Offset/line != end/line || f.Offset%uintptr(f.Type.Align()) != 0 {
			t.Errorf("frame.%s at bytes %d-%d", f.Name, f.Offset, end)
		}
	}
	// A ring's first slots come from startRings' array, which starts a line.
	sim, err := NewPacket(fabric(noneScheme(t), fatTree4(t, 150e3), []Flow{{From: 1, To: 0}}))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range sim.ports {
		if p.link.buf != nil {
			if a := uintptr(unsafe.Pointer(&p.link.buf[0])); a%line != 0 {
				t.Errorf("%s's link records start at %#x, not on a line", p.name, a)
			}
		}
	}
}
