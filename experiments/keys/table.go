package keys

import "qcnlab/model"

var (
	chainsOnly  = []string{OnChains}
	fabricsOnly = []string{OnFabrics}
	packetOnly  = []string{"packet"}
)

// All is every key of an experiment file, in the order of a saved file:
// the table, with the topologies' own keys (AddTopology).
var All = build()

// table is every key but the topologies' own, in the order of a saved
// file; network.topology's words are the registered topologies'.
var table = []Key{
	{Path: "name", Kind: Text, Doc: "the experiment's name: the workbench's save path, the report's and figures' titles", Derived: "the file's name", Rule: checkName},
	{Path: "description", Kind: Text, Doc: "what the experiment shows, a paragraph", Rule: checkDescription},
	{Path: "seed", Kind: Count, Doc: "seed of every random stream; same seed, same run"},
	{Path: "duration", Kind: Duration, Doc: "simulated time of a run", Cost: "events and time-series rows grow linearly with it", Rule: positiveFinite},
	{Path: "warmup", Kind: Duration, Derived: "duration / 5", Doc: "statistics cover [warmup, duration]", Rule: checkWarmup},
	{Path: "model", Kind: Choice, Choices: model.Models, Doc: "packet (discrete events), fluid (seed 000's equations, QCN only) or convergence (seed 002's model, 2 sources)", Rule: oneOf},
	{Path: "algorithms", Kind: List, Unit: "scheme names", Doc: "the schemes, each run on the same scenario and seed", Cost: "a run each, at every point of the sweep", Rule: checkAlgorithms},

	{Path: "network", Kind: Table, Doc: "the network: its topology, links and switches"},
	{Path: "network.topology", Kind: Choice, Doc: "the topology (build writes in the words and this line)", Rule: oneOf},
	{Path: "network.capacity", Kind: Rate, Doc: "rate of each bottleneck link", FabricDoc: "rate of the host links (every link of a fat-tree)", Cost: "events grow linearly with it (frames per second)", Rule: minRate},
	{Path: "network.buffer", Kind: Bytes, Doc: "buffer of each bottleneck (drop-tail)", FabricDoc: "buffer of every switch egress port (drop-tail)", Rule: checkBuffer},
	{Path: "network.frame_size", Kind: Bytes, Doc: "data frame size", Cost: "events grow as it shrinks", Rule: checkFrameSize},
	{Path: "network.rtt", Kind: Duration, Topologies: chainsOnly, Doc: "round-trip propagation delay of every source", Rule: finite},
	{Path: "network.links", Kind: Count, Topologies: chainsOnly, Derived: "1 for a dumbbell, 2 for a parking lot", Doc: "congestible links in the chain (1 for a dumbbell)"},
	{Path: "network.hop_delay", Kind: Delay, Derived: "network.rtt / 2 on a parking lot, 1us on a fabric; a dumbbell has none", Doc: "propagation between switches of a parking lot (default: rtt/2)", FabricDoc: "propagation of every link, drawn per link"},
	{Path: "network.feedback_latency", Kind: Delay, Models: packetOnly, Doc: "the switch's time to generate a feedback frame, drawn per frame"},
	{Path: "network.pfc", Kind: Switch, Doc: "IEEE 802.1Qbb PAUSE on every switch port", FabricDoc: "IEEE 802.1Qbb PAUSE, hop by hop on every switch port"},
	{Path: "network.pfc_xoff", Kind: Bytes, Derived: "per port, from its buffer and the bytes in flight (model/pfc.go)", Doc: "PFC: the queue at which a port pauses its feeders"},
	{Path: "network.pfc_xon", Kind: Bytes, Derived: "per port, below pfc_xoff (model/pfc.go)", Doc: "PFC: the queue at which a port resumes its feeders"},
	{Path: "network.pfc_accounting", Kind: Choice, Choices: []string{"ingress", "egress"}, Derived: "ingress on a fabric, egress on a chain", Doc: "PFC decided per link into a switch (ingress, as the ns-3 RDMA switches decide it) or per egress port (the seeds' model)"},
	{Path: "network.pfc_deadlock_after", Kind: Duration, Derived: "1ms, with ingress accounting", Doc: "PFC: how long a cycle of paused ports must hold to stop the run as a deadlock (0s: no check)"},
	{Path: "network.pfc_threshold", Kind: Choice, Choices: []string{"static", "dynamic"}, Derived: "static; dynamic with buffer_model = \"shared\"", Doc: "PFC: per-link thresholds (static) or from a switch's shared buffer (dynamic, HPCC's switch; needs ingress accounting)"},
	{Path: "network.pfc_alpha", Kind: Number, Derived: "1/8 (HPCC's), with dynamic thresholds", Doc: "PFC: a dynamic threshold's share of the switch's free shared buffer"},
	{Path: "network.classes", Kind: Count, Models: packetOnly, Derived: "1", Doc: "traffic classes of every switch port, each its own queue (model/classes.go)", Rule: checkClasses},
	{Path: "network.scheduler", Kind: Choice, Choices: []string{"strict", "dwrr"}, Models: packetOnly, Derived: "strict", Doc: "how a port shares itself among its classes: strict priority (class 0 first) or deficit weighted round robin", Rule: checkScheduler},
	{Path: "network.strict_classes", Kind: Count, Models: packetOnly, Derived: "0, with scheduler = \"dwrr\"", Doc: "with dwrr, the first classes served by strict priority before the others", Rule: checkStrictClasses},
	{Path: "network.class_weights", Kind: List, Unit: "weights", Models: packetOnly, Derived: "1 each", Doc: "DWRR weight of each class", Rule: checkClassWeights},
	{Path: "network.dwrr_quantum", Kind: Bytes, Models: packetOnly, Derived: "network.frame_size", Doc: "bytes a DWRR weight of 1 earns per turn", Rule: checkDWRRQuantum},
	{Path: "network.class_k_min", Kind: List, Unit: "bytes", Models: packetOnly, Derived: "the scheme's k_min", Doc: "RED per class: each class's k_min, for the schemes that mark by RED (DCQCN)"},
	{Path: "network.class_k_max", Kind: List, Unit: "bytes", Models: packetOnly, Derived: "the scheme's k_max", Doc: "RED per class: each class's k_max"},
	{Path: "network.class_p_max", Kind: List, Unit: "probabilities", Models: packetOnly, Derived: "the scheme's p_max", Doc: "RED per class: each class's p_max"},
	{Path: "network.control_frames", Kind: List, Unit: "scheme names", Models: packetOnly, Derived: "[\"dcqcn\", \"dctcp\", \"hpcc\", \"swift\", \"timely\"] with ECMP routing, else none", Doc: "the schemes whose feedback and CNPs, or ACKs and NACKs, are 64 B frames queued at the reverse path's ports, before every class (the others' travel out of band)"},
	{Path: "network.pfc_classes", Kind: List, Unit: "classes", Models: packetOnly, Derived: "every class", Doc: "PFC: the lossless classes it pauses (the others drop)"},
	{Path: "network.buffer_model", Kind: Choice, Choices: []string{"per_port", "shared"}, Models: packetOnly, Derived: "per_port", Doc: "a drop-tail buffer per egress queue (per_port), or one per switch its queues share (shared, as the ns-3 RDMA switches)"},
	{Path: "network.switch_buffer", Kind: Bytes, Models: packetOnly, Derived: "the sum of the switch's ports' buffers", Doc: "shared: each switch's buffer"},
	{Path: "network.queue_reserve", Kind: Bytes, Models: packetOnly, Derived: "network.frame_size", Doc: "shared: bytes reserved to each egress queue (port, class)"},
	{Path: "network.dt_alpha", Kind: Number, Models: packetOnly, Derived: "1", Doc: "shared: the lossy classes' dynamic threshold, a share of the free shared buffer (Choudhury-Hahne)"},
	{Path: "network.changes", Kind: Tables, Models: packetOnly, Doc: "[[network.changes]]: capacity changes during the run"},
	{Path: "network.changes.at", Kind: Duration, Models: packetOnly, Doc: "when the change happens (required)"},
	{Path: "network.changes.capacity", Kind: Rate, Models: packetOnly, Doc: "the capacity from then on (required)"},
	{Path: "network.changes.link", Kind: Count, Models: packetOnly, Derived: "every link", Doc: "the link it changes"},
	{Path: "network.clock_ppm", Kind: Number, Unit: "ppm", Derived: "100 on a fabric, 0 on a chain", Doc: "bound of each host's clock offset, drawn from the seed: breaks the lock-step of line-rate senders", Rule: checkClockPPM},
	{Path: "network.switch_jitter", Kind: Duration, Derived: "one frame time on a fabric, 0 on a chain", Doc: "a switch's forwarding latency varies by up to this", Rule: checkSwitchJitter},
	{Path: "network.routing", Kind: Choice, Choices: []string{"ecmp", "spray"}, Topologies: fabricsOnly, Derived: "ecmp", Doc: "ecmp (a path per flow, by hash) or spray (a next hop per frame)", Rule: setOneOf},
	{Path: "network.spray", Kind: Choice, Choices: []string{"round_robin", "random"}, Topologies: fabricsOnly, Derived: "round_robin, with routing = \"spray\"", Doc: "how spray picks a frame's next hop", Rule: checkSpray},

	{Path: "sources", Kind: Table, Topologies: chainsOnly, Doc: "a chain's sources"},
	{Path: "sources.count", Kind: Count, Topologies: chainsOnly, Doc: "number of greedy sources", Cost: "memory and events grow with it", Rule: checkSourceCount},
	{Path: "sources.line_rate", Kind: Rate, Topologies: chainsOnly, Derived: "network.capacity", Doc: "access link rate of each source", Rule: minRate},
	{Path: "sources.initial_rate", Kind: Rate, Topologies: chainsOnly, Derived: "the line rate (seed 000 section II)", Doc: "rate each source starts at", Rule: minRate},
	{Path: "sources.forward_delay", Kind: Delay, Topologies: chainsOnly, Derived: "network.rtt / 2", Doc: "propagation delay to the bottleneck (default: rtt/2)"},
	{Path: "sources.backward_delay", Kind: Delay, Topologies: chainsOnly, Derived: "network.rtt / 2", Doc: "delay of feedback back to the source (default: rtt/2)"},
	{Path: "sources.start", Kind: Duration, Topologies: chainsOnly, Doc: "when the sources start"},
	{Path: "sources.stop", Kind: Duration, Topologies: chainsOnly, Doc: "when the sources stop"},
	{Path: "sources.path", Kind: List, Unit: "link indices", Topologies: chainsOnly, Derived: "every link", Doc: "the links the flows cross"},
	{Path: "sources.override", Kind: Tables, Topologies: chainsOnly, Doc: "[[sources.override]]: settings for some sources"},
	{Path: "sources.override.ids", Kind: List, Unit: "source ids", Topologies: chainsOnly, Doc: "the sources it sets"},
	{Path: "sources.override.line_rate", Kind: Rate, Topologies: chainsOnly, Derived: "sources.line_rate", Doc: "their access link rate"},
	{Path: "sources.override.initial_rate", Kind: Rate, Topologies: chainsOnly, Derived: "sources.initial_rate", Doc: "the rate they start at"},
	{Path: "sources.override.rtt", Kind: Delay, Topologies: chainsOnly, Doc: "sets both their delays to half of it (one draw per source)"},
	{Path: "sources.override.forward_delay", Kind: Delay, Topologies: chainsOnly, Derived: "sources.forward_delay", Doc: "their delay to the bottleneck"},
	{Path: "sources.override.backward_delay", Kind: Delay, Topologies: chainsOnly, Derived: "sources.backward_delay", Doc: "their feedback's delay back"},
	{Path: "sources.override.start", Kind: Duration, Topologies: chainsOnly, Derived: "sources.start", Doc: "when they start"},
	{Path: "sources.override.stop", Kind: Duration, Topologies: chainsOnly, Derived: "sources.stop", Doc: "when they stop"},
	{Path: "sources.override.path", Kind: List, Unit: "link indices", Topologies: chainsOnly, Derived: "sources.path", Doc: "the links they cross"},

	{Path: "traffic", Kind: Table, Doc: "the flows: a chain's long and short flows, a fabric's pattern"},
	{Path: "traffic.long_flows", Kind: Count, Doc: "greedy flows per source (a chain's)", Rule: checkLongFlows},
	{Path: "traffic.short_flow_rate", Kind: Number, Unit: "flows/s", Models: packetOnly, Doc: "short flows per second, whole network, Poisson", Cost: "flows and events grow with it", Rule: checkShortFlowRate},
	{Path: "traffic.short_flow_sizes", Kind: Text, Derived: "websearch", Doc: "\"websearch\", \"hadoop\", a CDF file, or a size such as \"1.25MB\""},
	{Path: "traffic.pattern", Kind: Choice, Choices: []string{"permutation", "incast", "all_to_all", "none"}, Topologies: fabricsOnly, Derived: "permutation", Doc: "permutation, incast, all_to_all or none (only [[flows]])", Cost: "all_to_all: flows grow with the square of the hosts", Rule: setOneOf},
	{Path: "traffic.flow_size", Kind: Text, Topologies: fabricsOnly, Derived: "greedy", Doc: "greedy, or the bytes each pattern flow sends"},
	{Path: "traffic.incast_senders", Kind: Count, Topologies: fabricsOnly, Doc: "senders, drawn among the hosts not under the receiver's switch (on a single switch, among the others)"},
	{Path: "traffic.incast_from", Kind: List, Unit: "host indices", Topologies: fabricsOnly, Doc: "or the senders listed"},
	{Path: "traffic.incast_to", Kind: Count, Topologies: fabricsOnly, Derived: "host 0", Doc: "the receiving host"},
	{Path: "traffic.incast_start", Kind: Duration, Topologies: fabricsOnly, Doc: "when the incast's flows start"},
	{Path: "traffic.incast_jitter", Kind: Duration, Topologies: fabricsOnly, Doc: "starts spread over [start, start+jitter)"},
	{Path: "traffic.load", Kind: Number, Unit: "fraction", Topologies: fabricsOnly, Doc: "offered load of the short flows, a share of the hosts' capacity", Cost: "flows and events grow with it"},
	{Path: "traffic.class", Kind: Count, Models: packetOnly, Derived: "0", Doc: "the traffic class of the sources' or the pattern's and short flows' frames", Rule: checkTrafficClass},
	{Path: "traffic.stop", Kind: Duration, Models: packetOnly, Doc: "when the short flows stop arriving (the run drains them)", Rule: checkTrafficStop},
	{Path: "traffic.max_flows", Kind: Count, Models: packetOnly, Doc: "the most short flows that arrive", Cost: "bounds the flows' records", Rule: checkMaxFlows},

	{Path: "output", Kind: Table, Doc: "what a run records"},
	{Path: "output.sample_interval", Kind: Duration, Doc: "time series resolution", Cost: "time-series rows grow as it shrinks", Rule: checkSampleInterval},
	{Path: "output.rate_window", Kind: Duration, Doc: "per-source rates are averaged over this window", Rule: checkRateWindow},
	{Path: "output.fairness_threshold", Kind: Number, Unit: "fraction", Doc: "min/max rate counted as fair (time to fairness)", Rule: checkFairnessThreshold},
	{Path: "output.phases", Kind: List, Unit: "durations", Models: packetOnly, Doc: "boundaries that split the run into phases, each with its own summary", Rule: checkPhases},
	{Path: "output.watch_ports", Kind: Count, Topologies: fabricsOnly, Doc: "the ports a fabric's time series follows: those offered the most load at the start", Cost: "time-series columns", Rule: watched},
	{Path: "output.watch_flows", Kind: Count, Topologies: fabricsOnly, Doc: "the flows a fabric's time series follows", Cost: "time-series columns", Rule: watched},
	{Path: "output.fct_buckets", Kind: List, Unit: "sizes or percentiles", Doc: "upper edges of the flows' size buckets: sizes (\"100KB\") or shares of the size distribution (\"50%\")"},
	{Path: "output.watch", Kind: List, Unit: "flow indices or \"20->1\"", Doc: "the flows a fabric's time series follows first"},

	{Path: "flows", Kind: Tables, Topologies: fabricsOnly, Doc: "[[flows]]: a fabric's explicit flows"},
	{Path: "flows.from", Kind: Count, Topologies: fabricsOnly, Doc: "the sending host (required)"},
	{Path: "flows.to", Kind: Count, Topologies: fabricsOnly, Doc: "the receiving host (required)"},
	{Path: "flows.start", Kind: Duration, Topologies: fabricsOnly, Doc: "when it starts"},
	{Path: "flows.stop", Kind: Duration, Topologies: fabricsOnly, Derived: "never", Doc: "when it stops"},
	{Path: "flows.size", Kind: Text, Topologies: fabricsOnly, Derived: "greedy", Doc: "greedy, or the bytes it sends"},
	{Path: "flows.class", Kind: Count, Topologies: fabricsOnly, Models: packetOnly, Derived: "traffic.class", Doc: "its frames' traffic class"},

	{Path: "transport", Kind: Table, Models: packetOnly, Doc: "the transport: ACKs, windows, loss recovery; the ACK-clocked schemes (dctcp, hpcc, swift, timely) always run over it, the rate-based ones only with recovery go_back_n or selective (else open loop, as their seeds)"},
	{Path: "transport.ack_every", Kind: Bytes, Models: packetOnly, Derived: "1 B: every frame (the HPCC code's run.py)", Doc: "the receiver acknowledges each time its cumulative sequence passes a multiple of it (L2_ACK_INTERVAL), and at once a frame whose sender asks for an ACK (a message's last, one that fills its window); a frame size's multiple acks every few frames", Rule: checkAckEvery},
	{Path: "transport.recovery", Kind: Choice, Choices: model.Recoveries, Models: packetOnly, Derived: "go_back_n; none (open loop) for the rate-based schemes", Doc: "go_back_n (resend from the first byte not acknowledged, as RDMA NICs and the HPCC code), selective (resend only the frames reported missing, IRN) or none (a lost frame stays lost)", Rule: checkRecovery},
	{Path: "transport.rto_min", Kind: Duration, Models: packetOnly, Derived: "1ms", Doc: "the least retransmission timeout (RFC 6298's srtt + 4 rttvar, doubled at each expiry)", Rule: setPositiveFinite},

	{Path: "params", Kind: Table, Doc: "[params.NAME]: a scheme's parameters (qcnlab algos NAME lists them), defaults from its seeds"},
	{Path: "sweep", Kind: Table, Doc: "[sweep]: KEY = [values...]; every combination runs with every algorithm", Cost: "runs multiply with each axis"},
}
