package experiments

import "qcnlab/experiments/fabric"

// For the external tests (scenarios_test.go): the scenarios the internal
// tests load and save, which the external ones run as batches.
const (
	ParkingLotText = parkingLotText
	ScenarioText   = scenario
)

// ForgetFabrics empties the cache of fabrics built, so that a measure of
// the heap starts from none.
var ForgetFabrics = fabric.Forget
