package tomltext

import (
	"strings"

	"github.com/BurntSushi/toml"

	"qcnlab/algos"
	"qcnlab/units"
)

// ChoiceError is a word that is not one of a choice parameter's.
type ChoiceError struct{ error }

// DecodeParam reads one [params.NAME] value of p's kind into base units.
func DecodeParam(md toml.MetaData, prim toml.Primitive, p algos.Param) (float64, error) {
	switch p.Kind {
	case algos.Choice:
		var word string
		if err := md.PrimitiveDecode(prim, &word); err != nil {
			return 0, err
		}
		x, err := p.ChoiceValue(word)
		if err != nil {
			return 0, &ChoiceError{err}
		}
		return x, nil
	case algos.Bytes:
		var b units.Bytes
		err := md.PrimitiveDecode(prim, &b)
		return float64(b), err
	case algos.Rate:
		var r units.Rate
		err := md.PrimitiveDecode(prim, &r)
		return float64(r), err
	case algos.Duration:
		var d units.Duration
		err := md.PrimitiveDecode(prim, &d)
		return algos.Time(d).Seconds(), err
	case algos.Count:
		var n int64
		err := md.PrimitiveDecode(prim, &n)
		return float64(n), err
	case algos.Switch:
		var b bool
		err := md.PrimitiveDecode(prim, &b)
		if b {
			return 1, err
		}
		return 0, err
	}
	var x float64
	err := md.PrimitiveDecode(prim, &x)
	return x, err
}

// ParamValue writes a parameter value as a TOML value of its kind.
func ParamValue(p algos.Param, x float64) string {
	kind := p.Kind
	switch kind {
	case algos.Choice:
		return Value(p.ChoiceName(x))
	case algos.Bytes, algos.Rate, algos.Duration:
		return Value(units.Format(kind, x))
	case algos.Number:
		s := units.Format(kind, x)
		if !strings.ContainsAny(s, ".eEn") { // keep it a TOML float
			s += ".0"
		}
		return s
	}
	return units.Format(kind, x)
}

// BareKey is k as a TOML key: bare where it may be, else quoted.
func BareKey(k string) string {
	for _, r := range k {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-') {
			return Value(k)
		}
	}
	return k
}
