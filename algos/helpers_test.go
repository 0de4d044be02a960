package algos

import "testing"

// resolve returns scheme name's values for network n with overrides over.
func resolve(t *testing.T, name string, n Network, over Values) Values {
	t.Helper()
	s, err := Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	v, err := s.Resolve(n, over)
	if err != nil {
		t.Fatal(err)
	}
	return v
}
