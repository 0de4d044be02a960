package keys

import (
	"fmt"
	"slices"

	"qcnlab/algos"
	"qcnlab/experiments/traffic"
	"qcnlab/model"
	"qcnlab/units"
)

// A Cross is a rule that weighs keys against each other: a key that needs
// another (network.pfc_xoff needs network.pfc), a value another bounds (a
// flow's class, network.classes), a key the experiment's schemes or model
// do not read. It reads the file through File, array elements by their
// index ("flows[2].class"), and reports each problem under one of Keys.
// The checks that need the network built (PFC's thresholds against every
// port, a scheme's defaults, the cost) are Validate's.
type Cross struct {
	Name string   // what it weighs, a few words
	Keys []string // the keys it reads and blames, registered ones
	// Topologies are where it runs, nil for all (as Key.Topologies).
	Topologies []string
	Check      func(f File, bad Bad)
}

// RunCross runs the cross-key rules that apply to a topology, in order,
// but not a rule that reads a key refused already (refused holds their
// plain paths): that key's own message says what is wrong, and the rule,
// reading a value that cannot stand, would only add a second one.
func RunCross(topology string, f File, refused map[string]bool, bad Bad) {
	if !IsTopology(topology) {
		topology = Chains()[0] // as Run
	}
	for _, c := range CrossRules {
		if c.Topologies != nil && !slices.Contains(Named(c.Topologies), topology) {
			continue
		}
		if slices.ContainsFunc(c.Keys, func(k string) bool { return refused[k] }) {
			continue
		}
		c.Check(f, bad)
	}
}

// CrossRules are every rule that weighs keys against each other, in the
// order Validate reports them.
var CrossRules = []Cross{
	{Name: "seed 002's convergence model against the sources", Topologies: chainsOnly,
		Keys:  []string{"model", "sources.count", "duration", "sources.start", "sources.stop", "sources.override.start", "sources.override.stop", "traffic.long_flows", "traffic.short_flow_rate", "network.pfc"},
		Check: checkConvergence},
	{Name: "a fabric's model and traffic", Topologies: fabricsOnly, Keys: []string{"traffic.long_flows", "network.topology", "model"}, Check: checkFabricModel},
	{Name: "a fabric's pattern and [[flows]] against its hosts", Topologies: fabricsOnly,
		Keys:  []string{"traffic.flow_size", "traffic.pattern", "traffic.incast_to", "traffic.incast_from", "traffic.incast_senders", "traffic.incast_jitter", "traffic.incast_start", "traffic.load", "traffic.short_flow_rate", "flows.from", "flows.to", "flows.size", "flows.start", "flows.stop"},
		Check: checkPattern},
	{Name: "capacity changes against the model, the run and the links", Keys: []string{"network.changes", "network.feedback_latency", "model", "duration", "network.changes.at", "network.changes.capacity", "network.changes.link"}, Check: checkChanges},
	{Name: "[transport] against the schemes", Keys: []string{"transport", "algorithms", "model", "transport.recovery"}, Check: checkTransport},
	{Name: "classes of flows and of PFC", Keys: []string{"flows.class", "network.classes", "network.pfc", "network.pfc_accounting", "network.pfc_classes"}, Check: checkClassesOf},
	{Name: "the buffer model's keys", Keys: []string{"network.buffer_model", "model", "network.switch_buffer", "network.queue_reserve", "network.dt_alpha", "network.buffer", "network.frame_size", "network.classes", "network.pfc", "network.pfc_accounting", "network.pfc_threshold", "network.pfc_xoff", "network.pfc_xon"}, Check: checkBufferModel},
	{Name: "RED per class against the classes and the schemes", Keys: []string{"network.class_k_min", "network.class_k_max", "network.class_p_max", "network.classes", "algorithms"}, Check: checkClassRED},
	{Name: "control frames against the routing, PFC and the schemes", Keys: []string{"network.control_frames", "network.topology", "network.routing", "network.pfc", "network.pfc_accounting", "algorithms"}, Check: checkControlFrames},
	{Name: "PFC's keys against each other and the model", Keys: []string{"network.pfc_xoff", "network.pfc_xon", "network.pfc", "network.pfc_deadlock_after", "network.pfc_accounting", "network.pfc_threshold", "network.pfc_alpha", "network.buffer_model", "model"}, Check: checkPFCKeys},
}

func intAt(f File, path string) (int, bool) {
	n, ok := f.Value(path).(int)
	return n, ok
}

