// Package stats summarises a metric over the seeds of a sweep point, as the
// text summary, the sweep figure and the queue CDFs report it: the mean,
// the sample standard deviation (n-1, pandas' default) and the 95%
// confidence interval of the mean from Student's t distribution, the
// interval a networking paper's error bars usually show.
package stats

import "math"

// Sample is a metric's values over the seeds of one point.
type Sample struct {
	N    int
	Mean float64
	Std  float64 // sample standard deviation; 0 for one value
	CI95 float64 // half-width of the 95% confidence interval of the mean; 0 for one value
}

// Of summarises xs; NaN values (a run with no such value) are left out.
func Of(xs []float64) Sample {
	var s Sample
	for _, x := range xs {
		if !math.IsNaN(x) {
			s.N++
			s.Mean += x
		}
	}
	if s.N == 0 {
		return Sample{Mean: math.NaN(), Std: math.NaN(), CI95: math.NaN()}
	}
	s.Mean /= float64(s.N)
	if s.N < 2 {
		return s
	}
	var ss float64
	for _, x := range xs {
		if !math.IsNaN(x) {
			ss += (x - s.Mean) * (x - s.Mean)
		}
	}
	s.Std = math.Sqrt(ss / float64(s.N-1))
	s.CI95 = T975(s.N-1) * s.Std / math.Sqrt(float64(s.N))
	return s
}

// t975 are the 0.975 quantiles of Student's t with 1 to 30 degrees of
// freedom.
var t975 = [...]float64{12.706205, 4.302653, 3.182446, 2.776445, 2.570582, 2.446912, 2.364624, 2.306004, 2.262157,
	2.228139, 2.200985, 2.178813, 2.160369, 2.144787, 2.131450, 2.119905, 2.109816, 2.100922, 2.093024, 2.085963,
	2.079614, 2.073873, 2.068658, 2.063899, 2.059539, 2.055529, 2.051831, 2.048407, 2.045230, 2.042272}

// T975 is the 0.975 quantile of Student's t with df degrees of freedom:
// the table up to 30, the Cornish-Fisher expansion beyond (within 1e-4).
func T975(df int) float64 {
	switch {
	case df < 1:
		return math.NaN()
	case df <= len(t975):
		return t975[df-1]
	}
	const z = 1.959963985
	n := float64(df)
	return z + (z*z*z+z)/(4*n) + (5*math.Pow(z, 5)+16*z*z*z+3*z)/(96*n*n)
}
