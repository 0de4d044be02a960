package tui

import (
	"bytes"
	"strings"
	"testing"

	"qcnlab/experiments"
)

// Shortening the duration drops the capacity changes and phase boundaries
// beyond it and scales the warm-up down; lengthening it again must bring
// them back: every edit fits the file as it was opened, as one --set of
// the final values does, so two edits that end where they began leave the
// experiment as it was.
func TestShorterThenLongerDurationKeepsTheExperiment(t *testing.T) {
	e, err := experiments.Open("qcn-capacity-drop")
	if err != nil {
		t.Fatal(err)
	}
	before := e.Clone()
	h := newHarness(t, e, 120, 40)
	editKey(h, "duration", "50ms")
	editKey(h, "duration", "400ms")
	var was, now bytes.Buffer
	before.Encode(&was)
	h.m.exp.Encode(&now)
	if was.String() != now.String() {
		t.Errorf("duration 400ms -> 50ms -> 400ms changed the experiment:\n%s", lineDiff(was.String(), now.String()))
	}
}

// What s saves after a sequence of edits reads back as the file with one
// --set of the final values; and edits after a save fit the file saved.
func TestSavedEditsReadBackAsOneSet(t *testing.T) {
	t.Chdir(t.TempDir())
	e, err := experiments.Open("qcn-capacity-drop")
	if err != nil {
		t.Fatal(err)
	}
	h := newHarness(t, e, 120, 40)
	editKey(h, "duration", "20ms")
	editKey(h, "network.rtt", "300us")
	editKey(h, "duration", "150ms")
	h.keys("esc", "s")
	h.typeText("edited.toml")
	h.keys("enter")
	saved, err := experiments.Load("edited.toml")
	if err != nil {
		t.Fatal(err)
	}
	want, err := experiments.OpenWith("qcn-capacity-drop", []string{"network.rtt=300us", "duration=150ms"})
	if err != nil {
		t.Fatal(err)
	}
	if a, b := encodedText(t, want), encodedText(t, saved); a != b {
		t.Errorf("saved after duration 20ms, rtt 300us, duration 150ms; against --set of the final values:\n%s", lineDiff(a, b))
	}
	if h.m.unsaved() {
		t.Error("unsaved right after a save")
	}
	// From now on the file saved is the one edits fit: at 150ms it has
	// no change left at 200ms to bring back.
	editKey(h, "duration", "400ms")
	again, _ := experiments.OpenWith("edited.toml", []string{"duration=400ms"})
	if a, b := encodedText(t, again), encodedText(t, h.m.exp); a != b {
		t.Errorf("an edit after the save does not fit the file saved:\n%s", lineDiff(a, b))
	}
	if !h.m.unsaved() {
		t.Error("an edit after the save is not unsaved")
	}
}

// The status line of an edit that dropped part of the experiment says what
// it dropped at 80 columns, whole.
func TestDroppedByAnEditIsShownWhole(t *testing.T) {
	e, err := experiments.Open("qcn-capacity-drop")
	if err != nil {
		t.Fatal(err)
	}
	h := newHarness(t, e, 80, 24)
	editKey(h, "duration", "50ms")
	h.keys("esc")
	flat := strings.Join(strings.Fields(h.view()), " ")
	for _, want := range []string{"the capacity changes at 100ms, 200ms are dropped", "the phase boundaries at", "the warm-up of 50ms is scaled to"} {
		if !strings.Contains(flat, want) {
			t.Errorf("%q not on screen:\n%s", want, h.view())
		}
	}
	if got := strings.Count(h.view(), "\n") + 1; got != 24 {
		t.Errorf("the view has %d lines at 24", got)
	}
}

func encodedText(t *testing.T, e *experiments.Experiment) string {
	t.Helper()
	var b bytes.Buffer
	if err := e.Encode(&b); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// lineDiff lists the lines of a that b lacks (-) and of b that a lacks (+).
func lineDiff(a, b string) string {
	in := func(s string) map[string]bool {
		m := map[string]bool{}
		for _, l := range strings.Split(s, "\n") {
			m[l] = true
		}
		return m
	}
	ia, ib := in(a), in(b)
	var out []string
	for _, l := range strings.Split(a, "\n") {
		if !ib[l] {
			out = append(out, "- "+l)
		}
	}
	for _, l := range strings.Split(b, "\n") {
		if !ia[l] {
			out = append(out, "+ "+l)
		}
	}
	return strings.Join(out, "\n")
}
