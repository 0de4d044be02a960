package model

// ring is a FIFO queue on a circular buffer that grows by doubling. It never
// shrinks, so a steady simulation allocates nothing once warmed up.
type ring[T any] struct {
	buf  []T
	head int
	n    int
}

func (r *ring[T]) len() int { return r.n }

func (r *ring[T]) push(v T) {
	if r.n == len(r.buf) {
		r.grow()
	}
	r.buf[(r.head+r.n)&(len(r.buf)-1)] = v
	r.n++
}

// pushSlot adds an element and returns it to be filled in place: no copy
// of a large element.
func (r *ring[T]) pushSlot() *T {
	if r.n == len(r.buf) {
		r.grow()
	}
	v := &r.buf[(r.head+r.n)&(len(r.buf)-1)]
	r.n++
	return v
}

// room makes room for one more element: pushSlot's first half, small
// enough to be inlined where the whole is not (life.go's enter, whose
// profile knows no push of today's queue entry), the slot then taken in
// place.
func (r *ring[T]) room() {
	if r.n == len(r.buf) {
		r.grow()
	}
}

// front returns a pointer to the oldest element; the ring must not be empty.
func (r *ring[T]) front() *T { return &r.buf[r.head] }

func (r *ring[T]) pop() T {
	v := r.buf[r.head]
	r.drop()
	return v
}

// drop removes the oldest element. A pointer front returned stays valid
// until the next push: a large element need not be copied out.
func (r *ring[T]) drop() {
	// An emptied ring starts over at its first slot, which stays in the
	// cache. Whether it empties is a coin toss on a lightly loaded link:
	// the head is chosen by a conditional move, not a branch.
	h := (r.head + 1) & (len(r.buf) - 1)
	r.n--
	if r.n == 0 {
		h = 0
	}
	r.head = h
}

func (r *ring[T]) clear() { r.head, r.n = 0, 0 }

// grow doubles the buffer. Every element keeps its index modulo the old
// size (the head stays), so that a lane beside the ring, indexed as its
// buffer is, follows it by doubling too (propLane).
func (r *ring[T]) grow() {
	size := max(ringMin, 2*len(r.buf))
	buf := make([]T, size)
	for i := 0; i < r.n; i++ {
		buf[(r.head+i)&(size-1)] = r.buf[(r.head+i)&(len(r.buf)-1)]
	}
	r.buf = buf
}

// popBack removes the newest element.
func (r *ring[T]) popBack() { r.n-- }

// at returns a pointer to the k-th oldest element.
func (r *ring[T]) at(k int) *T { return &r.buf[(r.head+k)&(len(r.buf)-1)] }

// removeAt removes the k-th oldest element, keeping the others' order.
func (r *ring[T]) removeAt(k int) {
	for ; k > 0; k-- {
		*r.at(k) = *r.at(k - 1)
	}
	r.pop()
}

// pushFrame is r.pushSlot for the rings of frame records a hop pushes onto
// (a host's link, a port's), written for them so that it is inlined there
// whatever the profile says: the profile (default.pgo) knows the generic
// push by its type, the record's as it was. It doubles the buffer by
// appending it to itself, which leaves every element at its index modulo
// the old size, as grow does, without a call.
func pushFrame(r *ring[frame]) *frame {
	n := r.n
	if n == len(r.buf) {
		r.buf = append(r.buf, r.buf...) // a ring's buffer has no room beyond its length (startRings)
		if n == 0 {
			r.buf = make([]frame, ringMin)
		}
	}
	r.n = n + 1
	return &r.buf[(r.head+n)&(len(r.buf)-1)]
}
