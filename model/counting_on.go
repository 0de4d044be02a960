//go:build countdepartures

package model

// countingDepartures is true: a test may count the ports' departures as
// they leave (departures), which the ports derive otherwise.
const countingDepartures = true
