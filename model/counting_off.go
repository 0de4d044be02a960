//go:build !countdepartures

package model

// countingDepartures is false: the ports' departures are not counted,
// only derived (departures; the tests that compare the two run with
// -tags countdepartures).
const countingDepartures = false