func checkFabricModel(f File, bad Bad) {
	if n, _ := intAt(f, "traffic.long_flows"); n != 1 && f.Set("traffic.long_flows") {
		bad("traffic.long_flows", "a fabric's flows are [traffic] pattern and [[flows]]; long_flows is the chains' sources'")
	}
	if m := textAt(f, "model"); m != "packet" {
		bad("network.topology", "the %s model has one bottleneck; a fabric needs model = \"packet\"", m)
	}
}

// checkPattern checks [traffic]'s fabric keys and [[flows]] against the
// host count.
func checkPattern(f File, bad Bad) {
	hosts := f.Hosts()
	if _, err := traffic.FlowSize(textAt(f, "traffic.flow_size")); err != nil {
		bad("traffic.flow_size", "%v", err)
	}
	inRange := func(key string, h int) {
		if hosts > 0 && (h < 0 || h >= hosts) {
			bad(key, "host %d is out of range: the topology has hosts 0 to %d", h, hosts-1)
		}
	}
	from, _ := f.Value("traffic.incast_from").([]int)
	senders, sendersSet := intAt(f, "traffic.incast_senders")
	if f.Resolved("traffic.pattern") == "incast" {
		to, _ := intAt(f, "traffic.incast_to")
		inRange("traffic.incast_to", to)
		for _, h := range from {
			inRange("traffic.incast_from", h)
			if h == to {
				bad("traffic.incast_from", "host %d is the incast's receiver", h)
			}
		}
		switch {
		case sendersSet && len(from) > 0:
			bad("traffic.incast_senders", "give incast_senders (drawn from the seed) or incast_from (listed), not both")
		case !sendersSet && len(from) == 0:
			bad("traffic.incast_senders", "missing: an incast needs incast_senders = M or incast_from = [...]")
		case sendersSet && (senders < 1 || senders >= max(hosts, 2)):
			bad("traffic.incast_senders", "%d: from 1 to %d senders on %d hosts", senders, max(hosts-1, 1), hosts)
		}
	} else {
		for _, key := range []string{"traffic.incast_senders", "traffic.incast_from", "traffic.incast_to", "traffic.incast_jitter", "traffic.incast_start"} {
			if f.Set(key) {
				bad(key, "applies to pattern = \"incast\"")
			}
		}
	}
	load, loadSet := f.Value("traffic.load").(float64)
	rate, _ := f.Value("traffic.short_flow_rate").(float64)
	if loadSet && (!(load >= 0) || load > 10) {
		bad("traffic.load", "must be a share of the host links' capacity, from 0 to 10")
	}
	if loadSet && rate > 0 {
		bad("traffic.load", "give the short flows as load or as short_flow_rate, not both")
	}
	flows := f.Len("flows")
	for i := range flows {
		key := fmt.Sprintf("flows[%d]", i)
		from, fromSet := intAt(f, key+".from")
		to, toSet := intAt(f, key+".to")
		switch {
		case !fromSet:
			bad(key+".from", "missing: the host the flow starts at, e.g. from = 0")
		case !toSet:
			bad(key+".to", "missing: the host the flow goes to, e.g. to = 1")
		default:
			inRange(key+".from", from)
			inRange(key+".to", to)
			if from == to {
				bad(key+".to", "a flow from host %d to itself", from)
			}
		}
		if _, err := traffic.FlowSize(textAt(f, key+".size")); err != nil {
			bad(key+".size", "%v", err)
		}
		start := durationAt(f, key+".start")
		if stop, ok := f.Value(key + ".stop").(units.Duration); ok && algos.Time(stop) <= start {
			bad(key+".stop", "%s is not after its start %s", units.FormatDuration(algos.Time(stop)), units.FormatDuration(start))
		}
	}
	tr := traffic.Traffic{Pattern: textAt(f, "traffic.pattern"), IncastFrom: from}
	if sendersSet {
		tr.IncastSenders = &senders
	}
	if n := tr.Count(hosts, flows); n > MaxFlows {
		bad("traffic.pattern", "%.0f flows, each with its own rate limiter; the most is %d", n, MaxFlows)
	} else if n == 0 && hosts > 0 && rate == 0 && (!loadSet || load == 0) {
		bad("traffic.pattern", "the fabric has no flows: set a pattern, [[flows]] or short flows")
	}
}

