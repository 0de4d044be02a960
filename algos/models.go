package algos

// ConvergenceLaw is how seed 002's convergence model (section IV-B, and V-B2
// for the variants) reads a scheme: E(dR) per sampling period is built from
// the length of a fast-recovery cycle and of an active-increase cycle, each
// counted in bytes sent (the byte counter, eq. 25) or in seconds (the timer,
// eq. 26), or from additive increase alone (eq. 28).
type ConvergenceLaw struct {
	AIMD  bool // eq. 28: additive increase every cycle, no fast recovery
	Timer bool // the cycles are timer periods in seconds (eq. 26), else bytes
	// Cycles returns the fast-recovery and the active-increase cycle for
	// the scheme's values (the second is unused under AIMD).
	Cycles func(v Values) (fastRecovery, activeIncrease float64)
}
