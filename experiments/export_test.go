package experiments

// For the external tests (scenarios_test.go): the scenarios the internal
// tests load and save, which the external ones run as batches.
const (
	ParkingLotText = parkingLotText
	ScenarioText   = scenario
)
