package algos

import "math"

// Time is simulated time in picoseconds. A byte at 100 Gbps lasts 80 ps, so
// every frame time at the link speeds qcnlab models is an exact integer.
type Time int64

// Units of simulated time.
const (
	Picosecond  Time = 1
	Nanosecond  Time = 1000 * Picosecond
	Microsecond Time = 1000 * Nanosecond
	Millisecond Time = 1000 * Microsecond
	Second      Time = 1000 * Millisecond
)

// Never is a time that does not come: a timer that is not armed.
const Never Time = math.MaxInt64

// Seconds converts a duration in seconds to Time, rounding to the picosecond.
func Seconds(s float64) Time { return Time(math.Round(s * float64(Second))) }

// Seconds returns t in seconds.
func (t Time) Seconds() float64 { return float64(t) / float64(Second) }

// TransmitTime is how long bytes take at rate bits per second.
func TransmitTime(bytes int, rate float64) Time {
	return Time(math.Round(float64(bytes) * 8 * float64(Second) / rate))
}
