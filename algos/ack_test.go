package algos

import (
	"slices"
	"testing"
)

// ackSchemes are the ACK-clocked schemes.
var ackSchemes = []string{"dctcp", "hpcc", "swift", "timely"}

// describe returns a scheme and its values.
func describe(t *testing.T, name string, n Network, over Values) (*Scheme, Values) {
	t.Helper()
	s, err := Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	v, err := s.Resolve(n, over)
	if err != nil {
		t.Fatal(err)
	}
	return s, v
}

// TestAckSchemesAreRegistered checks that the ACK-clocked schemes run
// through the transport layer: registered like the others (Names offers
// them), each with a Sender and no reaction point.
func TestAckSchemesAreRegistered(t *testing.T) {
	for _, name := range ackSchemes {
		if !slices.Contains(Names(), name) {
			t.Errorf("Names() leaves out %s", name)
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
		if s, _ := Lookup(name); s.NeedsTransport() != slices.Contains(ackSchemes, name) {
			t.Errorf("%s: NeedsTransport %v", name, s.NeedsTransport())
		}
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
