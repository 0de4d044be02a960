package algos

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

// ackSchemes are the schemes that wait for the transport layer.
var ackSchemes = []string{"dctcp", "hpcc", "swift", "timely"}

// describe returns the values of a scheme that may await the transport.
func describe(t *testing.T, name string, n Network, over Values) (*Scheme, Values) {
	t.Helper()
	s, err := Describe(name)
	if err != nil {
		t.Fatal(err)
	}
	v, err := s.Resolve(n, over)
	if err != nil {
		t.Fatal(err)
	}
	return s, v
}

// TestAckSchemesAwaitTransport checks that the ACK-clocked schemes cannot be
// run until the packet model has a transport: Lookup refuses them with an
// error that says why, Names (what experiments, the workbench and sweeps
// offer) leaves them out, and Describe still shows them.
func TestAckSchemesAwaitTransport(t *testing.T) {
	if got := AwaitingTransport(); !slices.Equal(got, ackSchemes) {
		t.Errorf("AwaitingTransport() = %v, want %v", got, ackSchemes)
	}
	for _, name := range ackSchemes {
		_, err := Lookup(name)
		var nt *ErrNeedsTransport
		if !errors.As(err, &nt) || nt.Name != name || !strings.Contains(err.Error(), "transport layer") {
			t.Errorf("Lookup(%q) = %v, want an ErrNeedsTransport", name, err)
		}
		if slices.Contains(Names(), name) {
			t.Errorf("Names() offers %s, which cannot run", name)
		}
		s, v := describe(t, name, net10G, nil)
		if !s.NeedsTransport() || s.NewCP == nil || s.NewRP != nil || len(s.Readings) == 0 {
			t.Errorf("%s: NeedsTransport %v, NewCP %v, NewRP %v, %d readings", name, s.NeedsTransport(), s.NewCP != nil, s.NewRP != nil, len(s.Readings))
		}
		for _, p := range s.Params {
			if p.Doc == "" {
				t.Errorf("%s.%s has no doc", name, p.Key)
			}
		}
		env := SenderEnv{Network: net10G, LineRate: net10G.LineRate, BaseRTT: 10 * Microsecond, Hops: 3}
		snd := s.NewSender(env, v)
		if _, ok := snd.(TelemetrySender); ok != (name == "hpcc") {
			t.Errorf("%s: TelemetrySender %v; only HPCC reads INT", name, ok)
		}
		if snd.Window() < 0 || snd.Rate() < 0 || (snd.Window() == 0 && snd.Rate() == 0) {
			t.Errorf("%s starts with window %g, rate %g", name, snd.Window(), snd.Rate())
		}
	}
	for _, name := range Names() {
		if s, _ := Lookup(name); s.NeedsTransport() {
			t.Errorf("%s is runnable but needs the transport", name)
		}
	}
	if _, err := Lookup("no-such"); err == nil || errors.As(err, new(*ErrNeedsTransport)) {
		t.Errorf("Lookup of an unknown name: %v", err)
	}
}

// TestSeqsAcked checks the cumulative ACK bookkeeping every sender shares.
func TestSeqsAcked(t *testing.T) {
	var s seqs
	s.sent(0, 1000)
	s.sent(1000, 1000)
	if s.nxt != 2000 {
		t.Fatalf("nxt %d", s.nxt)
	}
	for _, c := range []struct{ seq, want int64 }{{1000, 1000}, {1000, 0}, {500, 0}, {2000, 1000}} {
		if got := s.acked(&Ack{Seq: c.seq}); got != c.want {
			t.Errorf("ack %d: %d newly acked, want %d", c.seq, got, c.want)
		}
	}
	s.sent(2000, 1000)
	s.sent(1000, 1000) // go-back-N rewinds snd_nxt
	if s.nxt != 2000 || s.una != 2000 {
		t.Errorf("after a resend: nxt %d una %d", s.nxt, s.una)
	}
}
