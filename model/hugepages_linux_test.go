package model

import "testing"

// GODEBUG=disablethp=1, the runtime's switch against huge pages, keeps
// qcnlab from asking for them too; other settings do not.
func TestHugePagesFollowGODEBUG(t *testing.T) {
	for godebug, off := range map[string]bool{
		"": false, "disablethp=1": true, "gctrace=1,disablethp=1": true,
		"disablethp=0": false, "xdisablethp=1": false, "gctrace=1": false,
	} {
		if got := hugePagesDisabled(godebug); got != off {
			t.Errorf("GODEBUG=%q: off %v, want %v", godebug, got, off)
		}
	}
}