// checkChanges checks [[network.changes]] against the model, the run and
// the links a change may name (File.Ports).
func checkChanges(f File, bad Bad) {
	changes := f.Len("network.changes")
	m := textAt(f, "model")
	latency, _ := f.Value("network.feedback_latency").(interface{ Dist() model.Dist })
	if m != "packet" && (changes > 0 || latency != nil && latency.Dist() != model.FixedDist(0)) {
		key := "network.changes"
		if changes == 0 {
			key = "network.feedback_latency"
		}
		bad(key, "the %s model has a fixed capacity and no feedback latency; use model = \"packet\"", m)
	}
	d := durationAt(f, "duration")
	links := f.Ports()
	fabric := IsFabric(textAt(f, "network.topology"))
	for i := range changes {
		key := fmt.Sprintf("network.changes[%d]", i)
		switch at, ok := f.Value(key + ".at").(units.Duration); {
		case !ok:
			bad(key+".at", "missing: when the capacity changes, e.g. at = \"100ms\"")
		case algos.Time(at) >= d:
			bad(key+".at", "%s is not before the end of the run (%s)", units.FormatDuration(algos.Time(at)), units.FormatDuration(d))
		}
		switch c, ok := f.Value(key + ".capacity").(units.Rate); {
		case !ok:
			bad(key+".capacity", "missing: the rate served from then on, e.g. capacity = \"5Gbps\"")
		case !(c > 0):
			bad(key+".capacity", "must be positive")
		}
		if l, ok := intAt(f, key+".link"); ok && (l < 0 || l >= links) {
			what := "links"
			if fabric {
				what = "a fabric's switch egress ports, in topology order,"
			}
			bad(key+".link", "link %d does not exist (%s are 0 to %d)", l, what, links-1)
		}
	}
}

// RatesRecover says the rate-based schemes run over the transport: the
// file asks for a recovery (go_back_n or selective).
func RatesRecover(recovery string) bool {
	return recovery == model.RecoveryGoBackN.String() || recovery == model.RecoverySelective.String()
}

// checkTransport refuses [transport] where no scheme runs over it: no
// ACK-clocked scheme, and no recovery asked of the rate-based ones.
func checkTransport(f File, bad Bad) {
	recovery := textAt(f, "transport.recovery")
	tuning := f.Value("transport.ack_every") != nil || f.Value("transport.rto_min") != nil
	if !tuning && recovery == "" {
		return
	}
	names, _ := f.Value("algorithms").([]string)
	ackClocked := slices.ContainsFunc(names, func(name string) bool {
		sc, err := algos.Lookup(name)
		return err == nil && sc.NeedsTransport()
	})
	// recovery = "none" alone says what the rate-based schemes do anyway
	// (open loop): a sweep may set it beside a recovery.
	if !ackClocked && !RatesRecover(recovery) && (tuning || recovery != "none") {
		bad("transport", "applies to the ACK-clocked schemes (dctcp, hpcc, swift, timely), and none of the experiment's algorithms is one; the rate-based schemes run open loop unless transport.recovery is \"go_back_n\" or \"selective\"")
	}
	if textAt(f, "model") != "packet" {
		bad("transport", "the transport is the packet model's; use model = \"packet\"")
	}
}

// checkClassesOf checks the class each of [[flows]] names, PFC with
// several classes (by ingress accounting only) and its lossless classes.
func checkClassesOf(f File, bad Bad) {
	n, ok := classes(f)
	if !ok {
		return // network.classes's rule reports it
	}
	for i := range f.Len("flows") {
		key := fmt.Sprintf("flows[%d].class", i)
		if c, set := intAt(f, key); set {
			if msg := ClassError(c, n); msg != "" {
				bad(key, "%s", msg)
			}
		}
	}
	pfc, _ := f.Value("network.pfc").(bool)
	if n > 1 && pfc && f.Resolved("network.pfc_accounting") != "ingress" {
		bad("network.pfc_accounting", "PFC per class is decided per link into a switch: with network.classes of 2 or more set network.pfc_accounting = \"ingress\"")
	}
	if pc, set := f.Value("network.pfc_classes").([]int); set && pc != nil {
		if !pfc {
			bad("network.pfc_classes", "set network.pfc = true for them to apply")
		}
		for _, c := range pc {
			if msg := ClassError(c, n); msg != "" {
				bad("network.pfc_classes", "%s", msg)
			}
		}
	}
}

