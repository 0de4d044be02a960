package experiments

// KeyStep is the spacing of the values a whole-number key can hold, when
// only every step-th whole number is one (a fat-tree's k is even: k/2 pods
// of k/2 switches); 1 for every other key. A search or a grid along the
// key keeps to its multiples, so that it never asks for a value the file
// would refuse.
func KeyStep(key string) int {
	if step, ok := keySteps[key]; ok {
		return step
	}
	return 1
}

// keySteps are the keys whose values are the multiples of a step (their
// validation refuses the others).
var keySteps = map[string]int{
	"network.k": 2,
}
