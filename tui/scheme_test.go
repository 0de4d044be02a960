package tui

import "qcnlab/algos"

// gentleQCN is QCN with half its decrease gain, registered in the tests
// only, so compare mode and switching have a second algorithm whatever
// schemes the build registers.
const gentleQCN = "test-qcn-gentle"

func init() {
	qcn, err := algos.Lookup("qcn")
	if err != nil {
		panic(err)
	}
	s := *qcn
	s.Name, s.Display, s.Summary = gentleQCN, "QCN-GD/2", "QCN with half the decrease gain (tests only)"
	s.Params = append([]algos.Param(nil), qcn.Params...)
	for i, p := range s.Params {
		if p.Key == "gd" {
			s.Params[i].Default = algos.Fixed(1.0 / 256)
		}
	}
	algos.Register(&s)
}