// checkBufferModel checks the shared buffer's keys against the buffer
// model, a chain's switch, and PFC.
func checkBufferModel(f File, bad Bad) {
	shared := f.Resolved("network.buffer_model") == "shared"
	switch m := textAt(f, "network.buffer_model"); {
	case m == "":
	case m != "per_port" && m != "shared":
		bad("network.buffer_model", "%q: must be \"per_port\" or \"shared\"", m)
		return
	case shared && textAt(f, "model") != "packet":
		bad("network.buffer_model", "the shared buffer is the packet model's; use model = \"packet\"")
	}
	only := func(key string) bool {
		if !shared {
			bad(key, "set network.buffer_model = \"shared\" for it to apply")
		}
		return shared
	}
	frame := bytesAt(f, "network.frame_size")
	whole := func(key string, least float64) {
		if b, set := f.Value(key).(units.Bytes); set && only(key) && (float64(b) < least || float64(b) != float64(int64(b)) || b > 1<<40) {
			bad(key, "must be a whole number of bytes, at least %s", units.FormatBytes(least))
		}
	}
	whole("network.switch_buffer", 2*float64(frame))
	whole("network.queue_reserve", 0)
	if shared && !IsFabric(textAt(f, "network.topology")) {
		// A chain's switch has one port: its queues' reserves must leave
		// two frames of its buffer to share (a fabric's switches are
		// checked as the network is built, model.ReserveError).
		size := int(bytesAt(f, "network.buffer"))
		if b, set := f.Value("network.switch_buffer").(units.Bytes); set && int(b) > 0 {
			size = int(b)
		}
		reserve := int(frame)
		if b, set := f.Value("network.queue_reserve").(units.Bytes); set {
			reserve = int(b)
		}
		n, _ := classes(f)
		if q := n * reserve; size-q < 2*int(frame) {
			bad("network.queue_reserve", "switch %d's queues reserve %d B of its %d B shared buffer: leave at least two frames to share", 0, q, size)
		}
	}
	if a, set := f.Value("network.dt_alpha").(float64); set && only("network.dt_alpha") && !(a > 0 && a <= 64) {
		bad("network.dt_alpha", "must be in (0, 64]")
	}
	if pfc, _ := f.Value("network.pfc").(bool); shared && pfc {
		switch {
		case f.Resolved("network.pfc_accounting") != "ingress":
			bad("network.pfc_accounting", "a shared buffer's PFC is decided per link into a switch: set network.pfc_accounting = \"ingress\"")
		case textAt(f, "network.pfc_threshold") == "static":
			bad("network.pfc_threshold", "a shared buffer's PFC thresholds follow its free space: leave it out, or \"dynamic\"")
		case f.Value("network.pfc_xoff") != nil || f.Value("network.pfc_xon") != nil:
			bad("network.pfc_xoff", "a shared buffer's PFC thresholds are dynamic, derived: leave network.pfc_xoff and network.pfc_xon out")
		}
	}
}

// Marks reports whether scheme name marks by RED's k_min, k_max and
// p_max, which network.class_k_min and its kin set per class.
func Marks(name string) bool {
	sc, err := algos.Lookup(name)
	if err != nil {
		return false
	}
	_, ok := sc.Param("k_min")
	return ok
}

// checkClassRED checks the lists of RED's thresholds per class: one value
// per class, on ports of several, for a scheme that marks by them (each
// class's values against the scheme's range are Validate's).
func checkClassRED(f File, bad Bad) {
	n, _ := f.Resolved("network.classes").(int)
	given := false
	for _, key := range []string{"network.class_k_min", "network.class_k_max", "network.class_p_max"} {
		l := listLen(f.Value(key))
		if l == 0 {
			continue
		}
		given = true
		if n < 2 {
			bad(key, "applies with network.classes of 2 or more")
			return
		}
		if l != n {
			bad(key, "%d values for %d classes: give one per class", l, n)
			return
		}
	}
	names, _ := f.Value("algorithms").([]string)
	if given && !slices.ContainsFunc(names, Marks) {
		bad("network.class_k_min", "none of the algorithms marks by RED's k_min, k_max and p_max (DCQCN does)")
	}
}

func listLen(v any) int {
	switch l := v.(type) {
	case []units.Bytes:
		return len(l)
	case []float64:
		return len(l)
	}
	return 0
}

// checkControlFrames checks network.control_frames: schemes of the
// experiment, on a fabric routed by ECMP.
func checkControlFrames(f File, bad Bad) {
	l, _ := f.Value("network.control_frames").([]string)
	if len(l) == 0 {
		return
	}
	pfc, _ := f.Value("network.pfc").(bool)
	switch {
	case !IsFabric(textAt(f, "network.topology")):
		bad("network.control_frames", "a chain's reverse ports are not simulated: its feedback travels out of band")
		return
	case textAt(f, "network.routing") == "spray":
		bad("network.control_frames", "control frames take the reverse of their flow's route: they need routing = \"ecmp\"")
		return
	case pfc && f.Resolved("network.pfc_accounting") != "ingress":
		bad("network.control_frames", "control frames need PFC decided per link into a switch: set network.pfc_accounting = \"ingress\"")
		return
	}
	names, _ := f.Value("algorithms").([]string)
	for _, name := range l {
		if !slices.Contains(names, name) {
			bad("network.control_frames", "%q is not one of the experiment's algorithms %q", name, names)
		}
	}
}

