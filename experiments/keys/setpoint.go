package keys

import (
	"fmt"

	"qcnlab/algos"
	"qcnlab/units"
)

// setpoints are the parameters that set the queue a scheme aims at or
// marks from.
var setpoints = map[string]string{
	"qcn": "q_eq", "qcn-aimd": "q_eq", "qcn-t": "q_eq", "qcn-timer": "q_eq",
	"n-aimd": "q_eq", "ap-n-aimd": "q_eq", "ecm": "q_eq",
	"dsm": "q0", "dcqcn": "k_min", "dctcp": "k",
}

// SetpointNotes warns of each algorithm whose setpoint is at or above the
// buffer: legitimate (a study of what happens then), but the queue never
// passes it, so the scheme may never send feedback and the run is drop-tail
// in all but name. values resolves an algorithm's parameters.
func SetpointNotes(buffer float64, algorithms []string, values func(name string) (algos.Values, error)) []string {
	var notes []string
	for _, name := range algorithms {
		key, ok := setpoints[name]
		v, err := values(name)
		if !ok || err != nil || v[key] < buffer {
			continue
		}
		notes = append(notes, fmt.Sprintf("params.%s.%s = %s is at or above network.buffer = %s: the queue cannot pass it, so %s may send no feedback and only drops limit the sources",
			name, key, units.FormatBytes(v[key]), units.FormatBytes(buffer), name))
	}
	return notes
}
