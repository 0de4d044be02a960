//go:build race

package model

// raceEnabled: the tests run under the race detector.
const raceEnabled = true
