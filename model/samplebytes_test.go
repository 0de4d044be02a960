package model

import (
	"encoding/binary"
	"math"
)

// SampleBytes appends a sample's time, queues and the series given, as
// little-endian words, to buf: what the tests that compare runs bit for
// bit hash.
func SampleBytes(buf []byte, x *Sample, series ...[]float64) []byte {
	buf = binary.LittleEndian.AppendUint64(buf, uint64(x.Time))
	for _, q := range x.Queues {
		buf = binary.LittleEndian.AppendUint64(buf, uint64(q))
	}
	for _, xs := range series {
		for _, v := range xs {
			buf = binary.LittleEndian.AppendUint64(buf, math.Float64bits(v))
		}
	}
	return buf
}