// checkPFCKeys checks PFC's keys against network.pfc, each other and the
// model; their values against every port's buffer are Validate's.
func checkPFCKeys(f File, bad Bad) {
	pfc, _ := f.Value("network.pfc").(bool)
	for _, key := range []string{"network.pfc_xoff", "network.pfc_xon"} {
		v, set := f.Value(key).(units.Bytes)
		switch {
		case !set:
		case !pfc:
			bad(key, "set network.pfc = true for the thresholds to apply")
		case v < 0 || !whole(v):
			bad(key, "must be a whole number of bytes, not negative")
			return
		}
	}
	ingress := f.Resolved("network.pfc_accounting") == "ingress"
	if d, set := f.Value("network.pfc_deadlock_after").(units.Duration); set {
		switch {
		case d < 0:
			bad("network.pfc_deadlock_after", "must not be negative (0s turns the check off)")
		case !pfc:
			bad("network.pfc_deadlock_after", "set network.pfc = true for the check to apply")
		case !ingress:
			bad("network.pfc_deadlock_after", "the deadlock check follows ingress accounting: set network.pfc_accounting = \"ingress\"")
		}
	}
	threshold := textAt(f, "network.pfc_threshold")
	switch t := threshold; {
	case t == "":
	case t != "static" && t != "dynamic":
		bad("network.pfc_threshold", "%q: must be \"static\" or \"dynamic\"", t)
	case !pfc:
		bad("network.pfc_threshold", "set network.pfc = true for the threshold to apply")
	case t == "dynamic" && !ingress:
		bad("network.pfc_threshold", "dynamic thresholds need ingress accounting: set network.pfc_accounting = \"ingress\"")
	case t == "dynamic" && (f.Value("network.pfc_xoff") != nil || f.Value("network.pfc_xon") != nil):
		bad("network.pfc_threshold", "dynamic thresholds are derived: leave network.pfc_xoff and network.pfc_xon out")
	}
	if a, set := f.Value("network.pfc_alpha").(float64); set {
		switch {
		case threshold != "dynamic" && f.Resolved("network.buffer_model") != "shared":
			bad("network.pfc_alpha", "set network.pfc_threshold = \"dynamic\" for it to apply")
		case !(a > 0 && a <= 16):
			bad("network.pfc_alpha", "must be in (0, 16]")
		}
	}
	if a := textAt(f, "network.pfc_accounting"); a != "" {
		switch {
		case a != "ingress" && a != "egress":
			bad("network.pfc_accounting", "%q: must be \"ingress\" or \"egress\"", a)
		case !pfc:
			bad("network.pfc_accounting", "set network.pfc = true for the accounting to apply")
		}
	}
	if pfc && textAt(f, "model") == "fluid" {
		bad("network.pfc", "the fluid model has no PFC; use model = \"packet\"")
	}
}

// checkConvergence refuses what seed 002's convergence model cannot
// honour: its two sources send greedily from start to end (the third stage
// of section III) through a queue that never fills (assumption 4).
func checkConvergence(f File, bad Bad) {
	if textAt(f, "model") != "convergence" {
		return
	}
	if n, _ := intAt(f, "sources.count"); n != 2 {
		bad("model", "seed 002's convergence model is for 2 sources, not %d (sources.count)", n)
	}
	d := durationAt(f, "duration")
	during := func(t units.Duration) bool { return t > 0 && algos.Time(t) < d }
	moves := durationAt(f, "sources.start") != 0 || during(units.Duration(durationAt(f, "sources.stop")))
	for i := range f.Len("sources.override") {
		key := fmt.Sprintf("sources.override[%d]", i)
		start, starts := f.Value(key + ".start").(units.Duration)
		stop, stops := f.Value(key + ".stop").(units.Duration)
		moves = moves || (starts && start != 0) || (stops && during(stop))
	}
	if moves {
		bad("model", "seed 002's convergence model has both sources sending throughout (sources.start, sources.stop); use model = \"packet\"")
	}
	long, _ := intAt(f, "traffic.long_flows")
	if rate, _ := f.Value("traffic.short_flow_rate").(float64); long != 1 || rate != 0 {
		bad("model", "seed 002's convergence model has one greedy flow per source (traffic); use model = \"packet\"")
	}
	if pfc, _ := f.Value("network.pfc").(bool); pfc {
		bad("model", "seed 002's convergence model has no PFC, its queue never fills (network.pfc); use model = \"packet\"")
	}
}
