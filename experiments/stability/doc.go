// Package stability finds where along one experiment key (the feedback
// delay, the capacity, the buffer, the number of sources, a scheme
// parameter) a congestion control loop stops being stable: the question of
// seed 000's figures 7 and 8 (the Averaging Principle) and of seed 004's
// figure 5 (DSM). For each algorithm of the experiment and each criterion it
// runs a coarse grid over the range, then bisects the first bracket where
// the verdict turns from stable to unstable; a grid point that is stable
// again after an unstable one is reported, since the boundary is then not
// the only one.
package stability
