package experiments

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"qcnlab/model"
)

// fuzzBytes hands out small numbers from a fuzzer's input, zeros once it
// runs out.
type fuzzBytes []byte

func (b *fuzzBytes) next(n int) int {
	if len(*b) == 0 || n <= 0 {
		return 0
	}
	v := int((*b)[0]) % n
	*b = (*b)[1:]
	return v
}

// randomFabric writes a small fabric experiment from the fuzzer's bytes: a
// custom topology of up to 5 switches and 8 hosts, some of its switches
// joined (perhaps not all: a disconnected one must be refused), a pattern,
// [[flows]] of every kind, short flows, PFC, spraying, and a scheme, for at
// most 300 us of simulated time.
func randomFabric(seed uint64, data []byte) string {
	in := fuzzBytes(data)
	var b strings.Builder
	algorithms := []string{"qcn", "dcqcn", "none", "dsm", "ecm", "qcn-t"}
	fmt.Fprintf(&b, "seed = %d\nduration = \"%dus\"\nwarmup = \"0s\"\nalgorithms = [%q]\n", seed%1000, 50+50*in.next(6), algorithms[in.next(len(algorithms))])
	fmt.Fprintf(&b, "[network]\ntopology = \"custom\"\ncapacity = \"%dGbps\"\nbuffer = \"%dKB\"\nframe_size = \"%dB\"\n",
		[]int{1, 10, 40}[in.next(3)], []int{3, 20, 64, 300}[in.next(4)], []int{1500, 1000, 64}[in.next(3)])
	if in.next(3) == 0 {
		b.WriteString("pfc = true\n")
	}
	if in.next(2) == 0 {
		fmt.Fprintf(&b, "routing = \"spray\"\nspray = %q\n", []string{"round_robin", "random"}[in.next(2)])
	}
	fmt.Fprintf(&b, "hop_delay = \"%dus\"\n", 1+in.next(5))
	b.WriteString("[output]\nsample_interval = \"10us\"\nrate_window = \"10us\"\n")
	switches, hosts := 1+in.next(5), 2+in.next(7)
	b.WriteString("[traffic]\n")
	switch in.next(5) {
	case 0:
		b.WriteString("pattern = \"permutation\"\n")
	case 1:
		fmt.Fprintf(&b, "pattern = \"incast\"\nincast_senders = %d\nincast_to = %d\nflow_size = \"%dKB\"\nincast_jitter = \"%dus\"\n",
			1+in.next(hosts-1), in.next(hosts), 1+in.next(100), in.next(20))
	case 2:
		b.WriteString("pattern = \"all_to_all\"\n")
	default:
		b.WriteString("pattern = \"none\"\n")
	}
	if in.next(3) == 0 {
		fmt.Fprintf(&b, "load = 0.%d\nshort_flow_sizes = %q\n", in.next(6), []string{"20KB", "websearch", "1B"}[in.next(3)])
	}
	for h := 0; h < hosts; h++ {
		fmt.Fprintf(&b, "[[network.link]]\na = \"h%d\"\nb = \"s%d\"\n", h, in.next(switches))
		if in.next(4) == 0 {
			fmt.Fprintf(&b, "capacity = \"%dGbps\"\n", 1+in.next(40))
		}
	}
	for s := 1; s < switches; s++ { // a chain of switches, with gaps and shortcuts
		if in.next(6) != 0 {
			fmt.Fprintf(&b, "[[network.link]]\na = \"s%d\"\nb = \"s%d\"\n", in.next(s), s)
		}
	}
	for range in.next(5) {
		fmt.Fprintf(&b, "[[flows]]\nfrom = %d\nto = %d\nstart = \"%dus\"\n", in.next(hosts), in.next(hosts), in.next(100))
		switch in.next(3) {
		case 0:
			fmt.Fprintf(&b, "size = \"%dKB\"\n", 1+in.next(200))
		case 1:
			fmt.Fprintf(&b, "stop = \"%dus\"\n", 100+in.next(200))
		}
	}
	return b.String()
}

// FuzzRandomFabrics builds and runs random small fabrics: whatever the
// file, loading it refuses it or accepts it without a panic, and an
// accepted one runs to its end without a panic, deterministically (the
// same summary twice), with no more frames delivered and dropped than the
// hosts sent, and every frame delivered having left a switch port. Its
// seed corpus runs as a test.
func FuzzRandomFabrics(f *testing.F) {
	for i := range 24 {
		data := make([]byte, 64)
		for j := range data {
			data[j] = byte((i*37 + j*11 + i*j) % 251)
		}
		f.Add(uint64(i), data)
	}
	f.Fuzz(func(t *testing.T, seed uint64, data []byte) {
		text := randomFabric(seed, data)
		e, err := Parse("fuzz.toml", []byte(text))
		if err != nil {
			return
		}
		if c := e.Cost(); c.Events > 2e6 || c.Memory > 100e6 {
			return // too slow to fuzz; the same code as a smaller one
		}
		run := func() (*model.Packet, []byte) {
			cfg, err := e.Config(e.Algorithms[0])
			if err != nil {
				t.Fatalf("accepted, but no config: %v\n%s", err, text)
			}
			sim, err := model.NewPacket(cfg)
			if err != nil {
				t.Fatalf("accepted, but does not build: %v\n%s", err, text)
			}
			sim.Run()
			sum := sim.Summary()
			out, err := json.Marshal(sum)
			if err != nil {
				t.Fatal(err)
			}
			return sim, out
		}
		sim, first := run()
		_, second := run()
		if string(first) != string(second) {
			t.Fatalf("the same file ran twice gave two summaries:\n%s", text)
		}
		var sum model.Summary
		json.Unmarshal(first, &sum)
		var drops int64
		for _, p := range sum.Bottlenecks {
			drops += p.DropsTotal
		}
		// What the hosts sent onto their links (Transmissions less
		// FrameHops: data, and the control frames receivers send back,
		// which are never dropped and never leave the network as frames)
		// bounds what was delivered and dropped; each delivered frame left
		// a switch port.
		sent := sim.Transmissions() - sim.FrameHops()
		if sim.Frames()+uint64(drops) > sent || sim.Frames() > sim.FrameHops() {
			t.Fatalf("%d frames left the network and %d were dropped, of %d the hosts sent; %d frames left a switch port:\n%s",
				sim.Frames(), drops, sent, sim.FrameHops(), text)
		}
	})
}
