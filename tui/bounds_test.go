package tui

import (
	"strings"
	"testing"
)

// A count or rate too large for the machine, typed in the parameter pane,
// is refused in place by the same bounds as a file, before anything is
// allocated; the run on screen goes on.
func TestParamsPaneRefusesWhatWouldExhaustTheMachine(t *testing.T) {
	h := newHarness(t, testExperiment(t), 120, 40)
	h.advance(tick250)
	sess := h.m.sess
	for _, c := range []struct{ key, value string }{
		{"sources.count", "1000000000"},
		{"sources.count", "9223372036854775807"},
		{"sources.count", "100000000"},
		{"network.capacity", "1e30Gbps"},
		{"sources.line_rate", "100000Tbps"},
	} {
		editKey(h, c.key, c.value)
		if h.m.params.err == "" || h.m.sess != sess || !h.m.params.editing {
			t.Errorf("%s = %s: accepted (err %q)", c.key, c.value, h.m.params.err)
		}
		if v := h.view(); !strings.Contains(v, c.key+":") {
			t.Errorf("%s = %s: no error in place:\n%s", c.key, c.value, v)
		}
		t.Logf("%s = %s: %s", c.key, c.value, h.m.params.err)
		h.keys("esc")
	}
	h.advance(tick250)
	if h.m.sess.reached() != 5*ms {
		t.Error("the run on screen stopped")
	}
}
