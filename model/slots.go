package model

// slots holds values by index and reuses the slots of removed ones, so its
// size is the most values ever held at once, not the values ever added; the
// index is what an event or a queue names. No allocation once it has grown.
type slots[T any] struct {
	items []T
	free  []int32
}

func (s *slots[T]) add(v T) int32 {
	if n := len(s.free); n > 0 {
		i := s.free[n-1]
		s.free = s.free[:n-1]
		s.items[i] = v
		return i
	}
	s.items = append(s.items, v)
	return int32(len(s.items) - 1)
}

// at is the value in slot i.
func (s *slots[T]) at(i int32) *T { return &s.items[i] }

// remove frees slot i for reuse.
func (s *slots[T]) remove(i int32) { s.free = append(s.free, i) }

// take returns the value in slot i and frees the slot.
func (s *slots[T]) take(i int32) T {
	v := s.items[i]
	s.remove(i)
	return v
}

// alive is the number of values held.
func (s *slots[T]) alive() int { return len(s.items) - len(s.free) }
