package algos

// CPSlab hands out the congestion points of one network from blocks
// allocated together, so that they lie in memory in the order they are
// made (a fabric's: the order of its ports), a few to a cache line, rather
// than one heap object each among everything else the setup allocates. On
// a fabric larger than the caches a frame's arrival at a port reads its
// congestion point; neighbouring ports' points then share lines (issue
// 28: QCN's was 5-7% of the time of a k = 24 fat-tree, one miss a hop).
//
// A CPSlab serves one run, from one goroutine; a nil *CPSlab (a CPEnv
// without one) allocates each point on its own.
type CPSlab struct {
	block int // points per block

	qcn        slab[QCNCongestionPoint]
	qcnSampler slab[qcnSampler]
	ecm        slab[ECMCongestionPoint]
	naimd      slab[NAIMDCongestionPoint]
	dctcp      slab[DCTCPCongestionPoint]
	dctcpDeq   slab[DCTCPDequeueCongestionPoint]
	dcqcn      slab[DCQCNCongestionPoint]
	dcqcnDeq   slab[DCQCNDequeueCongestionPoint]
}

// NewCPSlab makes a slab for about n congestion points: its blocks hold n
// each (at least 16, at most 4,096, so that a small network wastes little
// and a large one's blocks stay moderate).
func NewCPSlab(n int) *CPSlab { return &CPSlab{block: min(max(n, 16), 4096)} }

// slab is one type's blocks: the current one fills up, then a new one
// starts; the ones before stay alive through the points they hold.
type slab[T any] struct{ free []T }

// next returns a zero T from s's current block, starting a block of n if
// it is full.
func (s *slab[T]) next(n int) *T {
	if len(s.free) == 0 {
		s.free = make([]T, n)
	}
	p := &s.free[0]
	s.free = s.free[1:]
	return p
}

// place returns a zero T for a congestion point of env: from env's slab,
// in the slab's blocks of that type (which), or on its own without one.
func place[T any](env CPEnv, which func(*CPSlab) *slab[T]) *T {
	if env.Slab == nil {
		return new(T)
	}
	return which(env.Slab).next(env.Slab.block)
}
