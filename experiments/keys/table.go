package keys

import (
	"slices"

	"qcnlab/model"
)

var (
	chainsOnly  = Chains
	fabricsOnly = Fabrics
	packetOnly  = []string{"packet"}
)

// All is every key of an experiment file, in the order of a saved file.
var All = []Key{
	{Path: "name", Kind: Text, Doc: "the experiment's name: the workbench's save path, the report's and figures' titles", Derived: "the file's name"},
	{Path: "description", Kind: Text, Doc: "what the experiment shows, a paragraph"},
	{Path: "seed", Kind: Count, Doc: "seed of every random stream; same seed, same run"},
	{Path: "duration", Kind: Duration, Doc: "simulated time of a run", Cost: "events and time-series rows grow linearly with it"},
	{Path: "warmup", Kind: Duration, Derived: "duration / 5", Doc: "statistics cover [warmup, duration]"},
	{Path: "model", Kind: Choice, Choices: model.Models, Doc: "packet (discrete events), fluid (seed 000's equations, QCN only) or convergence (seed 002's model, 2 sources)"},
	{Path: "algorithms", Kind: List, Unit: "scheme names", Doc: "the schemes, each run on the same scenario and seed", Cost: "a run each, at every point of the sweep"},

	{Path: "network", Kind: Table, Doc: "the network: its topology, links and switches"},
	{Path: "network.topology", Kind: Choice, Choices: slices.Concat(Chains, Fabrics), Doc: "dumbbell or parking_lot (a chain of bottlenecks); leaf_spine, fat_tree or custom (a fabric)"},
	{Path: "network.capacity", Kind: Rate, Doc: "rate of each bottleneck link", FabricDoc: "rate of the host links (every link of a fat-tree)", Cost: "events grow linearly with it (frames per second)"},
	{Path: "network.buffer", Kind: Bytes, Doc: "buffer of each bottleneck (drop-tail)", FabricDoc: "buffer of every switch egress port (drop-tail)"},
	{Path: "network.frame_size", Kind: Bytes, Doc: "data frame size", Cost: "events grow as it shrinks"},
	{Path: "network.rtt", Kind: Duration, Topologies: chainsOnly, Doc: "round-trip propagation delay of every source"},
	{Path: "network.links", Kind: Count, Topologies: chainsOnly, Derived: "1 for a dumbbell, 2 for a parking lot", Doc: "congestible links in the chain (1 for a dumbbell)"},
	{Path: "network.hop_delay", Kind: Delay, Derived: "network.rtt / 2 (a fabric: 1us)", Doc: "propagation between switches of a parking lot (default: rtt/2)", FabricDoc: "propagation of every link, drawn per link"},
	{Path: "network.feedback_latency", Kind: Delay, Models: packetOnly, Doc: "the switch's time to generate a feedback frame, drawn per frame"},
	{Path: "network.pfc", Kind: Switch, Doc: "IEEE 802.1Qbb PAUSE on every switch port", FabricDoc: "IEEE 802.1Qbb PAUSE, hop by hop on every switch port"},
	{Path: "network.pfc_xoff", Kind: Bytes, Derived: "per port, from its buffer and the bytes in flight (model/pfc.go)", Doc: "PFC: the queue at which a port pauses its feeders"},
	{Path: "network.pfc_xon", Kind: Bytes, Derived: "per port, below pfc_xoff (model/pfc.go)", Doc: "PFC: the queue at which a port resumes its feeders"},
	{Path: "network.changes", Kind: Tables, Models: packetOnly, Doc: "[[network.changes]]: capacity changes during the run"},
	{Path: "network.changes.at", Kind: Duration, Models: packetOnly, Doc: "when the change happens (required)"},
	{Path: "network.changes.capacity", Kind: Rate, Models: packetOnly, Doc: "the capacity from then on (required)"},
	{Path: "network.changes.link", Kind: Count, Models: packetOnly, Derived: "every link", Doc: "the link it changes"},
	{Path: "network.leaves", Kind: Count, Topologies: []string{"leaf_spine"}, Doc: "leaf (top-of-rack) switches", Cost: "hosts, links and routing tables grow with it"},
	{Path: "network.spines", Kind: Count, Topologies: []string{"leaf_spine"}, Doc: "spine switches, each linked to every leaf", Cost: "links and routing tables grow with it"},
	{Path: "network.hosts_per_leaf", Kind: Count, Topologies: []string{"leaf_spine"}, Doc: "hosts under each leaf", Cost: "hosts and flows grow with it"},
	{Path: "network.uplink_capacity", Kind: Rate, Topologies: []string{"leaf_spine"}, Derived: "network.capacity", Doc: "rate of the leaf-spine links"},
	{Path: "network.k", Kind: Count, Topologies: []string{"fat_tree"}, Step: 2, Doc: "ports of every switch (even): k^3/4 hosts", Cost: "hosts grow with k^3, routing tables with k^5"},
	{Path: "network.routing", Kind: Choice, Choices: []string{"ecmp", "spray"}, Topologies: fabricsOnly, Derived: "ecmp", Doc: "ecmp (a path per flow, by hash) or spray (a next hop per frame)"},
	{Path: "network.spray", Kind: Choice, Choices: []string{"round_robin", "random"}, Topologies: fabricsOnly, Derived: "round_robin, with routing = \"spray\"", Doc: "how spray picks a frame's next hop"},
	{Path: "network.node", Kind: Tables, Topologies: []string{"custom"}, Doc: "[[network.node]]: a custom fabric's nodes", Cost: "nodes and routing tables grow with them"},
	{Path: "network.node.name", Kind: Text, Topologies: []string{"custom"}, Doc: "the node's name, which links name"},
	{Path: "network.node.kind", Kind: Choice, Choices: []string{"host", "switch"}, Topologies: []string{"custom"}, Doc: "host or switch"},
	{Path: "network.node.tier", Kind: Text, Topologies: []string{"custom"}, Doc: "the layer the summary's tiers sum it into"},
	{Path: "network.node.level", Kind: Count, Topologies: []string{"custom"}, Doc: "the tier's height, for the order of the tiers"},
	{Path: "network.link", Kind: Tables, Topologies: []string{"custom"}, Doc: "[[network.link]]: a custom fabric's links", Cost: "links and switch ports grow with them"},
	{Path: "network.link.a", Kind: Text, Topologies: []string{"custom"}, Doc: "one end, a node's name"},
	{Path: "network.link.b", Kind: Text, Topologies: []string{"custom"}, Doc: "the other end"},
	{Path: "network.link.capacity", Kind: Rate, Topologies: []string{"custom"}, Derived: "network.capacity", Doc: "the link's rate"},
	{Path: "network.link.delay", Kind: Delay, Topologies: []string{"custom"}, Derived: "network.hop_delay", Doc: "the link's propagation"},
	{Path: "network.link.buffer", Kind: Bytes, Topologies: []string{"custom"}, Derived: "network.buffer", Doc: "the buffer of its switch egress ports"},

	{Path: "sources", Kind: Table, Topologies: chainsOnly, Doc: "a chain's sources"},
	{Path: "sources.count", Kind: Count, Topologies: chainsOnly, Doc: "number of greedy sources", Cost: "memory and events grow with it"},
	{Path: "sources.line_rate", Kind: Rate, Topologies: chainsOnly, Derived: "network.capacity", Doc: "access link rate of each source"},
	{Path: "sources.initial_rate", Kind: Rate, Topologies: chainsOnly, Derived: "the line rate (seed 000 section II)", Doc: "rate each source starts at"},
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
	{Path: "traffic.long_flows", Kind: Count, Doc: "greedy flows per source (a chain's)"},
	{Path: "traffic.short_flow_rate", Kind: Number, Unit: "flows/s", Models: packetOnly, Doc: "short flows per second, whole network, Poisson", Cost: "flows and events grow with it"},
	{Path: "traffic.short_flow_sizes", Kind: Text, Derived: "websearch", Doc: "\"websearch\", \"hadoop\", a CDF file, or a size such as \"1.25MB\""},
	{Path: "traffic.pattern", Kind: Choice, Choices: []string{"permutation", "incast", "all_to_all", "none"}, Topologies: fabricsOnly, Derived: "permutation", Doc: "permutation, incast, all_to_all or none (only [[flows]])", Cost: "all_to_all: flows grow with the square of the hosts"},
	{Path: "traffic.flow_size", Kind: Text, Topologies: fabricsOnly, Derived: "greedy", Doc: "greedy, or the bytes each pattern flow sends"},
	{Path: "traffic.incast_senders", Kind: Count, Topologies: fabricsOnly, Doc: "senders, drawn among the hosts not under the receiver's switch"},
	{Path: "traffic.incast_from", Kind: List, Unit: "host indices", Topologies: fabricsOnly, Doc: "or the senders listed"},
	{Path: "traffic.incast_to", Kind: Count, Topologies: fabricsOnly, Derived: "host 0", Doc: "the receiving host"},
	{Path: "traffic.incast_start", Kind: Duration, Topologies: fabricsOnly, Doc: "when the incast's flows start"},
	{Path: "traffic.incast_jitter", Kind: Duration, Topologies: fabricsOnly, Doc: "starts spread over [start, start+jitter)"},
	{Path: "traffic.load", Kind: Number, Unit: "fraction", Topologies: fabricsOnly, Doc: "offered load of the short flows, a share of the hosts' capacity", Cost: "flows and events grow with it"},
	{Path: "traffic.stop", Kind: Duration, Models: packetOnly, Doc: "when the short flows stop arriving (the run drains them)"},
	{Path: "traffic.max_flows", Kind: Count, Models: packetOnly, Doc: "the most short flows that arrive", Cost: "bounds the flows' records"},

	{Path: "output", Kind: Table, Doc: "what a run records"},
	{Path: "output.sample_interval", Kind: Duration, Doc: "time series resolution", Cost: "time-series rows grow as it shrinks"},
	{Path: "output.rate_window", Kind: Duration, Doc: "per-source rates are averaged over this window"},
	{Path: "output.fairness_threshold", Kind: Number, Unit: "fraction", Doc: "min/max rate counted as fair (time to fairness)"},
	{Path: "output.phases", Kind: List, Unit: "durations", Models: packetOnly, Doc: "boundaries that split the run into phases, each with its own summary"},
	{Path: "output.watch_ports", Kind: Count, Topologies: fabricsOnly, Doc: "the ports a fabric's time series follows: those offered the most load at the start", Cost: "time-series columns"},
	{Path: "output.watch_flows", Kind: Count, Topologies: fabricsOnly, Doc: "the flows a fabric's time series follows", Cost: "time-series columns"},
	{Path: "output.fct_buckets", Kind: List, Unit: "sizes or percentiles", Doc: "upper edges of the flows' size buckets: sizes (\"100KB\") or shares of the size distribution (\"50%\")"},
	{Path: "output.watch", Kind: List, Unit: "flow indices or \"20->1\"", Doc: "the flows a fabric's time series follows first"},

	{Path: "flows", Kind: Tables, Topologies: fabricsOnly, Doc: "[[flows]]: a fabric's explicit flows"},
	{Path: "flows.from", Kind: Count, Topologies: fabricsOnly, Doc: "the sending host (required)"},
	{Path: "flows.to", Kind: Count, Topologies: fabricsOnly, Doc: "the receiving host (required)"},
	{Path: "flows.start", Kind: Duration, Topologies: fabricsOnly, Doc: "when it starts"},
	{Path: "flows.stop", Kind: Duration, Topologies: fabricsOnly, Derived: "never", Doc: "when it stops"},
	{Path: "flows.size", Kind: Text, Topologies: fabricsOnly, Derived: "greedy", Doc: "greedy, or the bytes it sends"},

	{Path: "params", Kind: Table, Doc: "[params.NAME]: a scheme's parameters (qcnlab algos NAME lists them), defaults from its seeds"},
	{Path: "sweep", Kind: Table, Doc: "[sweep]: KEY = [values...]; every combination runs with every algorithm", Cost: "runs multiply with each axis"},
}
