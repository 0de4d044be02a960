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
func SetpointNotes(buffer float64, bufferModel string, algorithms []string, values func(name string) (algos.Values, error)) []string {
	var notes []string
	for _, name := range algorithms {
		if setpoint := SetpointAbove(buffer, bufferModel, name, values); setpoint != "" {
			notes = append(notes, fmt.Sprintf("%s is at or above network.buffer = %s: the queue cannot pass it, so %s may send no feedback and only drops limit the sources",
				setpoint, units.FormatBytes(buffer), name))
		}
	}
	return notes
}

// SetpointAbove is the algorithm's setpoint as "params.NAME.KEY = VALUE"
// when it is at or above the buffer, "" when it is below, when the scheme
// has none, or when the buffer is shared (bufferModel "shared"), which
// lets a queue pass network.buffer.
func SetpointAbove(buffer float64, bufferModel, name string, values func(name string) (algos.Values, error)) string {
	key, ok := setpoints[name]
	if !ok || bufferModel == "shared" {
		return ""
	}
	v, err := values(name)
	if err != nil || v[key] < buffer {
		return ""
	}
	return fmt.Sprintf("params.%s.%s = %s", name, key, units.FormatBytes(v[key]))
}
